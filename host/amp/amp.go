package amp

import (
	_ "embed"
	"encoding/json"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Plugin is the Amp plugin toolwall installs (TypeScript written as
// plain JavaScript, so node runs it too).
//
//go:embed plugin.ts
var Plugin string

// Adapter is the protocol between the plugin and toolwall.
type Adapter struct{}

// Name returns "amp".
func (Adapter) Name() string { return "amp" }

// Caps: no ask, no report of executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{} }

// ProjectEnv returns "": the plugin sends the workspace root.
func (Adapter) ProjectEnv() string { return "" }

type payload struct {
	Event  string          `json:"event"`
	Tool   string          `json:"tool"`
	Input  json.RawMessage `json:"input"`
	Thread struct {
		ID string `json:"id"`
	} `json:"thread"`
	WorkspaceRoot string `json:"workspaceRoot"`
}

// Decode reads what the plugin sends.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: p.Thread.ID, Tool: p.Tool, Project: p.WorkspaceRoot}
	switch p.Event {
	case "tool.call":
		req.Event = host.PreToolUse
	case "":
		return req, host.Malformed("it names no event")
	default:
		return req, nil
	}
	if p.Tool == "" {
		return req, host.Malformed("it names no tool")
	}
	f, ok := host.ParseFields(p.Input)
	if !ok {
		f = host.Fields{}
	}
	file, _ := f.Str("path", "file_path", "filePath")
	cwd := p.WorkspaceRoot
	var c toolwall.Call
	switch strings.ToLower(p.Tool) {
	case "bash", "shell":
		cmd, ok := f.Str("cmd", "command")
		if !ok {
			return req, host.Malformed(p.Tool + " has no cmd")
		}
		c = host.ShellCall(cmd, runtime.GOOS == "windows")
		if dir, ok := f.Str("cwd", "dir"); ok && dir != "" {
			cwd = dir
		}
	case "create_file":
		content, _ := f.Str("content", "contents", "file_text")
		c = host.WriteCall(file, content)
	case "edit_file":
		old, _ := f.Str("old_str", "old_string", "oldString")
		new, _ := f.Str("new_str", "new_string", "newString")
		c = host.EditCall(file, old, new)
	case "read":
		c = host.ReadCall(file)
	case "read_web_page":
		u, _ := f.Str("url")
		c = host.FetchCall(u)
	default:
		c = host.RawCall(p.Tool, p.Input)
		if server, name, ok := host.MCPTool(p.Tool); ok {
			c = host.MCPCall(server, name, p.Input)
		}
	}
	c.Cwd = cwd
	req.Calls = []toolwall.Call{c}
	return req, nil
}

// Encode prints {"action":"allow"} or {"action":"deny","reason":…}; the
// plugin rejects on anything but an allow. It always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	v := map[string]string{"action": "allow"}
	if a.Event == host.PreToolUse && a.Action != toolwall.Allow {
		v = map[string]string{"action": "deny", "reason": a.Reason}
	}
	b, _ := json.Marshal(v)
	return host.Response{Stdout: string(b) + "\n"}
}
