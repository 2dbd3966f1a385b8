//go:build unix

package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
)

// nl2bash reads the commands of the NL2Bash corpus
// ($TOOLWALL_CORPORA/benign/nl2bash.jsonl, else the shared folder's corpora;
// 12,607 commands people wrote, credited in the corpus's README) as the
// server receives them, or skips tb when it is absent.
func nl2bash(tb testing.TB) []toolwall.Call {
	tb.Helper()
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpora")
	}
	f, err := os.Open(filepath.Join(dir, "benign", "nl2bash.jsonl"))
	if err != nil {
		tb.Skipf("the NL2Bash corpus is not there (%v); set TOOLWALL_CORPORA", err)
	}
	defer f.Close()
	var out []toolwall.Call
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Cmd string `json:"cmd"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			tb.Fatal(err)
		}
		in, _ := json.Marshal(map[string]string{"command": rec.Cmd})
		out = append(out, toolwall.Call{Tool: toolwall.ToolBash, Input: in, Cwd: "/w", Home: "/home/u"})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkEvaluateNL2Bash is the cost of a single-call decision on
// varied commands: each iteration judges the next NL2Bash command, round
// the corpus, with the gate of the HTTP server's in-memory path (every
// analyzer, no session, Installed places). ns/op is the mean per
// decision; cpu-ns/op is the process's CPU time per decision (garbage
// collection included), steadier than ns/op on a busy machine. Profile
// it with
//
//	go test -run x -bench EvaluateNL2Bash -cpuprofile cpu.out ./engine
func BenchmarkEvaluateNL2Bash(b *testing.B) {
	calls := nl2bash(b)
	e := New(Options{Places: Installed})
	defer e.Close()
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	cpu0 := cpuTime()
	for b.Loop() {
		e.Evaluate(ctx, calls[i%len(calls)])
		i++
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
