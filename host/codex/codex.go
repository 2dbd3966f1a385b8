// Package codex is the OpenAI Codex CLI adapter.
//
// Protocol (openai/codex codex-rs/hooks: events/pre_tool_use.rs,
// engine/output_parser.rs, schema.rs; shared/reference/agent-hosts.md
// §2): the payload is Claude Code's shape (session_id, turn_id, cwd,
// hook_event_name, tool_name, tool_input, tool_use_id). The shell tools
// (shell, exec_command, unified exec) arrive as tool_name "Bash" with
// tool_input.command; every file edit arrives as "apply_patch" with the
// raw patch text in tool_input.command, judged here as the file writes
// the patch makes; MCP tools are mcp__server__tool.
//
// Codex can only deny: "ask", and "allow" without updatedInput, mark the
// hook Failed and the call proceeds, as does any output with a field the
// output structs do not know (#[serde(deny_unknown_fields)]) or a deny
// with an empty reason. So the adapter prints exactly
// {"hookSpecificOutput":{"hookEventName":"PreToolUse",
// "permissionDecision":"deny","permissionDecisionReason":"…"}} and
// nothing else, exits 0, prints nothing to allow, and answers an ask as a
// deny saying a human must run the call. A crash, a timeout or a non-zero
// exit other than 2 fails open in Codex, hence the Hook's own deadline.
package codex

import (
	"encoding/json"
	"runtime"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Codex protocol.
type Adapter struct{}

// Name returns "codex".
func (Adapter) Name() string { return "codex" }

// Caps: Codex cannot ask; it reports executed calls (PostToolUse).
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true} }

// ProjectEnv returns "": Codex sets no project variable.
func (Adapter) ProjectEnv() string { return "" }

// Decode reads a Codex payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p claudecode.Payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req, err := p.Request(func(c toolwall.Call) toolwall.Call { return c })
	if err != nil || len(req.Calls) != 1 {
		return req, err
	}
	c := req.Calls[0]
	switch c.Tool {
	case "Bash", "shell", "exec_command", "local_shell", "unified_exec":
		cmd, ok := command(c.Input)
		if !ok {
			return req, host.Malformed("the shell tool_input has no command")
		}
		n := host.ShellCall(cmd, runtime.GOOS == "windows")
		n.ID, n.Cwd, n.Caller = c.ID, c.Cwd, c.Caller
		req.Calls[0] = n
	case "apply_patch", "Write", "Edit":
		text, ok := command(c.Input)
		if !ok {
			return req, host.Malformed("the apply_patch tool_input has no patch text")
		}
		calls, ok := host.PatchCalls(text, c.Cwd)
		if !ok {
			return req, host.Malformed("the apply_patch text names no file (no *** Add/Update/Delete File header)")
		}
		for i := range calls {
			calls[i].ID, calls[i].Cwd, calls[i].Caller = c.ID, c.Cwd, c.Caller
		}
		req.Calls = calls
	}
	return req, nil
}

// command reads tool_input.command: a string, or an argv array joined as
// the shell would see it (older Codex shell tools send ["bash","-lc",…]).
func command(in json.RawMessage) (string, bool) {
	var m struct {
		Command json.RawMessage `json:"command"`
		Patch   string          `json:"patch"`
		Input   string          `json:"input"`
	}
	if json.Unmarshal(in, &m) != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(m.Command, &s) == nil {
		return s, true
	}
	var argv []string
	if json.Unmarshal(m.Command, &argv) == nil && len(argv) > 0 {
		out := ""
		for i, a := range argv {
			if i > 0 {
				out += " "
			}
			out += host.Quote(a)
		}
		return out, true
	}
	for _, s := range []string{m.Patch, m.Input} {
		if s != "" {
			return s, true
		}
	}
	return "", false
}

// Encode prints the exact deny object for a deny (PreToolUse) and
// nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action != toolwall.Deny {
		return host.Response{}
	}
	return host.Response{Stdout: claudecode.Decision(toolwall.Deny, a.Reason)}
}
