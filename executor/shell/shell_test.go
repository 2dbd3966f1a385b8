package shell_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/shell"
	"github.com/toolwall/toolwall/internal/rows"
)

// The test binary doubles as a fake shell: with FAKESHELL in its
// environment it records its command line instead of running it.
//
//	FAKESHELL=marker:PATH  append the command to PATH
//	FAKESHELL=write:PATH   create PATH and print "ok", or the errno name
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKESHELL"); mode != "" {
		os.Exit(fakeShell(mode, os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func fakeShell(mode, command string) int {
	kind, arg, _ := strings.Cut(mode, ":")
	switch kind {
	case "marker":
		f, err := os.OpenFile(arg, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return 1
		}
		fmt.Fprintln(f, command)
		f.Close()
	case "write":
		err := os.WriteFile(arg, []byte("x"), 0o600)
		switch {
		case err == nil:
			fmt.Println("ok")
		case errors.Is(err, syscall.EACCES):
			fmt.Println("EACCES")
		default:
			fmt.Println(err)
		}
	}
	return 0
}

type fixture struct {
	project, home string
	audit         *executortest.JSONL
	marker        string
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	f := &fixture{project: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"),
		audit: &executortest.JSONL{Path: filepath.Join(dir, "audit.jsonl")}, marker: filepath.Join(dir, "started")}
	for _, d := range []string{f.project, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// options are the executor options of f, with the real bash unless fake.
func (f *fixture) options(ctx toolwall.ExecContext, fake string) shell.Options {
	inherit := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.home, "AUDIT_LOG=" + f.audit.Path}
	opts := shell.Options{
		Gate:         engine.New(engine.Options{}),
		Context:      ctx,
		Audit:        f.audit,
		Project:      f.project,
		Environments: executor.Environments{Inherit: inherit, Cwd: f.project},
	}
	if fake != "" {
		exe, _ := os.Executable()
		opts.Shell = []string{exe}
		opts.Environments.Inherit = append(inherit, "FAKESHELL="+fake)
	}
	return opts
}

func bash(command string) *executor.Request {
	return &executor.Request{Call: toolwall.NewBashCall(command)}
}

// TestBoundary drives the executor directly with commands its gate
// refuses: a refusal returns exit status 126 with the rule and reason, the
// shell never starts, and the audit record of the refusal is written.
func TestBoundary(t *testing.T) {
	n := 0
	for _, r := range rows.ReadRest(t, "testdata/boundary.tsv", 4) {
		ln, fields := r.Line, r.Fields
		ctx, want, rule, command := toolwall.ExecContext(fields[0]), fields[1], fields[2], fields[3]
		n++
		t.Run(fmt.Sprintf("%d", ln), func(t *testing.T) {
			fx := newFixture(t)
			e := shell.New(fx.options(ctx, "marker:"+fx.marker))
			out, err := e.Execute(context.Background(), bash(command))
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(fx.marker)
			started := statErr == nil
			rec, outcome := fx.audit.Find(t, out.AuditID)
			if rec == nil || rec.Driver != "executor:shell" || rec.Verdict.Action.String() != want {
				t.Errorf("%s %q: audit record %+v, want one with action %s", ctx, command, rec, want)
			}
			if want == "allow" {
				if !started || out.Process.ExitCode != 0 || outcome == nil || !outcome.Success {
					t.Errorf("%s %q: allowed command did not run: %+v", ctx, command, out)
				}
				return
			}
			if started {
				t.Errorf("%s %q: the shell started for a refused command", ctx, command)
			}
			if out.Process == nil || out.Process.ExitCode != shell.ExitRefused || !out.IsError {
				t.Errorf("%s %q: %+v, want exit status 126", ctx, command, out.Process)
			}
			if !strings.Contains(out.Text, rule) || out.Verdict == nil || out.Verdict.Reason == "" {
				t.Errorf("%s %q: refusal %q does not name %s with a reason", ctx, command, out.Text, rule)
			}
			if (want == "ask") != (out.Confirm != nil) {
				t.Errorf("%s %q: Confirm = %v for a %s", ctx, command, out.Confirm, want)
			}
			if outcome == nil || outcome.Success {
				t.Errorf("%s %q: refusal outcome %+v", ctx, command, outcome)
			}
		})
	}
	if n < 20 {
		t.Fatalf("boundary.tsv: %d cases, want at least 20", n)
	}
}

// TestApprovedAskRuns: a human's approval runs an Ask; it never runs a
// Deny.
func TestApprovedAskRuns(t *testing.T) {
	fx := newFixture(t)
	e := shell.New(fx.options(toolwall.UserContext, "marker:"+fx.marker))
	req := bash("git reset --hard")
	req.Approved = true
	if out, _ := e.Execute(context.Background(), req); out.Process.ExitCode != 0 {
		t.Fatalf("approved ask: %+v", out)
	}
	os.Remove(fx.marker)
	req = bash("rm -rf ~")
	req.Approved = true
	if out, _ := e.Execute(context.Background(), req); out.Process.ExitCode != shell.ExitRefused {
		t.Fatalf("approved deny ran: %+v", out)
	}
	if _, err := os.Stat(fx.marker); err == nil {
		t.Fatal("the shell started for an approved deny")
	}
}

// TestNoGateRefuses: an executor without a gate runs nothing.
func TestNoGateRefuses(t *testing.T) {
	fx := newFixture(t)
	opts := fx.options(toolwall.UserContext, "marker:"+fx.marker)
	opts.Gate = nil
	out, _ := shell.New(opts).Execute(context.Background(), bash("echo hi"))
	if out.Process.ExitCode != shell.ExitRefused || !strings.Contains(out.Text, toolwall.RuleConfig) {
		t.Fatalf("no gate: %+v", out)
	}
	if _, err := os.Stat(fx.marker); err == nil {
		t.Fatal("the shell started without a gate")
	}
}

// brokenSink is an audit sink that cannot write.
type brokenSink struct{}

func (brokenSink) Record(context.Context, audit.Record) error { return errors.New("disk full") }
func (brokenSink) Outcome(context.Context, string, audit.Outcome) error {
	return errors.New("disk full")
}

// TestAuditBeforeStart: the command itself reads the audit log and finds
// its own record, so the record was on disk before the process started;
// and a sink that cannot write refuses the command.
func TestAuditBeforeStart(t *testing.T) {
	fx := newFixture(t)
	e := shell.New(fx.options(toolwall.UserContext, ""))
	out, err := e.Execute(context.Background(), bash(`cat "$AUDIT_LOG"`))
	if err != nil {
		t.Fatal(err)
	}
	if out.Process.ExitCode != 0 || out.AuditID == "" || !strings.Contains(out.Process.Stdout, `"id":"`+out.AuditID+`"`) {
		t.Fatalf("the process did not see its own audit record %s:\n%s", out.AuditID, out.Process.Stdout)
	}
	_, outcome := fx.audit.Find(t, out.AuditID)
	if outcome == nil || outcome.ExitCode == nil || *outcome.ExitCode != 0 || outcome.Duration <= 0 {
		t.Errorf("outcome %+v", outcome)
	}
	opts := fx.options(toolwall.UserContext, "marker:"+fx.marker)
	opts.Audit = brokenSink{}
	out, _ = shell.New(opts).Execute(context.Background(), bash("echo hi"))
	if out.Process.ExitCode != shell.ExitRefused || !strings.Contains(out.Text, "audit record could not be written") {
		t.Fatalf("broken audit: %+v", out)
	}
	if _, err := os.Stat(fx.marker); err == nil {
		t.Fatal("the shell started although its audit record was not written")
	}
}

func TestEnvelope(t *testing.T) {
	fx := newFixture(t)
	e := shell.New(fx.options(toolwall.UserContext, ""))
	out, err := e.Execute(context.Background(), bash(`echo out; echo err >&2; exit 3`))
	if err != nil {
		t.Fatal(err)
	}
	p := out.Process
	if p.Stdout != "out\n" || p.Stderr != "err\n" || p.ExitCode != 3 || p.Truncated || p.Duration <= 0 || !out.IsError {
		t.Fatalf("envelope %+v", p)
	}
	if !strings.Contains(out.Text, "[stderr]\nerr") || !strings.Contains(out.Text, "[exit status 3]") {
		t.Errorf("text %q", out.Text)
	}
	b, _ := json.Marshal(p)
	for _, k := range []string{`"stdout"`, `"stderr"`, `"exit_code"`, `"truncated"`, `"duration"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("envelope JSON %s lacks %s", b, k)
		}
	}
}

func TestTruncation(t *testing.T) {
	fx := newFixture(t)
	opts := fx.options(toolwall.UserContext, "")
	opts.MaxOutput = 100
	out, _ := shell.New(opts).Execute(context.Background(), bash(`seq 1 10000`))
	p := out.Process
	if !p.Truncated || !strings.HasPrefix(p.Stdout, "1\n2\n3\n") || !strings.HasSuffix(p.Stdout, "9999\n10000\n") || !strings.Contains(p.Stdout, "bytes cut]") {
		t.Fatalf("truncated output %q", p.Stdout)
	}
	if len(p.Stdout) > 150 {
		t.Errorf("kept %d bytes of a 100-byte bound", len(p.Stdout))
	}
	if !out.Truncated {
		t.Error("Output.Truncated not set")
	}
	_, o := fx.audit.Find(t, out.AuditID)
	if o == nil || !o.Truncated {
		t.Errorf("audit outcome %+v lacks truncated", o)
	}
}

// alive reports whether process pid exists and is not a zombie waiting
// for its new parent to reap it.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}

func pidIn(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscan(string(b), &pid); err != nil {
		t.Fatal(err)
	}
	return pid
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	for range 100 {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d still alive", pid)
}

// TestTimeoutKillsGroup: a timeout kills the shell and what it started.
func TestTimeoutKillsGroup(t *testing.T) {
	fx := newFixture(t)
	opts := fx.options(toolwall.UserContext, "")
	opts.Timeout = time.Second
	pidfile := filepath.Join(fx.project, "pid")
	start := time.Now()
	out, _ := shell.New(opts).Execute(context.Background(), bash(`sleep 30 & echo $! > pid.tmp && mv pid.tmp pid; sleep 30`))
	if time.Since(start) > 5*time.Second || !out.Process.TimedOut || out.Process.ExitCode != 128+int(syscall.SIGKILL) {
		t.Fatalf("timeout: %+v after %v", out.Process, time.Since(start))
	}
	waitDead(t, pidIn(t, pidfile))
}

// TestCancelKillsGroup: cancelling the context does the same.
func TestCancelKillsGroup(t *testing.T) {
	fx := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	pidfile := filepath.Join(fx.project, "pid")
	go func() { // cancel once the background process is known
		for range 500 {
			if b, err := os.ReadFile(pidfile); err == nil && len(b) > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	out, _ := shell.New(fx.options(toolwall.UserContext, "")).Execute(ctx, bash(`(sleep 30; echo late) & echo $! > pid.tmp && mv pid.tmp pid; wait`))
	if !out.Process.TimedOut {
		t.Fatalf("cancel: %+v", out.Process)
	}
	waitDead(t, pidIn(t, pidfile))
}

// TestNothingLeftRunning: a background process outlives its shell only
// until the shell exits.
func TestNothingLeftRunning(t *testing.T) {
	fx := newFixture(t)
	start := time.Now()
	out, _ := shell.New(fx.options(toolwall.UserContext, "")).Execute(context.Background(), bash(`sleep 30 & echo $! > pid`))
	if out.Process.ExitCode != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v after %v", out.Process, time.Since(start))
	}
	waitDead(t, pidIn(t, filepath.Join(fx.project, "pid")))
}

// TestExecutionContext: the call's context sets cwd and env, and cannot
// bring in blocked variables.
func TestExecutionContext(t *testing.T) {
	fx := newFixture(t)
	sub := filepath.Join(fx.project, "sub")
	os.Mkdir(sub, 0o755)
	opts := fx.options(toolwall.UserContext, "")
	opts.Environments.Inherit = append(opts.Environments.Inherit, "GITHUB_TOKEN=ghp_inherited")
	opts.Environments.Named = map[string]executor.ExecutionContext{"ci": executor.Trusted("ci", sub, map[string]string{"STAGE": "ci"})}
	e := shell.New(opts)
	req := bash(`pwd; echo "stage=$STAGE extra=$EXTRA preload=${LD_PRELOAD-unset} token=${GITHUB_TOKEN-unset} path_ok=$([ "$PATH" = "` + os.Getenv("PATH") + `" ] && echo yes)"`)
	req.Exec = &executor.ExecutionContext{Name: "ci", Env: map[string]string{"EXTRA": "1", "LD_PRELOAD": "/tmp/evil.so", "PATH": "/tmp/evil"}}
	out, err := e.Execute(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := sub + "\nstage=ci extra=1 preload=unset token=unset path_ok=yes\n"
	if out.Process.Stdout != want {
		t.Fatalf("stdout %q, want %q (stderr %q)", out.Process.Stdout, want, out.Process.Stderr)
	}
	req = bash("true")
	req.Exec = &executor.ExecutionContext{Name: "nope"}
	if out, _ := e.Execute(context.Background(), req); out.Process.ExitCode != shell.ExitRefused {
		t.Errorf("unknown environment: %+v", out)
	}
}

// TestMalformedInput: input that cannot be read is refused, not run.
func TestMalformedInput(t *testing.T) {
	fx := newFixture(t)
	e := shell.New(fx.options(toolwall.UserContext, "marker:"+fx.marker))
	for _, in := range []string{`{}`, `{"command":42}`, `not json`, `{"command":null}`} {
		out, err := e.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: "Bash", Input: json.RawMessage(in)}})
		if err != nil || out.Process.ExitCode != shell.ExitRefused || !strings.Contains(out.Text, toolwall.RuleMalformed) {
			t.Errorf("%s: %+v %v", in, out, err)
		}
	}
	if _, err := os.Stat(fx.marker); err == nil {
		t.Fatal("the shell started for malformed input")
	}
}

func TestLeaf(t *testing.T) {
	executortest.NoEmbedding(t, ".")
	e := shell.New(shell.Options{})
	if e.Speculatable(toolwall.NewBashCall("ls")) {
		t.Error("a shell command is speculatable")
	}
	if !executor.Has(e.Definitions(), "Bash") {
		t.Error("no Bash definition")
	}
	if c := e.Confirmation(context.Background(), toolwall.NewBashCall("ls")); c != nil {
		t.Errorf("a gateless executor asks instead of refusing: %+v", c)
	}
}
