//go:build unix

package approval_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	"golang.org/x/sys/unix"
)

// childEnv tells a re-run of this test binary to act as one process
// granting (see TestGrantChild): "approve|confirm ASKS PATH".
const childEnv = "TOOLWALL_TEST_GRANT_CHILD"

// TestGrantAcrossProcesses: several OS processes (this test binary run
// again as TestGrantChild) grant the same asks on one file at the same
// moment, with `toolwall approve` (Approve) and with the host's report
// that the call ran (Confirm): every ask is granted exactly once, as
// the PostgreSQL store does in one statement.
func TestGrantAcrossProcesses(t *testing.T) {
	const procs, asks = 6, 48
	for _, how := range []string{"approve", "confirm"} {
		t.Run(how, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "approvals.jsonl")
			s := approval.Open(path, approval.Options{})
			ctx := context.Background()
			for i := range asks {
				call := toolwall.NewBashCall(fmt.Sprintf("terraform destroy -target=m%d", i))
				call.Session, call.Cwd, call.ID = "s", "/w", fmt.Sprint("t", i)
				if _, err := s.Check(ctx, fmt.Sprint("d", i), call, toolwall.Verdict{Action: toolwall.Ask}, true); err != nil {
					t.Fatal(err)
				}
			}
			type child struct {
				cmd *exec.Cmd
				in  io.WriteCloser
				out *bufio.Scanner
			}
			var children []child
			for range procs {
				cmd := exec.Command(os.Args[0], "-test.run=^TestGrantChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %s", childEnv, how, asks, path))
				cmd.Stderr = os.Stderr
				in, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				c := child{cmd, in, bufio.NewScanner(out)}
				children = append(children, c)
				t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
			}
			// Every process has opened the store and waits; then all go
			// at once.
			for _, c := range children {
				if !c.out.Scan() || c.out.Text() != "ready" {
					t.Fatalf("a child did not start: %q %v", c.out.Text(), c.out.Err())
				}
			}
			for _, c := range children {
				c.in.Close()
			}
			granted := map[string]int{}
			for _, c := range children {
				for c.out.Scan() {
					if d, ok := strings.CutPrefix(c.out.Text(), "granted "); ok {
						granted[d]++
					} else if l := c.out.Text(); !strings.HasPrefix(l, "none ") && l != "PASS" {
						t.Errorf("child: %s", l)
					}
				}
				if err := c.cmd.Wait(); err != nil {
					t.Errorf("child: %v", err)
				}
			}
			gs, err := s.Grants(ctx)
			if err != nil {
				t.Fatal(err)
			}
			lines := map[string]int{}
			for _, g := range gs {
				lines[g.Decision]++
			}
			for i := range asks {
				d := fmt.Sprint("d", i)
				if granted[d] != 1 || lines[d] != 1 {
					t.Errorf("%s: granted by %d processes, %d grants in the file; want 1 and 1", d, granted[d], lines[d])
				}
			}
		})
	}
}

// TestGrantChild is one process of TestGrantAcrossProcesses: it says
// "ready", waits for its stdin to close, then grants every ask in turn
// and prints "granted D" for each it granted, "none D" for the others.
func TestGrantChild(t *testing.T) {
	f := strings.SplitN(os.Getenv(childEnv), " ", 3)
	if len(f) != 3 {
		t.Skip("run by TestGrantAcrossProcesses")
	}
	how, path := f[0], f[2]
	asks, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	s := approval.Open(path, approval.Options{})
	ctx := context.Background()
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	for i := range asks {
		var ok bool
		var err error
		switch how {
		case "approve":
			_, err = s.Approve(ctx, fmt.Sprint("d", i), "child")
			ok = err == nil
			if errors.Is(err, approval.ErrNotPending) {
				err = nil
			}
		case "confirm":
			ok, err = s.Confirm(ctx, "s", fmt.Sprint("t", i), "child")
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(map[bool]string{true: "granted", false: "none"}[ok], fmt.Sprint("d", i))
	}
}

// TestApproveWaitsForLock: while another process holds the lock file,
// Approve waits, gives up when its context ends (granting nothing), and
// grants once the lock is free.
func TestApproveWaitsForLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "approvals.jsonl")
	s := approval.Open(path, approval.Options{})
	ctx := context.Background()
	call := toolwall.NewBashCall("terraform destroy")
	call.Session, call.Cwd = "s", "/w"
	if _, err := s.Check(ctx, "d1", call, toolwall.Verdict{Action: toolwall.Ask}, false); err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := unix.Flock(int(held.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := s.Approve(short, "d1", "test"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("approve while the lock is held: %v, want the context's deadline", err)
	}
	if _, err := s.Pending(ctx, "d1"); err != nil {
		t.Fatalf("a timed-out approve granted: %v", err)
	}
	held.Close()
	if _, err := s.Approve(ctx, "d1", "test"); err != nil {
		t.Fatalf("approve once the lock is free: %v", err)
	}
	if gs, err := s.Grants(ctx); err != nil || len(gs) != 1 {
		t.Errorf("grants %+v %v, want one", gs, err)
	}
}
