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
	req, err := p.Request(mapTool)
	if err == nil {
		req.Prompted = req.Prompted && p.PermissionMode != "auto-full"
	}
	return req, err
}

// mapTool maps Droid's tool names onto toolwall's.
func mapTool(c toolwall.Call) toolwall.Call {
	f, ok := host.ParseFields(c.Input)
	if !ok {
		return c
	}
	file, _ := f.Str("file_path", "path", "filePath")
	var n toolwall.Call
	switch strings.ToLower(c.Tool) {
	case "execute", "bash":
		cmd, ok := f.Str("command")
		if !ok {
			return c
		}
		n = host.ShellCall(cmd, runtime.GOOS == "windows")
	case "create", "write":
		content, _ := f.Str("content", "file_text", "contents")
		n = host.WriteCall(file, content)
	case "edit":
		old, _ := f.Str("old_str", "old_string")
		new, _ := f.Str("new_str", "new_string")
		n = host.EditCall(file, old, new)
	case "read", "view":
		n = host.ReadCall(file)
	case "fetchurl", "webfetch", "fetch":
		u, _ := f.Str("url")
		n = host.FetchCall(u)
	case "multiedit":
		n = toolwall.Call{Tool: toolwall.ToolMultiEdit, Input: c.Input}
	default:
		return c
	}
	return n
}

// Encode prints Claude Code's hookSpecificOutput for an ask or a deny
// and nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stdout: claudecode.Decision(a.Action, a.Reason)}
}
