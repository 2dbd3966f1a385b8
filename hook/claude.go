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
				h.write(w, v)
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
		v = h.decide(ctx, h.call(p))
		if v.Action != toolwall.Allow {
			h.logger().Warn("toolwall: "+v.Action.String(), "tool", p.ToolName, "session", p.SessionID, "rules", v.Rules(), "reason", v.Reason)
		}
		h.write(w, v)
		return v
	case EventPostToolUse, EventPostToolUseFailure:
		if p.ToolName != "" {
			h.Shield.RecordInvocation(ctx, h.call(p), event == EventPostToolUse && succeeded(p.ToolResponse))
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
		Cwd: p.Cwd, Project: project, Home: h.Home, Context: h.Context,
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
	h.write(w, v)
	return v
}

// write prints the answer for v: nothing for allow and warn.
func (h *ClaudeCode) write(w io.Writer, v toolwall.Verdict) {
	if !v.Action.Stops() {
		return
	}
	if err := WriteDecision(w, v.Action, Explain(v)); err != nil {
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
