package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

// DefaultTimeout bounds how long a PreToolUse decision may take (4 s).
// Claude Code lets a call through when a hook times out (unless the hook
// is configured with onFailure "block"), so toolwall answers "deny"
// itself well before the timeout the README recommends (10 s).
const DefaultTimeout = 4 * time.Second

// DefaultMaxPayload bounds the hook payload read from stdin (8 MiB). A
// Write of a large file arrives whole in tool_input; beyond this bound the
// call is denied rather than half-read.
const DefaultMaxPayload = 8 << 20

// Claude Code hook event names handled by ClaudeCode.
const (
	EventPreToolUse         = "PreToolUse"
	EventPostToolUse        = "PostToolUse"
	EventPostToolUseFailure = "PostToolUseFailure"
	EventUserPromptSubmit   = "UserPromptSubmit"
)

// TurnAdvancer starts a new user turn in a session. The gate with session
// memory implements it; without one, turns are not tracked.
type TurnAdvancer interface {
	AdvanceTurn(ctx context.Context, session string) (int, error)
}

// Auditor receives a record of every PreToolUse decision and the outcome
// of every call that ran (an audit.Store does).
type Auditor interface {
	Record(ctx context.Context, r audit.Record) error
	CallOutcome(ctx context.Context, session, callID string, o audit.Outcome) error
}

// Approver remembers a human's approval of an asked call (an
// *approval.Store does): Check turns an ask into an allow when the same
// call was approved, else notes it pending; Confirm grants the pending ask
// of a call the host reports as run.
type Approver interface {
	Check(ctx context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error)
	Confirm(ctx context.Context, session, callID, by string) (bool, error)
}

// Driver is the audit records' driver name.
const Driver = "hook:claude-code"

// ClaudeCode answers Claude Code hook events.
type ClaudeCode struct {
	// Shield decides PreToolUse calls and records PostToolUse ones.
	Shield toolwall.Shield
	// Turns, when set, advances the session's turn on UserPromptSubmit.
	Turns TurnAdvancer
	// ProjectDir is the project root ($CLAUDE_PROJECT_DIR); when empty the
	// payload's cwd stands in.
	ProjectDir string
	// Home is the user's home directory ($HOME).
	Home string
	// Context is the privilege the agent's tools run with (default user).
	Context toolwall.ExecContext
	// MaxPayload bounds stdin; 0 means DefaultMaxPayload.
	MaxPayload int
	// Timeout bounds a PreToolUse decision; 0 means DefaultTimeout. When it
	// passes, the call is denied with rule gate.timeout.
	Timeout time.Duration
	// Logger receives warnings and internal errors; nil means slog.Default().
	Logger *slog.Logger
	// Audit, when set, records every PreToolUse decision (allow included)
	// and attaches the outcome at PostToolUse / PostToolUseFailure; asks
	// and denies then name their decision id.
	Audit Auditor
	// Approvals, when set, allows an asked call the user approved before
	// in the same session and directory, and takes a PostToolUse after an
	// ask as the user's approval when a human was prompted.
	Approvals Approver
}

// Payload is the subset of a Claude Code hook payload toolwall reads.
type Payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	Error          string          `json:"error,omitempty"`
	Prompt         string          `json:"prompt,omitempty"`
	// PermissionMode is the session's permission mode ("default",
	// "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions").
	PermissionMode string `json:"permission_mode,omitempty"`
	// AgentType names the sub-agent that made the call ("" for the main
	// agent); it becomes the call's Caller.
	AgentType string `json:"agent_type,omitempty"`
	// DurationMS is how long the call ran (PostToolUse*).
	DurationMS int64 `json:"duration_ms,omitempty"`
}

// prompted reports whether an ask in this permission mode shows a human
// prompt: not in bypassPermissions, dontAsk or auto, where calls run or
// are refused without one.
func prompted(mode string) bool {
	switch mode {
	case "bypassPermissions", "dontAsk", "auto":
		return false
	}
	return true
}

// Output is the JSON a PreToolUse hook prints to ask or deny.
type Output struct {
	HookSpecificOutput SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is the hookSpecificOutput object of [Output].
type SpecificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

func (h *ClaudeCode) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	return slog.Default()
}

// Handle reads one payload from r and writes the answer (possibly
// nothing) to w. It returns the verdict it reached for a PreToolUse event
// (zero otherwise), for logs and tests. It never panics and never fails:
// write errors are logged, as there is nobody else to tell.
func (h *ClaudeCode) Handle(ctx context.Context, r io.Reader, w io.Writer) (v toolwall.Verdict) {
	event := "" // the event once known; answers are PreToolUse-shaped only for it or an unknown one
	defer func() {
		if p := recover(); p != nil {
			h.logger().Error("toolwall hook: internal error", "panic", p)
			v = internalError(p)
			if event == "" || event == EventPreToolUse {
				h.write(w, v, "")
			}
		}
	}()
	max := h.MaxPayload
	if max <= 0 {
		max = DefaultMaxPayload
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	switch {
	case err != nil:
		return h.refuse(w, fmt.Sprintf("toolwall could not read the hook payload (%v), so the tool call is refused. Retry the call.", err))
	case len(data) > max:
		return h.refuse(w, fmt.Sprintf("The hook payload is larger than %d bytes, too large to check, so the tool call is refused. Split the work into smaller calls (for example write a large file in parts).", max))
	}
	var p Payload
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return h.refuse(w, fmt.Sprintf("The hook payload is not valid JSON (%v), so toolwall cannot tell what the tool call would do; it is refused.", err))
	}
	event = canonicalEvent(p.HookEventName, p.ToolName)
	switch event {
	case EventPreToolUse:
		if p.ToolName == "" {
			return h.refuse(w, "The PreToolUse payload names no tool_name, so toolwall cannot check the call; it is refused.")
		}
		start := time.Now()
		call := h.call(p)
		v = h.decide(ctx, call)
		id := ""
		if h.Audit != nil || h.Approvals != nil {
			id = audit.NewID()
		}
		if h.Approvals != nil {
			var err error
			if v, err = h.Approvals.Check(ctx, id, call, v, prompted(p.PermissionMode)); err != nil {
				h.logger().Warn("toolwall hook: approvals unavailable; asking as usual", "err", err)
			}
		}
		if v.Action != toolwall.Allow {
			h.logger().Warn("toolwall: "+v.Action.String(), "tool", p.ToolName, "session", p.SessionID, "rules", v.Rules(), "reason", v.Reason, "decision", id)
		}
		h.record(ctx, id, call, v, start)
		h.write(w, v, id)
		return v
	case EventPostToolUse, EventPostToolUseFailure:
		if p.ToolName != "" {
			ok := event == EventPostToolUse && succeeded(p.ToolResponse)
			h.Shield.RecordInvocation(ctx, h.call(p), ok)
			h.outcome(ctx, p, ok)
		}
	case EventUserPromptSubmit:
		if h.Turns != nil && p.SessionID != "" {
			if _, err := h.Turns.AdvanceTurn(ctx, p.SessionID); err != nil {
				h.logger().Warn("toolwall hook: cannot advance turn; chain memory may span turns", "session", p.SessionID, "err", err)
			}
		}
	default:
		h.logger().Info("toolwall hook: event not handled", "event", p.HookEventName)
	}
	return toolwall.Verdict{}
}

// canonicalEvent maps the event name to the one toolwall handles,
// ignoring case; a payload without an event that names a tool and has no
// tool_response is taken as PreToolUse (the safe reading).
func canonicalEvent(name, tool string) string {
	for _, e := range []string{EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventUserPromptSubmit} {
		if strings.EqualFold(name, e) {
			return e
		}
	}
	if name == "" && tool != "" {
		return EventPreToolUse
	}
	return name
}

// decide evaluates call within the timeout; past it the call is denied.
func (h *ClaudeCode) decide(ctx context.Context, call toolwall.Call) toolwall.Verdict {
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan toolwall.Verdict, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				h.logger().Error("toolwall hook: internal error", "panic", p)
				done <- internalError(p)
			}
		}()
		done <- h.Shield.Evaluate(ctx, call)
	}()
	select {
	case v := <-done:
		return v
	case <-ctx.Done():
		return toolwall.Refusal("hook", toolwall.RuleTimeout, fmt.Sprintf("toolwall could not finish checking this call within %v, so it is refused rather than let through unchecked. Retry; if it keeps happening, the state file may be locked by another process.", timeout))
	}
}

// call maps a payload to a tool call.
func (h *ClaudeCode) call(p Payload) toolwall.Call {
	project := h.ProjectDir
	if project == "" {
		project = p.Cwd
	}
	return toolwall.Call{
		Tool: p.ToolName, Input: p.ToolInput, Session: p.SessionID, ID: p.ToolUseID,
		Cwd: p.Cwd, Project: project, Home: h.Home, Context: h.Context, Caller: p.AgentType,
	}
}

// succeeded reads a tool_response: a response that says it is an error,
// was interrupted, or exited non-zero counts as a failure; anything else
// (including shapes toolwall does not know) as success.
func succeeded(resp json.RawMessage) bool {
	var r struct {
		IsError     bool  `json:"is_error"`
		Interrupted bool  `json:"interrupted"`
		Success     *bool `json:"success"`
		ExitCode    *int  `json:"exit_code"`
	}
	if json.Unmarshal(resp, &r) != nil {
		return true
	}
	if r.Success != nil && !*r.Success {
		return false
	}
	return !r.IsError && !r.Interrupted && (r.ExitCode == nil || *r.ExitCode == 0)
}

func (h *ClaudeCode) refuse(w io.Writer, reason string) toolwall.Verdict {
	h.logger().Warn("toolwall hook: refusing malformed payload", "reason", reason)
	v := toolwall.Refusal("hook", toolwall.RuleMalformed, reason)
	id := ""
	if h.Audit != nil {
		id = audit.NewID()
		h.record(context.Background(), id, toolwall.Call{}, v, time.Now())
	}
	h.write(w, v, id)
	return v
}

// record writes the audit record of decision id; a failure is logged and
// changes nothing (the decision stands).
func (h *ClaudeCode) record(ctx context.Context, id string, call toolwall.Call, v toolwall.Verdict, start time.Time) {
	if h.Audit == nil {
		return
	}
	if err := h.Audit.Record(ctx, audit.New(id, Driver, call, v, start, time.Since(start))); err != nil {
		h.logger().Error("toolwall hook: cannot write the audit record", "decision", id, "err", err)
	}
}

// outcome attaches what happened to the call to its decision's record,
// and takes the run of an asked call as the user's approval.
func (h *ClaudeCode) outcome(ctx context.Context, p Payload, ok bool) {
	if h.Approvals != nil {
		if _, err := h.Approvals.Confirm(ctx, p.SessionID, p.ToolUseID, "claude-code PostToolUse"); err != nil {
			h.logger().Warn("toolwall hook: cannot record the approval", "err", err)
		}
	}
	if h.Audit == nil || p.ToolUseID == "" {
		return
	}
	o := audit.Outcome{Success: ok, Duration: time.Duration(p.DurationMS) * time.Millisecond, Error: p.Error}
	var r struct {
		ExitCode  *int `json:"exit_code"`
		Truncated bool `json:"truncated"`
	}
	if json.Unmarshal(p.ToolResponse, &r) == nil {
		o.ExitCode, o.Truncated = r.ExitCode, r.Truncated
	}
	if err := h.Audit.CallOutcome(ctx, p.SessionID, p.ToolUseID, audit.RedactOutcome(o)); err != nil {
		h.logger().Warn("toolwall hook: cannot attach the outcome", "err", err)
	}
}

// write prints the answer for v: nothing for allow and warn. A decision
// id, when there is one, ends the reason so a human can look it up.
func (h *ClaudeCode) write(w io.Writer, v toolwall.Verdict, id string) {
	if !v.Action.Stops() {
		return
	}
	reason := Explain(v)
	if id != "" {
		reason += " [decision " + id + "; toolwall explain " + id + "]"
	}
	if err := WriteDecision(w, v.Action, reason); err != nil {
		h.logger().Error("toolwall hook: cannot write answer", "err", err)
	}
}

// WriteDecision prints one PreToolUse answer with permissionDecision
// action ("ask" or "deny") and reason, followed by a newline.
func WriteDecision(w io.Writer, action toolwall.Action, reason string) error {
	b, err := json.Marshal(Output{HookSpecificOutput: SpecificOutput{
		HookEventName:            EventPreToolUse,
		PermissionDecision:       action.String(),
		PermissionDecisionReason: reason,
	}})
	if err == nil {
		_, err = w.Write(append(b, '\n'))
	}
	return err
}

// Explain formats a verdict's reason for the model and the human:
// "toolwall denied this call [rule, rule]: reason".
func Explain(v toolwall.Verdict) string {
	var b strings.Builder
	b.WriteString("toolwall ")
	switch v.Action {
	case toolwall.Deny:
		b.WriteString("denied this call")
	case toolwall.Ask:
		b.WriteString("asks a human to confirm this call")
	default:
		b.WriteString(v.Action.String() + "s this call")
	}
	if rules := v.Rules(); len(rules) > 0 {
		b.WriteString(" [" + strings.Join(rules, ", ") + "]")
	}
	if v.Reason != "" {
		b.WriteString(": " + v.Reason)
	}
	for _, n := range v.Notes {
		b.WriteString(" (" + n + ")")
	}
	return b.String()
}

// internalError is the refusal for a panic p inside the hook or the gate.
func internalError(p any) toolwall.Verdict {
	return toolwall.Refusal("hook", toolwall.RuleInternal, fmt.Sprintf("toolwall hit an internal error (%v) and refuses the call rather than let it through unchecked. Retry; if it persists, ask the user to check the toolwall installation.", p))
}
