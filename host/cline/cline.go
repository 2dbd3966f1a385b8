package cline

import (
	"encoding/json"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Cline protocol.
type Adapter struct{}

// Name returns "cline".
func (Adapter) Name() string { return "cline" }

// Caps: no ask; PostToolUse reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true} }

// ProjectEnv returns "": the payload names the workspace roots.
func (Adapter) ProjectEnv() string { return "" }

type toolCall struct {
	ToolName   string          `json:"toolName"`
	Parameters json.RawMessage `json:"parameters"`
	Success    *bool           `json:"success"`
}

type payload struct {
	HookName         string    `json:"hookName"`
	TaskID           string    `json:"taskId"`
	WorkspaceRoots   []string  `json:"workspaceRoots"`
	PreToolUse       *toolCall `json:"preToolUse"`
	PostToolUse      *toolCall `json:"postToolUse"`
	UserPromptSubmit *struct{} `json:"userPromptSubmit"`
	ToolCall         *struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_call"`
	ToolResult *struct {
		ID      string `json:"id"`
		Name    string `json:"name"`
		IsError bool   `json:"isError"`
	} `json:"tool_result"`
}

// Decode reads a Cline payload, extension or CLI.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: p.TaskID}
	if len(p.WorkspaceRoots) > 0 {
		req.Project = p.WorkspaceRoots[0]
	}
	cwd := req.Project
	var tool string
	var input json.RawMessage
	id := ""
	switch {
	case p.HookName == "PreToolUse" || p.HookName == "" && p.PreToolUse != nil:
		if p.PreToolUse == nil {
			return req, host.Malformed("PreToolUse has no preToolUse object")
		}
		req.Event, tool, input = host.PreToolUse, p.PreToolUse.ToolName, p.PreToolUse.Parameters
	case p.HookName == "PostToolUse":
		if p.PostToolUse == nil {
			return req, nil
		}
		req.Event, tool, input = host.PostToolUse, p.PostToolUse.ToolName, p.PostToolUse.Parameters
		if p.PostToolUse.Success != nil && !*p.PostToolUse.Success {
			req.Event = host.PostToolUseFailure
		}
	case p.HookName == "tool_call":
		if p.ToolCall == nil {
			return req, host.Malformed("tool_call has no tool_call object")
		}
		req.Event, tool, input, id = host.PreToolUse, p.ToolCall.Name, p.ToolCall.Input, p.ToolCall.ID
	case p.HookName == "tool_result":
		if p.ToolResult == nil {
			return req, nil
		}
		req.Event, tool, id = host.PostToolUse, p.ToolResult.Name, p.ToolResult.ID
		if p.ToolResult.IsError {
			req.Event = host.PostToolUseFailure
		}
		c := host.RawCall(tool, json.RawMessage(`{}`))
		c.ID, c.Cwd = id, cwd
		req.Calls, req.Tool = []toolwall.Call{c}, tool
		return req, nil
	case p.HookName == "UserPromptSubmit", p.HookName == "user_prompt_submit", p.HookName == "" && p.UserPromptSubmit != nil:
		req.Event = host.PromptSubmit
		return req, nil
	case p.HookName == "":
		return req, host.Malformed("it names no hookName")
	default:
		return req, nil
	}
	req.Tool = tool
	if tool == "" {
		return req, host.Malformed("it names no tool")
	}
	calls, err := Calls(tool, input)
	if err != nil {
		return req, err
	}
	for i := range calls {
		calls[i].ID, calls[i].Cwd = id, cwd
	}
	req.Calls = calls
	return req, nil
}

// Calls maps a Cline tool call onto toolwall's.
func Calls(tool string, input json.RawMessage) ([]toolwall.Call, error) {
	var bare string
	if json.Unmarshal(input, &bare) == nil && tool == "run_commands" {
		return []toolwall.Call{host.ShellCall(bare, false)}, nil
	}
	f, ok := host.ParseFields(input)
	if !ok {
		f = host.Fields{}
	}
	file, _ := f.Str("path", "file_path", "absolutePath")
	switch tool {
	case "execute_command", "run_commands":
		cmds := f.Strs("commands", "command", "cmd")
		if len(cmds) == 0 {
			return nil, host.Malformed(tool + " has no command")
		}
		var out []toolwall.Call
		for _, c := range cmds {
			out = append(out, host.ShellCall(c, false))
		}
		return out, nil
	case "write_to_file", "write_file":
		content, _ := f.Str("content", "text")
		return []toolwall.Call{host.WriteCall(file, content)}, nil
	case "replace_in_file":
		diff, _ := f.Str("diff")
		old, new := searchReplace(diff)
		return []toolwall.Call{host.EditCall(file, old, new)}, nil
	case "editor":
		old, _ := f.Str("old_text", "old_str")
		new, _ := f.Str("new_text", "new_str", "text")
		if old == "" {
			if _, insert := f["insert_line"]; !insert {
				return []toolwall.Call{host.WriteCall(file, new)}, nil
			}
		}
		return []toolwall.Call{host.EditCall(file, old, new)}, nil
	case "read_file":
		return []toolwall.Call{host.ReadCall(file)}, nil
	case "read_files":
		var in struct {
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
		}
		_ = json.Unmarshal(f.Raw(), &in)
		var out []toolwall.Call
		for _, x := range in.Files {
			out = append(out, host.ReadCall(x.Path))
		}
		if len(out) > 0 {
			return out, nil
		}
	case "web_fetch":
		u, _ := f.Str("url")
		return []toolwall.Call{host.FetchCall(u)}, nil
	case "fetch_web_content":
		var in struct {
			Requests []struct {
				URL string `json:"url"`
			} `json:"requests"`
		}
		_ = json.Unmarshal(f.Raw(), &in)
		var out []toolwall.Call
		for _, r := range in.Requests {
			out = append(out, host.FetchCall(r.URL))
		}
		if len(out) > 0 {
			return out, nil
		}
	case "apply_patch":
		text, ok := f.Str("input", "patch", "diff")
		if !ok {
			return nil, host.Malformed("apply_patch has no patch text")
		}
		cs, ok := host.PatchCalls(text, "")
		if !ok {
			return nil, host.Malformed("the patch names no file")
		}
		return cs, nil
	case "use_mcp_tool":
		server, _ := f.Str("server_name")
		name, _ := f.Str("tool_name")
		args, _ := f.Str("arguments")
		return []toolwall.Call{host.RawCall(host.MCPName(server, name), json.RawMessage(args))}, nil
	}
	return []toolwall.Call{host.RawCall(tool, f.Raw())}, nil
}

// searchReplace reads Cline's SEARCH/REPLACE diff blocks into the text
// replaced and the text put in its place.
func searchReplace(diff string) (old, new string) {
	var o, n strings.Builder
	state := 0
	for _, line := range strings.Split(diff, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "------- SEARCH"), strings.HasPrefix(t, "<<<<<<< SEARCH"):
			state = 1
		case t == "=======" && state == 1:
			state = 2
		case strings.HasPrefix(t, "+++++++ REPLACE"), strings.HasPrefix(t, ">>>>>>> REPLACE"):
			state = 0
		case state == 1:
			o.WriteString(line + "\n")
		case state == 2:
			n.WriteString(line + "\n")
		}
	}
	if o.Len() == 0 && n.Len() == 0 {
		return "", diff
	}
	return o.String(), n.String()
}

// Encode prints {"cancel":true,"errorMessage":…} to block and
// {"cancel":false} otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	var v any = map[string]bool{"cancel": false}
	if a.Event == host.PreToolUse && a.Action != toolwall.Allow {
		v = struct {
			Cancel       bool   `json:"cancel"`
			ErrorMessage string `json:"errorMessage"`
		}{true, a.Reason}
	}
	b, _ := json.Marshal(v)
	return host.Response{Stdout: string(b) + "\n"}
}
