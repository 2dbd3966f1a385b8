package qwen

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/host/gemini"
)

// Adapter is the Qwen Code protocol.
type Adapter struct{}

// Name returns "qwen".
func (Adapter) Name() string { return "qwen" }

// Caps: Qwen Code asks and reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: true, Post: true} }

// ProjectEnv returns "QWEN_PROJECT_DIR".
func (Adapter) ProjectEnv() string { return "QWEN_PROJECT_DIR" }

type payload struct {
	claudecode.Payload
	ToolCallID string `json:"tool_call_id"`
	// Prompt is the model-bound text of a UserPromptSubmit (nil when the
	// key is absent); SubmittedPrompt the text a person submitted, when
	// Qwen Code can tell (see continuation).
	Prompt          *string `json:"prompt"`
	SubmittedPrompt string  `json:"submitted_prompt"`
}

// continuation reports whether a UserPromptSubmit is Qwen Code sending
// the model something other than a person's prompt. Qwen Code fires the
// event before every UserQuery, ToolResult and Hook send: a tool-result
// continuation carries only function-response parts, whose text is
// empty, so its prompt is blank; a submission from the interactive
// composer carries submitted_prompt. A non-blank prompt without
// submitted_prompt is a user query from a producer that records no
// provenance (headless, ACP, SDK) or a hook's continuation, which the
// payload does not tell apart: it counts as a turn.
func (p payload) continuation() bool {
	if strings.TrimSpace(p.SubmittedPrompt) != "" {
		return false
	}
	return p.Prompt != nil && strings.TrimSpace(*p.Prompt) == ""
}

// Decode reads a Qwen Code payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	if p.ToolUseID == "" {
		p.ToolUseID = p.ToolCallID
	}
	req, err := p.Request(func(c toolwall.Call) toolwall.Call { return c })
	if err == nil && req.Event == host.PromptSubmit && p.continuation() {
		// The same turn goes on: only a person's prompt starts the next.
		req.Event = host.Ignored
	}
	if err != nil || len(req.Calls) != 1 {
		return req, err
	}
	c := req.Calls[0]
	calls, err := gemini.Calls(c.Tool, c.Input, c.Cwd, "")
	if err != nil {
		return req, err
	}
	for i := range calls {
		calls[i].ID, calls[i].Caller = c.ID, c.Caller
		if calls[i].Cwd == "" {
			calls[i].Cwd = c.Cwd
		}
	}
	req.Calls, req.Project = calls, p.Cwd
	return req, nil
}

// Encode prints Claude Code's hookSpecificOutput for an ask or a deny
// and nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stdout: claudecode.Decision(a.Action, a.Reason)}
}
