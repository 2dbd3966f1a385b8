package copilot

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Copilot CLI protocol.
type Adapter struct{}

// Name returns "copilot".
func (Adapter) Name() string { return "copilot" }

// Caps: Copilot CLI asks (a deny when nobody can answer) and reports
// executed calls (postToolUse).
func (Adapter) Caps() host.Caps { return host.Caps{Ask: true, Post: true} }

// ProjectEnv returns "": Copilot sets no project variable.
func (Adapter) ProjectEnv() string { return "" }

type payload struct {
	SessionIDCamel string          `json:"sessionId"`
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	ToolNameCamel  string          `json:"toolName"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	ToolResult     json.RawMessage `json:"toolResult"`
	Prompt         *string         `json:"prompt"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolResponse   json.RawMessage `json:"tool_response"`
}

// Decode reads a Copilot CLI payload in either shape.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: first(p.SessionIDCamel, p.SessionID), Prompted: true}
	if p.HookEventName != "" || p.ToolName != "" {
		req.Shape = "claude"
	}
	tool, input := first(p.ToolNameCamel, p.ToolName), p.ToolArgs
	if len(input) == 0 {
		input = p.ToolInput
	}
	req.Tool = tool
	event := strings.ToLower(p.HookEventName)
	switch {
	case event == "pretooluse", event == "" && tool != "" && len(p.ToolResult) == 0 && len(p.ToolResponse) == 0:
		req.Event = host.PreToolUse
	case event == "posttooluse", event == "" && tool != "":
		req.Event = host.PostToolUse
		if !succeeded(p.ToolResult) || !claudecode.Succeeded(p.ToolResponse) {
			req.Event = host.PostToolUseFailure
		}
	case event == "userpromptsubmitted", event == "userpromptsubmit", event == "" && p.Prompt != nil:
		req.Event = host.PromptSubmit
		return req, nil
	case event == "" && tool == "":
		return req, host.Malformed("it names no toolName")
	default:
		return req, nil
	}
	if tool == "" {
		return req, host.Malformed("it names no toolName")
	}
	f, ok := host.ParseFields(input)
	if !ok {
		if req.Event == host.PreToolUse && len(input) > 0 {
			return req, host.Malformed("toolArgs is neither an object nor a JSON string holding one")
		}
		f = host.Fields{}
	}
	calls, err := calls(tool, f, p.Cwd)
	if err != nil {
		return req, err
	}
	for i := range calls {
		calls[i].ID = p.ToolUseID
		if calls[i].Cwd == "" {
			calls[i].Cwd = p.Cwd
		}
	}
	req.Calls = calls
	return req, nil
}

// succeeded reads a camelCase toolResult ({"resultType":"success"|…}).
func succeeded(r json.RawMessage) bool {
	var x struct {
		ResultType string `json:"resultType"`
	}
	if json.Unmarshal(r, &x) != nil {
		return true
	}
	return x.ResultType == "" || x.ResultType == "success"
}

func calls(tool string, f host.Fields, cwd string) ([]toolwall.Call, error) {
	file, _ := f.Str("path", "file_path", "filePath")
	switch strings.ToLower(tool) {
	case "bash", "powershell", "shell":
		cmd, ok := f.Str("command")
		if !ok {
			return nil, host.Malformed(tool + " has no command")
		}
		return []toolwall.Call{host.ShellCall(cmd, host.IsPowerShell(tool) || runtime.GOOS == "windows")}, nil
	case "create", "write":
		content, _ := f.Str("file_text", "content", "contents")
		return []toolwall.Call{host.WriteCall(file, content)}, nil
	case "edit", "str_replace", "str_replace_editor":
		old, _ := f.Str("old_str", "old_string")
		new, _ := f.Str("new_str", "new_string")
		return []toolwall.Call{host.EditCall(file, old, new)}, nil
	case "view", "read":
		return []toolwall.Call{host.ReadCall(file)}, nil
	case "web_fetch", "fetch":
		u, _ := f.Str("url")
		return []toolwall.Call{host.FetchCall(u)}, nil
	case "apply_patch":
		text, ok := f.Str("input", "patch", "command")
		if !ok {
			return nil, host.Malformed("apply_patch has no patch text")
		}
		cs, ok := host.PatchCalls(text, cwd)
		if !ok {
			return nil, host.Malformed("the apply_patch text names no file")
		}
		return cs, nil
	}
	// An MCP tool is <server>-<tool> in Copilot CLI (the server's name may
	// hold dashes too, so it is not split off); Claude-format plugin hooks
	// name it mcp__server__tool. No built-in tool has a dash in its name.
	if server, name, ok := host.MCPTool(tool); ok {
		return []toolwall.Call{host.MCPCall(server, name, f.Raw())}, nil
	}
	if strings.Contains(tool, "-") {
		return []toolwall.Call{host.MCPCall("", tool, f.Raw())}, nil
	}
	if k, ok := f.CommandKey(); ok {
		return nil, host.Malformed("Copilot's tool " + tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
	}
	return []toolwall.Call{host.RawCall(tool, f.Raw())}, nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Encode prints {"permissionDecision","permissionDecisionReason"} for an
// ask or a deny and nothing otherwise, and for the Claude-shaped payload
// the same decision in hookSpecificOutput too; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	out := decision{PermissionDecision: a.Action.String(), PermissionDecisionReason: a.Reason}
	if a.Shape == "claude" {
		out.HookSpecificOutput = &claudecode.SpecificOutput{HookEventName: "PreToolUse", PermissionDecision: a.Action.String(), PermissionDecisionReason: a.Reason}
	}
	b, _ := json.Marshal(out)
	return host.Response{Stdout: string(b) + "\n"}
}

type decision struct {
	PermissionDecision       string                     `json:"permissionDecision"`
	PermissionDecisionReason string                     `json:"permissionDecisionReason"`
	HookSpecificOutput       *claudecode.SpecificOutput `json:"hookSpecificOutput,omitempty"`
}
