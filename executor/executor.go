package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// Definition describes one tool to the model: its name as calls carry it,
// what it does, and the JSON Schema of its input object.
type Definition struct {
	// Name is the tool name ("Bash", "Read", "WebFetch", ...).
	Name string `json:"name"`
	// Description says what the tool does, for the model.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the input object.
	InputSchema json.RawMessage `json:"input_schema"`
}

// Request is one tool call to execute.
type Request struct {
	// Call is the tool call: tool name, input JSON, session, turn, caller,
	// working directory.
	Call toolwall.Call
	// Approved says a human confirmed this exact call after an executor
	// answered with a [pipeline.Confirmation]. An Ask verdict then runs;
	// a Deny still refuses.
	Approved bool
	// Exec overrides the working directory and environment of this call
	// (the tool-executor framework's per-call ExecutionContext); nil means the executor's
	// defaults. Executors that run no process ignore Env.
	Exec *ExecutionContext
}

// Envelope is the result of a process (the tool-executor framework's ShellOutputEnvelope):
// its two output streams kept apart, its exit status, whether output was
// cut at its bound, and how long it ran.
type Envelope struct {
	// Stdout and Stderr are the output streams, each bounded; a cut
	// stream keeps its head and tail around a marker line.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// ExitCode is the exit status: 126 when toolwall refused the command
	// (the process never started), 128+N when signal N ended it.
	ExitCode int `json:"exit_code"`
	// Truncated says a stream was cut at its bound.
	Truncated bool `json:"truncated"`
	// TimedOut says the timeout or a cancellation ended the process.
	TimedOut bool `json:"timed_out,omitempty"`
	// Duration is how long the process ran (0 when it never started).
	Duration time.Duration `json:"duration"`
	// Checkpoint names the snapshot a transactional run took ("" outside
	// transactional mode); RolledBack says the run's file changes were
	// undone.
	Checkpoint string `json:"checkpoint,omitempty"`
	RolledBack bool   `json:"rolled_back,omitempty"`
}

// Output is what a call produced, as the model will see it plus the
// structured facts a host needs.
type Output struct {
	// Tool is the tool that ran (or was refused).
	Tool string
	// Text is what the model sees.
	Text string
	// IsError marks a soft error: the call failed or was refused, the
	// model sees Text, and the run goes on.
	IsError bool
	// Wrote says the call may have changed state; such results are never
	// cached.
	Wrote bool
	// Cached says the result was served by [Cache]; Speculative says it
	// was computed ahead of the call by a [Speculator].
	Cached, Speculative bool
	// Confirm is set when the call needs a human's confirmation and did
	// not run; IsError is set too. Re-run the request with Approved.
	Confirm *pipeline.Confirmation
	// Verdict is the gate's verdict at the execution boundary (nil when
	// no gate was consulted, e.g. a cache hit or an unknown tool).
	Verdict *toolwall.Verdict
	// Process is the process result of a shell call.
	Process *Envelope
	// Truncated says the output was cut at its bound.
	Truncated bool
	// AuditID is the id of the audit record of this call ("" without one).
	AuditID string
}

// Executor runs tool calls. Every method must be implemented: there is
// no base type with defaults, and a wrapper holds its inner executor in a
// named field and answers every method itself, consulting the inner
// executor (a forgotten method is a compile error, not a
// permissive default). Implementations are safe for concurrent use.
type Executor interface {
	// Definitions lists the tools this executor runs. The slice is the
	// caller's to keep.
	Definitions() []Definition
	// Execute runs one call. A refusal, an unknown tool or an ordinary
	// failure is an Output with IsError; a Go error is a hard failure of
	// the executor itself.
	Execute(ctx context.Context, req *Request) (*Output, error)
	// Confirmation says whether call needs a human's confirmation before
	// it runs, and why; nil means it does not (it may still be refused).
	Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation
	// Speculatable says whether call may run before the model asks for
	// it: only deterministic calls that change nothing, send nothing out
	// and need no confirmation.
	Speculatable(call toolwall.Call) bool
}

// UnknownTool is the soft error an executor returns for a tool it does
// not define.
func UnknownTool(tool string) *Output {
	return &Output{Tool: tool, IsError: true, Text: fmt.Sprintf("unknown tool %q: this executor does not run it", tool)}
}

// Has reports whether defs defines tool.
func Has(defs []Definition, tool string) bool {
	for _, d := range defs {
		if d.Name == tool {
			return true
		}
	}
	return false
}
