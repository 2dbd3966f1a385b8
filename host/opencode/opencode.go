package opencode

import (
	_ "embed"
	"encoding/json"
	"path"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Plugin is the OpenCode 1.x plugin toolwall installs (JavaScript; it
// needs only node:child_process): a named export function returning the
// hooks, the V1 plugin API.
//
//go:embed plugin.js
var Plugin string

// PluginV2 is the plugin for OpenCode 2, whose loader runs only a default
// export {id, setup(ctx)} and registers hooks through ctx.tool.hook.
//
//go:embed plugin_v2.js
var PluginV2 string

// API tells which plugin API a plugin source is written for: 2 for a
// default export with setup(ctx) (OpenCode 2), 1 for named export
// functions (OpenCode 1.x), 0 when it cannot tell.
func API(src string) int {
	switch {
	case strings.Contains(src, "export default") && strings.Contains(src, "setup(ctx)"):
		return 2
	case strings.Contains(src, "export const"):
		return 1
	}
	return 0
}

// Adapter is the protocol between the plugin and toolwall.
type Adapter struct{}

// Name returns "opencode".
func (Adapter) Name() string { return "opencode" }

// Caps: no ask; the plugin reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true} }

// ProjectEnv returns "": the plugin sends the worktree.
func (Adapter) ProjectEnv() string { return "" }

type payload struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool"`
	SessionID string          `json:"sessionID"`
	CallID    string          `json:"callID"`
	Args      json.RawMessage `json:"args"`
	Directory string          `json:"directory"`
	Worktree  string          `json:"worktree"`
	Error     string          `json:"error"`
}

// builtin are the names of OpenCode's own tools (its tool registry,
// across versions); any other tool is an MCP server's or a plugin's.
var builtin = map[string]bool{
	"invalid": true, "question": true, "bash": true, "shell": true, "read": true,
	"glob": true, "grep": true, "list": true, "ls": true, "edit": true,
	"multiedit": true, "write": true, "patch": true, "apply_patch": true,
	"task": true, "webfetch": true, "websearch": true, "codesearch": true,
	"todowrite": true, "todoread": true, "skill": true, "reload": true,
	"lsp": true, "plan_enter": true, "plan_exit": true, "batch": true,
	"execute": true,
}

// Decode reads what the plugin sends.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: p.SessionID, Tool: p.Tool, Project: p.Worktree}
	switch p.Event {
	case "tool.execute.before":
		req.Event = host.PreToolUse
	case "tool.execute.after":
		req.Event = host.PostToolUse
		if p.Error != "" {
			req.Event = host.PostToolUseFailure
		}
	case "chat.message":
		req.Event = host.PromptSubmit
		return req, nil
	case "":
		return req, host.Malformed("it names no event")
	default:
		return req, nil
	}
	if p.Tool == "" {
		return req, host.Malformed("it names no tool")
	}
	if req.Event != host.PreToolUse && len(p.Args) == 0 {
		// The plugin's after-hook knows the call id, not the args: the
		// gate commits the call it staged under that id.
		c := host.RawCall(p.Tool, json.RawMessage(`{}`))
		c.ID, c.Cwd = p.CallID, p.Directory
		req.Calls = []toolwall.Call{c}
		return req, nil
	}
	f, ok := host.ParseFields(p.Args)
	if !ok {
		f = host.Fields{}
	}
	cwd := p.Directory
	file, _ := f.Str("filePath", "file_path", "path")
	var calls []toolwall.Call
	switch p.Tool {
	case "bash", "shell":
		cmd, ok := f.Str("command")
		if !ok {
			return req, host.Malformed("bash has no command")
		}
		c := host.ShellCall(cmd, runtime.GOOS == "windows")
		if wd, ok := f.Str("workdir"); ok && wd != "" {
			if !path.IsAbs(wd) && cwd != "" {
				wd = path.Join(cwd, wd)
			}
			c.Cwd = wd
		}
		calls = []toolwall.Call{c}
	case "write":
		content, _ := f.Str("content")
		calls = []toolwall.Call{host.WriteCall(file, content)}
	case "edit":
		old, _ := f.Str("oldString", "old_string")
		new, _ := f.Str("newString", "new_string")
		calls = []toolwall.Call{host.EditCall(file, old, new)}
	case "multiedit":
		var in struct {
			Edits []struct {
				OldString string `json:"oldString"`
				NewString string `json:"newString"`
			} `json:"edits"`
		}
		_ = json.Unmarshal(p.Args, &in)
		for _, e := range in.Edits {
			calls = append(calls, host.EditCall(file, e.OldString, e.NewString))
		}
		if len(calls) == 0 {
			calls = []toolwall.Call{host.EditCall(file, "", "")}
		}
	case "read":
		calls = []toolwall.Call{host.ReadCall(file)}
	case "webfetch":
		u, _ := f.Str("url")
		calls = []toolwall.Call{host.FetchCall(u)}
	case "patch", "apply_patch":
		text, ok := f.Str("patchText", "patch", "input")
		if !ok {
			return req, host.Malformed("apply_patch has no patchText")
		}
		var pok bool
		if calls, pok = host.PatchCalls(text, cwd); !pok {
			return req, host.Malformed("the patch names no file")
		}
	default:
		calls = []toolwall.Call{host.RawCall(p.Tool, p.Args)}
		if !builtin[p.Tool] {
			// OpenCode names an MCP tool <server>_<tool>, which cannot be
			// told from a tool of its own by its form: a tool that is not
			// one of OpenCode's is judged as an MCP tool is, by what its
			// arguments would do.
			calls = []toolwall.Call{host.MCPCall("", p.Tool, p.Args)}
		}
	}
	for i := range calls {
		calls[i].ID = p.CallID
		if calls[i].Cwd == "" {
			calls[i].Cwd = cwd
		}
	}
	req.Calls = calls
	return req, nil
}

// Encode prints {"action":"allow"} or {"action":"deny","reason":…}; the
// plugin throws on anything but an allow. It always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	v := map[string]string{"action": "allow"}
	if a.Event == host.PreToolUse && a.Action != toolwall.Allow {
		v = map[string]string{"action": "deny", "reason": a.Reason}
	}
	b, _ := json.Marshal(v)
	return host.Response{Stdout: string(b) + "\n"}
}
