package gemini

import (
	"encoding/json"
	"path"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Gemini CLI protocol.
type Adapter struct{}

// Name returns "gemini".
func (Adapter) Name() string { return "gemini" }

// Caps: Gemini CLI asks and reports executed calls (AfterTool).
func (Adapter) Caps() host.Caps { return host.Caps{Ask: true, Post: true} }

// ProjectEnv returns "GEMINI_PROJECT_DIR".
func (Adapter) ProjectEnv() string { return "GEMINI_PROJECT_DIR" }

type payload struct {
	claudecode.Payload
	MCPContext *struct {
		ServerName string `json:"server_name"`
		ToolName   string `json:"tool_name"`
	} `json:"mcp_context,omitempty"`
	OriginalRequestName string `json:"original_request_name,omitempty"`
}

// Decode reads a Gemini CLI payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	switch p.HookEventName {
	case "BeforeTool":
		p.HookEventName = "PreToolUse"
	case "AfterTool":
		p.HookEventName = "PostToolUse"
	case "BeforeAgent":
		p.HookEventName = "UserPromptSubmit"
	case "":
	default:
		if p.ToolName == "" {
			return host.Request{Session: p.SessionID}, nil
		}
	}
	req, err := p.Request(func(c toolwall.Call) toolwall.Call { return c })
	if err != nil || len(req.Calls) != 1 {
		return req, err
	}
	c := req.Calls[0]
	calls, err := Calls(c.Tool, c.Input, c.Cwd, p.serverName())
	if err != nil {
		return req, err
	}
	for i := range calls {
		calls[i].ID = c.ID
		if calls[i].Cwd == "" {
			calls[i].Cwd = c.Cwd
		}
	}
	req.Calls, req.Project = calls, p.Cwd
	return req, nil
}

func (p payload) serverName() string {
	if p.MCPContext != nil {
		return p.MCPContext.ServerName + "\x00" + p.MCPContext.ToolName
	}
	return ""
}

// Calls maps a Gemini-named tool call (Gemini CLI, Qwen Code) onto
// toolwall's calls. mcp is "server\x00tool" when the host said which MCP
// server the tool belongs to.
func Calls(tool string, input json.RawMessage, cwd, mcp string) ([]toolwall.Call, error) {
	f, ok := host.ParseFields(input)
	if !ok {
		f = host.Fields{}
	}
	switch tool {
	case "run_shell_command":
		cmd, ok := f.Str("command")
		if !ok {
			return nil, host.Malformed("run_shell_command has no command")
		}
		c := host.ShellCall(cmd, runtime.GOOS == "windows")
		if dir, ok := f.Str("dir_path", "directory"); ok && dir != "" {
			if !path.IsAbs(dir) && cwd != "" && !strings.Contains(dir, `\`) {
				dir = path.Join(cwd, dir)
			}
			cwd = dir
		}
		c.Cwd = cwd
		return []toolwall.Call{c}, nil
	case "write_file":
		p, _ := f.Str("file_path", "absolute_path", "path")
		content, _ := f.Str("content")
		return []toolwall.Call{host.WriteCall(p, content)}, nil
	case "replace", "edit":
		p, _ := f.Str("file_path", "absolute_path", "path")
		old, _ := f.Str("old_string")
		new, _ := f.Str("new_string")
		return []toolwall.Call{host.EditCall(p, old, new)}, nil
	case "read_file":
		p, _ := f.Str("file_path", "absolute_path", "path")
		return []toolwall.Call{host.ReadCall(p)}, nil
	case "read_many_files":
		var out []toolwall.Call
		for _, p := range f.Strs("paths", "include") {
			out = append(out, host.ReadCall(p))
		}
		if len(out) > 0 {
			return out, nil
		}
	case "web_fetch":
		var out []toolwall.Call
		if u, ok := f.Str("url"); ok {
			out = append(out, host.FetchCall(u))
		}
		p, _ := f.Str("prompt")
		for _, u := range host.URLs(p) {
			out = append(out, host.FetchCall(u))
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if server, name, ok := strings.Cut(mcp, "\x00"); ok {
		return []toolwall.Call{host.MCPCall(server, name, input)}, nil
	}
	if server, name, ok := host.MCPTool(tool); ok {
		// Qwen Code names MCP tools as Claude Code does.
		return []toolwall.Call{host.MCPCall(server, name, input)}, nil
	}
	if rest, ok := strings.CutPrefix(tool, "mcp_"); ok && rest != "" {
		// Gemini CLI: mcp_<server>_<tool>, the server's name up to the
		// first "_" (its own reading when no mcp_context says).
		server, name, ok := strings.Cut(rest, "_")
		if !ok || server == "" || name == "" {
			server, name = "", rest
		}
		return []toolwall.Call{host.MCPCall(server, name, input)}, nil
	}
	return []toolwall.Call{host.RawCall(tool, input)}, nil
}

// Encode prints {"decision","reason"} for an ask or a deny (BeforeTool)
// and nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	b, _ := json.Marshal(struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}{a.Action.String(), a.Reason})
	return host.Response{Stdout: string(b) + "\n"}
}
