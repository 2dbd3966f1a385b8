//go:build unix

package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolwall/toolwall"
)

// The gate's cost beside its yardstick, one row a benchmark, each
// printing both figures and their ratio in one run (the machine's load
// moves both alike):
//
//	go test -run x -bench 'Cost' -count 8 ./engine
//
// x-parse is the decision's time over a bare mvdan.cc/sh/v3/syntax parse
// of the same text (a reused bash parser, as the reader uses); allocs is
// the decision's allocations per call, parse-allocs the parse's.

// costSample is every 25th NL2Bash command: about 500 varied lines.
func costSample(tb testing.TB) []toolwall.Call {
	all := nl2bash(tb)
	var out []toolwall.Call
	for i := 0; i < len(all); i += 25 {
		out = append(out, all[i])
	}
	return out
}

func commandOf(c toolwall.Call) string {
	var in struct{ Command string }
	_ = json.Unmarshal(c.Input, &in)
	return in.Command
}

// benchCost times decisions on calls against bare parses of their
// commands, alternating one and the other, and reports both with their
// ratio and allocations.
func benchCost(b *testing.B, calls []toolwall.Call) {
	e := New(Options{Places: Installed})
	defer e.Close()
	ctx := context.Background()
	srcs := make([]string, len(calls))
	var size int
	for i, c := range calls {
		srcs[i] = commandOf(c)
		size += len(srcs[i])
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
	parse := func(src string) {
		if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
			_ = err // a line bash cannot parse costs its parse all the same
		}
	}
	// allocations: one untimed round of each
	var m0, m1, m2 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for _, c := range calls {
		e.Evaluate(ctx, c)
	}
	runtime.ReadMemStats(&m1)
	for _, s := range srcs {
		parse(s)
	}
	runtime.ReadMemStats(&m2)
	n := uint64(len(calls))
	var decide, parsed, cpuDecide, cpuParse time.Duration
	i := 0
	for b.Loop() {
		k := i % len(calls)
		c0 := cpuTime()
		t0 := time.Now()
		e.Evaluate(ctx, calls[k])
		t1 := time.Now()
		c1 := cpuTime()
		parse(srcs[k])
		t2 := time.Now()
		c2 := cpuTime()
		decide += t1.Sub(t0)
		parsed += t2.Sub(t1)
		cpuDecide += c1 - c0
		cpuParse += c2 - c1
		i++
	}
	// CPU time (the process's, garbage collection and the dry run's
	// goroutines included; git's, under Installed, not) moves less than
	// wall time on a busy machine.
	b.ReportMetric(float64(cpuDecide.Nanoseconds())/float64(b.N), "cpu-decide-ns/op")
	b.ReportMetric(float64(cpuParse.Nanoseconds())/float64(b.N), "cpu-parse-ns/op")
	b.ReportMetric(float64(cpuDecide)/float64(max(cpuParse, 1)), "cpu-x-parse")
	b.ReportMetric(float64(decide.Nanoseconds())/float64(b.N), "decide-ns/op")
	b.ReportMetric(float64(parsed.Nanoseconds())/float64(b.N), "parse-ns/op")
	b.ReportMetric(float64(decide)/float64(parsed), "x-parse")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(n), "allocs/decide")
	b.ReportMetric(float64(m2.Mallocs-m1.Mallocs)/float64(n), "allocs/parse")
	b.ReportMetric(float64(decide.Nanoseconds())/float64(b.N)/(float64(size)/float64(len(calls))), "decide-ns/byte")
}

// BenchmarkCostNL2Bash: the decision on NL2Bash commands against their
// bare parse (target: at most 3 × and 40 allocations).
func BenchmarkCostNL2Bash(b *testing.B) { benchCost(b, costSample(b)) }

// BenchmarkCostMultiline: the decision on a 4 KB multi-line script an
// agent might send in one call (testdata/bench/multiline-4k.sh), against
// its bare parse. The hook's figure against an empty program is
// BenchmarkHookVsEmpty in cmd/toolwall.
func BenchmarkCostMultiline(b *testing.B) {
	b.Run("4k", func(b *testing.B) { benchCost(b, []toolwall.Call{bashCall(b, multiline4K(b))}) })
}

// BenchmarkCostHeredoc: a 100 KB heredoc written to a file (data, not
// code), per byte of the command (target: at most 50 ns per byte).
func BenchmarkCostHeredoc(b *testing.B) {
	b.Run("100k", func(b *testing.B) { benchCost(b, []toolwall.Call{bashCall(b, heredoc(100<<10))}) })
}

func multiline4K(tb testing.TB) string {
	data, err := os.ReadFile(filepath.Join("testdata", "bench", "multiline-4k.sh"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// heredoc is cat > notes.md with a body of about n bytes: lines of prose
// with paths, options and a command an agent quotes.
func heredoc(n int) string {
	lines := []string{
		"The service reads its configuration from /etc/service/config.yml and writes logs under ~/logs.",
		"Run `make build && ./dist/server --port 8080` to start it; stop it with Ctrl-C.",
		"- rm -rf ./dist removes the build output; git clean -fdx is stronger.",
		"| option | default | meaning |",
		"| --timeout | 30s | how long a request may take |",
		"",
	}
	var s strings.Builder
	s.WriteString("cat > notes.md <<'EOF'\n")
	for i := 0; s.Len() < n; i++ {
		s.WriteString(lines[i%len(lines)])
		s.WriteByte('\n')
	}
	s.WriteString("EOF\n")
	return s.String()
}

func bashCall(tb testing.TB, cmd string) toolwall.Call {
	in, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		tb.Fatal(err)
	}
	return toolwall.Call{Tool: toolwall.ToolBash, Input: in, Cwd: "/w", Home: "/home/u"}
}
