package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/pipeline"
)

// ExitRefused is the exit status of a command toolwall refused: the
// shell never started ("終了ステータス 126"; POSIX uses 126 for
// "found but not executable").
const ExitRefused = 126

// Defaults of [Options].
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultMaxOutput = 256 << 10
	// MaxTimeout caps the per-call "timeout" a model may ask for.
	MaxTimeout = 10 * time.Minute
)

// Options configure [New].
type Options struct {
	// Gate judges every command before it runs: the engine every driver
	// uses (engine.New). nil refuses every command.
	Gate toolwall.Shield
	// Context is the privilege the executor runs with: toolwall.UserContext
	// (default) or toolwall.RootContext (a root helper gets only
	// the catastrophic set). It overrides whatever the call says.
	Context toolwall.ExecContext
	// Audit receives the record of every command before it runs, and its
	// outcome after (exit code, truncated, duration); nil writes none. A
	// record that cannot be written refuses the command.
	Audit audit.Sink
	// Remember records executed commands in the gate's session memory
	// (see executor.Boundary.Remember).
	Remember bool
	// Shell is the argv the command is appended to (default
	// ["bash", "-c"]; the command is the last argument).
	Shell []string
	// Project is the project root the gate judges against and the sandbox
	// and transactions protect (default: the working directory of each
	// call).
	Project string
	// Environments are the named and default environments, the env
	// blocklist and the fallback working directory (see executor.Resolve).
	Environments executor.Environments
	// Timeout bounds each command (default DefaultTimeout); a call's
	// "timeout" (milliseconds) may shorten it, or lengthen it up to
	// MaxTimeout.
	Timeout time.Duration
	// MaxOutput bounds each stream in bytes (default DefaultMaxOutput); a
	// longer stream keeps its head and tail and sets Truncated.
	MaxOutput int
	// Sandbox, when set, confines every command with Landlock (Linux).
	Sandbox *Sandbox
	// Transaction, when set, snapshots what each command may change and
	// rolls it back when the command fails.
	Transaction *Transaction
}

// Executor runs shell commands, each one re-checked by the gate at the
// execution boundary. It implements executor.Executor with one tool,
// "Bash", whose input is {"command": string, "timeout": milliseconds}.
// Safe for concurrent use (transactional runs take turns).
type Executor struct {
	opts     Options
	boundary executor.Boundary
	txMu     sync.Mutex
	ckpts    *checkpoints
}

// New returns a shell executor for opts.
func New(opts Options) *Executor {
	if len(opts.Shell) == 0 {
		opts.Shell = []string{"bash", "-c"}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	e := &Executor{opts: opts, boundary: executor.Boundary{
		Gate: opts.Gate, Context: opts.Context, Audit: opts.Audit, Driver: "executor:shell", Remember: opts.Remember,
	}}
	if opts.Transaction != nil {
		e.ckpts = newCheckpoints(opts.Transaction.withDefaults().Keep)
	}
	return e
}

var bashSchema = json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"the bash command to run"},"timeout":{"type":"integer","description":"timeout in milliseconds"}},"required":["command"]}`)

// Definitions defines the "Bash" tool.
func (e *Executor) Definitions() []executor.Definition {
	return []executor.Definition{{Name: toolwall.ToolBash, InputSchema: bashSchema,
		Description: "Run a bash command in the project. Every command is checked by toolwall before it runs; a refused command returns exit status 126 and the reason."}}
}

// Confirmation is the gate's Ask for the command, in the executor's
// context.
func (e *Executor) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	if call.Tool != toolwall.ToolBash {
		return nil
	}
	return e.boundary.Confirmation(ctx, e.judged(call, call.Cwd, ""))
}

// Speculatable is false: a shell command may write, and may send data
// out, whatever it looks like.
func (e *Executor) Speculatable(toolwall.Call) bool { return false }

// Run is Execute for a command string, with the call's other fields
// from call (tool and input are replaced).
func (e *Executor) Run(ctx context.Context, command string, call toolwall.Call) (*executor.Output, error) {
	c := toolwall.NewBashCall(command)
	call.Tool, call.Input = c.Tool, c.Input
	return e.Execute(ctx, &executor.Request{Call: call})
}

// input is the Bash tool's input.
type input struct {
	Command *string  `json:"command"`
	Timeout *float64 `json:"timeout"`
}

// Execute runs one Bash call: resolve the working directory and
// environment, let the gate judge the command there (in the executor's
// context), write the audit record, take the snapshot in transactional
// mode, then run the shell in its own process group. A refusal — the
// gate's Deny, an Ask without approval, an audit failure, a snapshot over
// its bound, input that cannot be read — returns exit status 126 with
// the reason, and the shell never starts.
func (e *Executor) Execute(ctx context.Context, req *executor.Request) (*executor.Output, error) {
	if req.Call.Tool != toolwall.ToolBash {
		return executor.UnknownTool(req.Call.Tool), nil
	}
	var in input
	if err := json.Unmarshal(req.Call.Input, &in); err != nil || in.Command == nil {
		v := toolwall.Refusal("executor", toolwall.RuleMalformed, "the Bash call was refused: its input is not a JSON object with a string \"command\" field. Send {\"command\": \"...\"}.")
		return withExit(e.boundary.Refuse(ctx, req.Call, v)), nil
	}
	res, err := executor.Resolve(req.Exec, req.Call.Cwd, e.opts.Environments)
	if err != nil {
		v := toolwall.Refusal("executor", toolwall.RuleMalformed, "the Bash call was refused: "+err.Error()+". Use a known environment name and an absolute working directory.")
		return withExit(e.boundary.Refuse(ctx, req.Call, v)), nil
	}
	a := e.boundary.Admit(ctx, req, e.judged(req.Call, res.Cwd, envValue(res.Env, "HOME")))
	if a.Refusal != nil {
		return withExit(a.Refusal), nil
	}
	timeout := e.opts.Timeout
	if in.Timeout != nil && *in.Timeout > 0 {
		timeout = min(time.Duration(*in.Timeout*float64(time.Millisecond)), MaxTimeout)
	}
	var snap *snapshot
	if e.opts.Transaction != nil {
		e.txMu.Lock()
		defer e.txMu.Unlock()
		snap, err = e.opts.Transaction.take(*in.Command, res.Cwd, a.Call.Project, a.Call.Home)
		if err != nil {
			msg := "refused by toolwall [executor.snapshot]: " + err.Error() + "; in transactional mode a command whose changes cannot be snapshotted does not run. Narrow the command to named files, or ask the user to raise the bound."
			e.boundary.Done(ctx, a, audit.Outcome{Success: false, Error: msg, Refused: true})
			out := &executor.Output{Tool: toolwall.ToolBash, IsError: true, Text: msg, Verdict: &a.Verdict, AuditID: a.AuditID,
				Process: &executor.Envelope{ExitCode: ExitRefused, Stderr: msg}}
			return out, nil
		}
	}
	env, runErr := e.spawn(ctx, *in.Command, res, a.Call.Project, timeout)
	if runErr != nil {
		e.boundary.Done(ctx, a, audit.Outcome{Success: false, Error: runErr.Error()})
		return nil, runErr
	}
	if snap != nil {
		env.Checkpoint = e.ckpts.add(snap)
		if env.ExitCode != 0 {
			if err := snap.restore(); err != nil {
				env.Stderr += "\n[toolwall: rollback failed: " + err.Error() + "]"
			} else {
				env.RolledBack = true
			}
		}
	}
	code := env.ExitCode
	e.boundary.Done(ctx, a, audit.Outcome{Success: code == 0, ExitCode: &code, Truncated: env.Truncated, Duration: env.Duration})
	out := &executor.Output{Tool: toolwall.ToolBash, Text: render(env), IsError: code != 0, Wrote: true,
		Verdict: &a.Verdict, Process: env, Truncated: env.Truncated, AuditID: a.AuditID}
	return out, nil
}

// judged is the call the gate judges: the command in the resolved
// working directory, home and project, with the executor's context.
func (e *Executor) judged(call toolwall.Call, cwd, home string) toolwall.Call {
	call.Cwd = cwd
	if home != "" {
		call.Home = home
	}
	if call.Home == "" {
		call.Home = os.Getenv("HOME")
	}
	if e.opts.Project != "" {
		call.Project = e.opts.Project
	}
	if call.Project == "" {
		call.Project = cwd
	}
	return call
}

// withExit gives a refusal the process envelope of a shell that never
// started.
func withExit(out *executor.Output) *executor.Output {
	out.Process = &executor.Envelope{ExitCode: ExitRefused, Stderr: out.Text}
	return out
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// render is the text the model sees: stdout, stderr under a marker, and a
// non-zero exit status.
func render(env *executor.Envelope) string {
	var b strings.Builder
	b.WriteString(env.Stdout)
	if env.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(env.Stdout, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n")
		b.WriteString(env.Stderr)
	}
	if env.ExitCode != 0 {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[exit status %d", env.ExitCode)
		if env.TimedOut {
			b.WriteString(", timed out or cancelled")
		}
		if env.RolledBack {
			fmt.Fprintf(&b, "; file changes rolled back from checkpoint %s", env.Checkpoint)
		}
		b.WriteString("]")
	}
	return b.String()
}

// spawn runs the shell with the command in its own process group and
// waits for it, killing the whole group on timeout or cancellation, and
// any process the command left behind once the shell exits.
func (e *Executor) spawn(ctx context.Context, command string, res executor.Resolved, project string, timeout time.Duration) (*executor.Envelope, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := append(append([]string(nil), e.opts.Shell...), command)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = res.Cwd
	cmd.Env = res.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("shell: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("shell: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	stdout, stderr := newBounded(e.opts.MaxOutput), newBounded(e.opts.MaxOutput)
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); _, _ = io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); _, _ = io.Copy(stderr, errR) }()

	start := time.Now()
	if e.opts.Sandbox != nil {
		err = e.opts.Sandbox.start(cmd, project)
	} else {
		err = cmd.Start()
	}
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		readers.Wait()
		if e.opts.Sandbox != nil && !errors.Is(err, exec.ErrNotFound) {
			msg := "refused by toolwall [executor.sandbox]: the sandbox could not be applied (" + err.Error() + "), and a sandboxed executor runs nothing unconfined"
			return &executor.Envelope{ExitCode: ExitRefused, Stderr: msg}, nil
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return &executor.Envelope{ExitCode: 127, Stderr: fmt.Sprintf("cannot start %s: %v", argv[0], err)}, nil
		}
		return nil, fmt.Errorf("shell: start %s: %w", argv[0], err)
	}
	waitErr := cmd.Wait()
	dur := time.Since(start)
	_ = killGroup(cmd.Process.Pid) // leftovers in the group: a command leaves nothing running
	// A process that left the group (setsid) may still hold the pipes:
	// give the readers a moment, then close them.
	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		outR.Close()
		errR.Close()
		<-done
	}
	outR.Close()
	errR.Close()
	env := &executor.Envelope{Stdout: stdout.String(), Stderr: stderr.String(), Duration: dur,
		Truncated: stdout.cut > 0 || stderr.cut > 0, TimedOut: ctx.Err() != nil}
	env.ExitCode = exitCode(cmd.ProcessState, waitErr)
	return env, nil
}

// killGroup sends SIGKILL to the process group pgid.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// exitCode is the shell's exit status, 128+N for a death by signal N.
func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	if c := ps.ExitCode(); c >= 0 {
		return c
	}
	if err != nil {
		return -1
	}
	return 0
}
