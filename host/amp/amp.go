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
	ToolUseID     string `json:"toolUseID"`
	// Shell is what Amp's helper shellCommandFromToolCall reads as the
	// shell command the call runs (null when it runs none).
	Shell *struct {
		Command *string `json:"command"`
		Dir     string  `json:"dir"`
	} `json:"shell"`
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
	needFile := func() error {
		if file == "" {
			return host.Malformed("Amp's " + p.Tool + " input names no path")
		}
		return nil
	}
	var c toolwall.Call
	switch tool := strings.ToLower(p.Tool); {
	case p.Shell != nil:
		// Amp says the call runs a shell command, whatever the tool.
		if p.Shell.Command == nil {
			return req, host.Malformed("Amp's shell helper read no command for " + p.Tool)
		}
		c = host.ShellCall(*p.Shell.Command, runtime.GOOS == "windows")
		if p.Shell.Dir != "" {
			cwd = p.Shell.Dir
		} else if dir, ok := f.Str("cwd"); ok && dir != "" {
			cwd = dir
		}
	case tool == "bash" || tool == "shell":
		cmd, ok := f.Str("cmd", "command")
		if !ok {
			return req, host.Malformed(p.Tool + " has no cmd")
		}
		c = host.ShellCall(cmd, runtime.GOOS == "windows")
		if dir, ok := f.Str("cwd", "dir"); ok && dir != "" {
			cwd = dir
		}
	case tool == "create_file":
		content, _ := f.Str("content", "contents", "file_text")
		c = host.WriteCall(file, content)
		if err := needFile(); err != nil {
			return req, err
		}
	case tool == "edit_file":
		old, _ := f.Str("old_str", "old_string", "oldString")
		new, _ := f.Str("new_str", "new_string", "newString")
		c = host.EditCall(file, old, new)
		if err := needFile(); err != nil {
			return req, err
		}
	case tool == "read":
		c = host.ReadCall(file)
		if err := needFile(); err != nil {
			return req, err
		}
	case tool == "read_web_page":
		u, _ := f.Str("url")
		c = host.FetchCall(u)
	default:
		server, name, ok := host.MCPTool(p.Tool)
		if ok {
			c = host.MCPCall(server, name, p.Input)
			break
		}
		if k, ok := f.CommandKey(); ok {
			return req, host.Malformed("Amp's tool " + p.Tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
		}
		c = host.RawCall(p.Tool, p.Input)
	}
	c.Cwd = cwd
	c.ID = p.ToolUseID
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
