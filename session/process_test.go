package session_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/toolwall/toolwall/session"
)

// The parallel-hook test: N processes (this test binary, re-executed) each
// append M records to one shared session and to a session of their own,
// note M refusals and advance the shared turn M times, all against one
// state file. Claude Code starts a hook process per tool call and runs
// matching hooks in parallel; none of their writes may be lost.
const (
	procs    = 16
	perProc  = 10
	envChild = "TOOLWALL_SESSION_TEST_CHILD" // "<state path> <go file> <index>"
)

// childOptions raise the caps so that the shared session keeps every
// record and the count can be checked.
var childOptions = session.Options{Calls: procs * perProc, Refusals: procs * perProc}

// TestHelperProcess is the child's body; it does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(envChild)
	if spec == "" {
		t.Skip("helper process for TestParallelProcesses")
	}
	var path, gofile string
	var idx int
	if _, err := fmt.Sscan(spec, &path, &gofile, &idx); err != nil {
		t.Fatal(err)
	}
	// Start together: wait for the parent's signal file.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(gofile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no start signal")
		}
	}
	ctx := context.Background()
	own := "proc-" + strconv.Itoa(idx)
	for i := range perProc {
		// Each step opens the file anew, as a hook process does.
		st, err := session.Open(path, childOptions)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.History(ctx, "shared", session.Window{}); err != nil {
			t.Fatal(err)
		}
		rec := session.Record{Tool: "Bash", Summary: fmt.Sprintf("p%d-%d", idx, i)}
		for _, id := range []string{"shared", own} {
			if err := st.Append(ctx, id, rec); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.AdvanceTurn(ctx, "shared"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.NoteRefusal(ctx, "shared", "rm.root"); err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParallelProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 16 processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db") // not created yet: first use races too
	gofile := filepath.Join(dir, "go")
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %d", envChild, path, gofile, i))
		out := new(bytes.Buffer)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	if err := os.WriteFile(gofile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i])
		}
	}
	if t.Failed() {
		return
	}

	st, err := session.Open(path, childOptions)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	all := session.Window{Calls: procs * perProc, Turns: procs*perProc + 1}
	if n, err := st.Turn(ctx, "shared"); n != procs*perProc || err != nil {
		t.Errorf("shared Turn = %d, %v; want %d", n, err, procs*perProc)
	}
	if n, err := st.Refusals(ctx, "shared", "rm.root", all); n != procs*perProc || err != nil {
		t.Errorf("shared Refusals = %d, %v; want %d", n, err, procs*perProc)
	}
	shared, err := st.History(ctx, "shared", all)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	last := map[int]int{} // per process, the last index seen: order kept
	for _, r := range shared {
		seen[r.Summary] = true
		var p, i int
		if _, err := fmt.Sscanf(r.Summary, "p%d-%d", &p, &i); err != nil {
			t.Fatalf("odd record %q", r.Summary)
		}
		if prev, ok := last[p]; ok && i <= prev {
			t.Errorf("process %d: record %d after %d", p, i, prev)
		}
		last[p] = i
	}
	if len(shared) != procs*perProc || len(seen) != procs*perProc {
		t.Errorf("shared session holds %d records (%d distinct), want %d", len(shared), len(seen), procs*perProc)
	}
	for i := range procs {
		h, err := st.History(ctx, "proc-"+strconv.Itoa(i), all)
		if err != nil || len(h) != perProc {
			t.Errorf("proc-%d: %d records, %v; want %d", i, len(h), err, perProc)
		}
	}
}
