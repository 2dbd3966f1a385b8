package factory

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Factory Droid protocol.
type Adapter struct{}

// Name returns "factory".
func (Adapter) Name() string { return "factory" }

// Caps: Droid asks and reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: true, Post: true} }

// ProjectEnv returns "FACTORY_PROJECT_DIR".
func (Adapter) ProjectEnv() string { return "FACTORY_PROJECT_DIR" }

type camel struct {
	HookEventName  string          `json:"hookEventName"`
	SessionID      string          `json:"sessionId"`
	TranscriptPath string          `json:"transcriptPath"`
	PermissionMode string          `json:"permissionMode"`
	ToolName       string          `json:"toolName"`
	ToolInput      json.RawMessage `json:"toolInput"`
	ToolUseID      string          `json:"toolUseId"`
	ToolResponse   json.RawMessage `json:"toolResponse"`
}

// Decode reads a Droid payload, snake_case or camelCase.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p claudecode.Payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	var c camel
	_ = claudecode.Unmarshal(b, &c)
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&p.HookEventName, c.HookEventName)
	fill(&p.SessionID, c.SessionID)
	fill(&p.TranscriptPath, c.TranscriptPath)
	fill(&p.PermissionMode, c.PermissionMode)
	fill(&p.ToolName, c.ToolName)
	fill(&p.ToolUseID, c.ToolUseID)
	if len(p.ToolInput) == 0 {
		p.ToolInput = c.ToolInput
	}
	if len(p.ToolResponse) == 0 {
		p.ToolResponse = c.ToolResponse
	}
	req, err := p.Request(func(c toolwall.Call) toolwall.Call { return c })
	if err != nil || len(req.Calls) != 1 {
		return req, err
	}
	req.Prompted = req.Prompted && p.PermissionMode != "auto-full"
	call := req.Calls[0]
	calls, err := mapTool(call)
	if err != nil {
		if req.Event != host.PreToolUse {
			// A report of a call that ran is remembered as it came.
			return req, nil
		}
		return req, err
	}
	for i := range calls {
		calls[i].ID, calls[i].Cwd, calls[i].Caller = call.ID, call.Cwd, call.Caller
	}
	req.Calls = calls
	return req, nil
}

// mapTool maps Droid's tool names onto toolwall's. A tool it knows whose
// input it cannot read, and a tool it does not know carrying a command,
// are errors: the call is refused, never read as harmless.
func mapTool(c toolwall.Call) ([]toolwall.Call, error) {
	if _, _, ok := host.MCPTool(c.Tool); ok {
		return []toolwall.Call{c}, nil
	}
	f, ok := host.ParseFields(c.Input)
	if !ok {
		f = host.Fields{}
	}
	file, _ := f.Str("file_path", "path", "filePath")
	needFile := func(n toolwall.Call) ([]toolwall.Call, error) {
		if file == "" {
			return nil, host.Malformed("Droid's " + c.Tool + " tool_input names no file_path")
		}
		return []toolwall.Call{n}, nil
	}
	switch strings.ToLower(c.Tool) {
	case "execute", "bash":
		cmd, ok := f.Str("command")
		if !ok {
			return nil, host.Malformed("Droid's " + c.Tool + " tool_input has no command")
		}
		return []toolwall.Call{host.ShellCall(cmd, runtime.GOOS == "windows")}, nil
	case "create", "write":
		content, _ := f.Str("content", "file_text", "contents")
		return needFile(host.WriteCall(file, content))
	case "edit":
		old, _ := f.Str("old_str", "old_string")
		new, _ := f.Str("new_str", "new_string")
		return needFile(host.EditCall(file, old, new))
	case "read", "view":
		return needFile(host.ReadCall(file))
	case "fetchurl", "webfetch", "fetch":
		u, _ := f.Str("url")
		return []toolwall.Call{host.FetchCall(u)}, nil
	case "multiedit":
		if file == "" {
			return nil, host.Malformed("Droid's MultiEdit tool_input names no file_path")
		}
		return []toolwall.Call{{Tool: toolwall.ToolMultiEdit, Input: c.Input}}, nil
	case "applypatch", "apply_patch":
		// The patch text in the apply_patch format; its field is not
		// documented: patch, input and command are read.
		text, ok := f.Str("patch", "input", "command")
		if !ok {
			if s, isString := stringInput(c.Input); isString {
				text, ok = s, true
			}
		}
		if !ok {
			return nil, host.Malformed("Droid's ApplyPatch tool_input has no patch text")
		}
		calls, ok := host.PatchCalls(text, c.Cwd)
		if !ok {
			return nil, host.Malformed("Droid's ApplyPatch text names no file (no *** Add/Update/Delete File header)")
		}
		return calls, nil
	}
	if k, ok := f.CommandKey(); ok {
		return nil, host.Malformed("Droid's tool " + c.Tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
	}
	return []toolwall.Call{c}, nil
}

// stringInput reads a tool_input that is a JSON string (a freeform
// patch).
func stringInput(in json.RawMessage) (string, bool) {
	var s string
	return s, json.Unmarshal(in, &s) == nil && s != ""
}

// Encode prints Claude Code's hookSpecificOutput for an ask or a deny
// and nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stdout: claudecode.Decision(a.Action, a.Reason)}
}
