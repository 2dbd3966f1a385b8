package kiro

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Kiro CLI protocol.
type Adapter struct{}

// Name returns "kiro".
func (Adapter) Name() string { return "kiro" }

// Caps: no ask; postToolUse reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true, StderrReason: true} }

// ProjectEnv returns "": Kiro sets no project variable.
func (Adapter) ProjectEnv() string { return "" }

type payload struct {
	HookEventName string          `json:"hook_event_name"`
	Cwd           string          `json:"cwd"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	SessionID     string          `json:"session_id"`
}

// Decode reads a Kiro payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: p.SessionID, Tool: p.ToolName}
	switch strings.ToLower(p.HookEventName) {
	case "pretooluse":
		req.Event = host.PreToolUse
	case "posttooluse":
		req.Event = host.PostToolUse
	case "userpromptsubmit":
		req.Event = host.PromptSubmit
		return req, nil
	case "":
		return req, host.Malformed("it names no hook_event_name")
	default:
		return req, nil
	}
	if p.ToolName == "" {
		return req, host.Malformed("it names no tool_name")
	}
	calls, err := calls(p.ToolName, p.ToolInput)
	if err != nil && req.Event == host.PreToolUse {
		return req, err
	}
	for i := range calls {
		calls[i].Cwd = p.Cwd
	}
	req.Calls = calls
	return req, nil
}

func calls(tool string, input json.RawMessage) ([]toolwall.Call, error) {
	f, ok := host.ParseFields(input)
	if !ok {
		f = host.Fields{}
	}
	file, _ := f.Str("path", "file_path")
	switch tool {
	case "execute_bash", "shell", "execute_cmd", "executeBash":
		cmd, ok := f.Str("command")
		if !ok {
			return nil, host.Malformed(tool + " has no command")
		}
		return []toolwall.Call{host.ShellCall(cmd, tool == "execute_cmd" || runtime.GOOS == "windows")}, nil
	case "fs_write", "write", "fsWrite":
		if file == "" {
			return nil, host.Malformed(tool + " names no path")
		}
		op, _ := f.Str("command")
		switch op {
		case "str_replace":
			old, _ := f.Str("old_str")
			new, _ := f.Str("new_str")
			return []toolwall.Call{host.EditCall(file, old, new)}, nil
		case "append", "insert":
			new, _ := f.Str("new_str", "file_text")
			return []toolwall.Call{host.EditCall(file, "", new)}, nil
		}
		text, _ := f.Str("file_text", "content", "new_str")
		return []toolwall.Call{host.WriteCall(file, text)}, nil
	case "fs_read", "read", "fsRead":
		if file != "" {
			return []toolwall.Call{host.ReadCall(file)}, nil
		}
		var in struct {
			Operations []struct {
				Path string `json:"path"`
			} `json:"operations"`
		}
		_ = json.Unmarshal(f.Raw(), &in)
		var out []toolwall.Call
		for _, o := range in.Operations {
			out = append(out, host.ReadCall(o.Path))
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if rest, ok := strings.CutPrefix(tool, "@"); ok {
		if server, name, ok := strings.Cut(rest, "/"); ok {
			return []toolwall.Call{host.MCPCall(server, name, input)}, nil
		}
	}
	// A tool toolwall does not know goes on under its name, unless it
	// carries a command: what that would run cannot be told.
	if k, ok := f.CommandKey(); ok && tool != "fs_read" && tool != "read" && tool != "fsRead" {
		return nil, host.Malformed("Kiro's tool " + tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
	}
	return []toolwall.Call{host.RawCall(tool, f.Raw())}, nil
}

// Encode exits 2 with the reason on stderr to block; it exits 0 with no
// output otherwise.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stderr: a.Reason + "\n", Exit: 2}
}
