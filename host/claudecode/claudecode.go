package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/host"
)

// Adapter is the Claude Code protocol.
type Adapter struct{}

// Name returns "claude-code".
func (Adapter) Name() string { return "claude-code" }

// Caps: Claude Code asks and reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: true, Post: true} }

// ProjectEnv returns "CLAUDE_PROJECT_DIR".
func (Adapter) ProjectEnv() string { return "CLAUDE_PROJECT_DIR" }

// Payload is the subset of a Claude Code hook payload toolwall reads.
// Factory Droid and Qwen Code send the same shape.
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
	// AgentID identifies the sub-agent's instance; it becomes the call's
	// Caller when the host names no AgentType.
	AgentID string `json:"agent_id,omitempty"`
	// DurationMS is how long the call ran (post events).
	DurationMS int64 `json:"duration_ms,omitempty"`
}

// Decode reads a Claude Code payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p Payload
	if err := Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	return p.Request(func(c toolwall.Call) toolwall.Call { return c })
}

// Unmarshal decodes one JSON object into v; trailing data after it is
// ignored (a host writes one object per call).
func Unmarshal(b []byte, v any) error {
	return json.NewDecoder(bytes.NewReader(b)).Decode(v)
}

// Request turns a Claude-shaped payload into a request; tool maps the
// host's tool call (Tool and Input as sent) onto toolwall's. A payload
// with neither an event name nor a tool is malformed.
func (p Payload) Request(tool func(toolwall.Call) toolwall.Call) (host.Request, error) {
	req := host.Request{Session: p.SessionID, Tool: p.ToolName, Prompted: Prompted(p.PermissionMode)}
	if p.HookEventName == "" && p.ToolName == "" {
		return req, host.Malformed("it names no hook_event_name")
	}
	switch {
	case strings.EqualFold(p.HookEventName, "PreToolUse"), p.HookEventName == "" && p.ToolName != "" && len(p.ToolResponse) == 0:
		req.Event = host.PreToolUse
	case strings.EqualFold(p.HookEventName, "PostToolUse"):
		req.Event = host.PostToolUse
		if !Succeeded(p.ToolResponse) {
			req.Event = host.PostToolUseFailure
		}
	case strings.EqualFold(p.HookEventName, "PostToolUseFailure"):
		req.Event = host.PostToolUseFailure
	case strings.EqualFold(p.HookEventName, "UserPromptSubmit"):
		req.Event = host.PromptSubmit
		return req, nil
	case looksPreToolUse(p.HookEventName):
		// A misspelled deciding event must not pass as one toolwall
		// ignores: that would be an allow.
		return req, host.Malformed(fmt.Sprintf("hook_event_name %q is no event a hook receives; it looks like a misspelling of PreToolUse", p.HookEventName))
	default:
		return req, nil
	}
	req.Outcome = Outcome(p.ToolResponse, p.DurationMS, p.Error)
	if p.ToolName != "" {
		c := tool(toolwall.Call{Tool: p.ToolName, Input: p.ToolInput})
		c.ID, c.Cwd, c.Caller = p.ToolUseID, p.Cwd, p.Caller()
		req.Calls = []toolwall.Call{c}
	}
	return req, nil
}

// Caller is the agent that made the call, as Claude Code (and Codex)
// name it inside a sub-agent: its agent_type ("Explore", a custom
// agent's name), else its agent_id; "" for the primary agent. A name is
// bounded to 200 bytes and stripped of control characters, as it ends up
// in audit records, quotas and scopes.
func (p Payload) Caller() string {
	c := p.AgentType
	if strings.TrimSpace(c) == "" {
		c = p.AgentID
	}
	c = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, strings.TrimSpace(c))
	if len(c) > 200 {
		c = strings.ToValidUTF8(c[:200], "")
	}
	return c
}

// looksPreToolUse reports whether an event name that is not PreToolUse
// looks like a misspelling of it: its letters, lower-cased, start with
// "pretool" or "pretoo", or read "pretooluse" with one letter changed,
// missing or added.
func looksPreToolUse(name string) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	l := b.String()
	const want = "pretooluse"
	if strings.HasPrefix(l, "pretoo") || strings.HasPrefix(l, "pretol") {
		return true
	}
	if d := len(l) - len(want); d < -1 || d > 1 {
		return false
	}
	// one edit apart: walk both while equal, then compare the rests
	i := 0
	for i < len(l) && i < len(want) && l[i] == want[i] {
		i++
	}
	return l[min(i+1, len(l)):] == want[min(i+1, len(want)):] || l[i:] == want[min(i+1, len(want)):] || l[min(i+1, len(l)):] == want[i:]
}

// Prompted reports whether an ask in this permission mode shows a human
// prompt: not in bypassPermissions, dontAsk or auto (Claude Code) nor in
// yolo (Qwen Code), where calls run or are refused without one.
func Prompted(mode string) bool {
	switch mode {
	case "bypassPermissions", "dontAsk", "auto", "yolo":
		return false
	}
	return true
}

// Succeeded reads a tool_response: a response that says it is an error,
// was interrupted, or exited non-zero counts as a failure; anything else
// (including shapes toolwall does not know) as success.
func Succeeded(resp json.RawMessage) bool {
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

// Outcome reads what a tool_response says about the run.
func Outcome(resp json.RawMessage, durationMS int64, errText string) (o audit.Outcome) {
	o.Duration, o.Error = time.Duration(durationMS)*time.Millisecond, errText
	var r struct {
		ExitCode  *int `json:"exit_code"`
		Truncated bool `json:"truncated"`
	}
	if json.Unmarshal(resp, &r) == nil {
		o.ExitCode, o.Truncated = r.ExitCode, r.Truncated
	}
	return o
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

// Encode prints nothing to allow and the hookSpecificOutput decision to
// ask or deny (PreToolUse only); it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stdout: Decision(a.Action, a.Reason)}
}

// Decision is the hookSpecificOutput line for action and reason.
func Decision(action toolwall.Action, reason string) string {
	b, _ := json.Marshal(Output{HookSpecificOutput: SpecificOutput{
		HookEventName:            "PreToolUse",
		PermissionDecision:       action.String(),
		PermissionDecisionReason: reason,
	}})
	return string(b) + "\n"
}
