package audit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/toolwall/toolwall"
)

// Record is one decision on one tool call.
type Record struct {
	// ID is the decision id (see NewID); unique per decision.
	ID string `json:"id"`
	// At is when the decision was made.
	At time.Time `json:"at"`
	// Driver names who asked: "hook:claude-code", "check", "server",
	// "mcp-proxy", "executor:shell", …; "doctor:claude-code" for a probe
	// `toolwall doctor` sent through a host's hook (see ProbeDriver).
	Driver string `json:"driver"`
	// Session and Turn place the call in its agent session ("" and 0 when
	// the driver has none).
	Session string `json:"session,omitempty"`
	Turn    int    `json:"turn,omitempty"`
	// Caller is the agent that made the call ("" for the primary agent).
	Caller string `json:"caller,omitempty"`
	// CallID is the host's id of the tool call (Claude Code's
	// tool_use_id), "" when the host gives none; [Store.CallOutcome]
	// attaches an outcome by it.
	CallID string `json:"call_id,omitempty"`
	// Cwd is the working directory the call was judged in.
	Cwd string `json:"cwd,omitempty"`
	// Tool is the tool name as the host sent it.
	Tool string `json:"tool"`
	// Input is the tool input, with secrets redacted.
	Input json.RawMessage `json:"input,omitempty"`
	// Redacted says what was hidden from Input ("AWS access key in
	// command", …); empty when nothing was.
	Redacted []string `json:"redacted,omitempty"`
	// Verdict is the decision.
	Verdict toolwall.Verdict `json:"verdict"`
	// Elapsed is how long the decision took.
	Elapsed time.Duration `json:"elapsed"`
	// Outcome is what happened when the call ran; nil until known.
	Outcome *Outcome `json:"outcome,omitempty"`
	// ClaimSource is the claim that triggered a gate's decision: which
	// agent made the call, with which tool, in which turn. The
	// adversarial policy gate sets it ("claim_source is
	// propagated into AdversarialPolicyGateExecutor audit entries");
	// nil elsewhere.
	ClaimSource *ClaimSource `json:"claim_source,omitempty"`
}

// ClaimSource is the claim behind a call a gate judged.
type ClaimSource struct {
	// Caller is the agent that made the call ("" for the primary agent).
	Caller string `json:"caller"`
	// Tool is the tool it called.
	Tool string `json:"tool"`
	// Turn is the user turn it was made in (0 when unknown).
	Turn int `json:"turn"`
}

// Outcome is what happened when a call ran.
type Outcome struct {
	// Success says whether the tool reported success.
	Success bool `json:"success"`
	// ExitCode is a process's exit status, when the tool ran one.
	ExitCode *int `json:"exit_code,omitempty"`
	// Truncated says the output was cut at its bound.
	Truncated bool `json:"truncated,omitempty"`
	// Duration is how long the call ran.
	Duration time.Duration `json:"duration,omitempty"`
	// Error is the tool's error text, if any.
	Error string `json:"error,omitempty"`
	// Refused says the call never ran: toolwall refused it at the
	// execution boundary (or asked, and nobody approved), after the
	// record was written.
	Refused bool `json:"refused,omitempty"`
}

// Sink receives audit records. Implementations are safe for concurrent
// use and durable once a method returns nil.
type Sink interface {
	// Record writes one decision record.
	Record(ctx context.Context, r Record) error
	// Outcome attaches the outcome of the call decided under id.
	Outcome(ctx context.Context, id string, o Outcome) error
}

// Discard is a Sink that keeps nothing.
type Discard struct{}

// Record does nothing.
func (Discard) Record(context.Context, Record) error { return nil }

// Outcome does nothing.
func (Discard) Outcome(context.Context, string, Outcome) error { return nil }

// NewID returns a new decision id: 16 random bytes in hex (32 characters).
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b[:])
}
