package cursor

import (
	"encoding/json"
	"runtime"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Cursor protocol.
type Adapter struct{}

// Name returns "cursor".
func (Adapter) Name() string { return "cursor" }

// Caps: Cursor cannot be relied on to ask; it reports executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true} }

// ProjectEnv returns "CURSOR_PROJECT_DIR".
func (Adapter) ProjectEnv() string { return "CURSOR_PROJECT_DIR" }

type payload struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID string          `json:"conversation_id"`
	GenerationID   string          `json:"generation_id"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	Cwd            string          `json:"cwd"`
	Command        string          `json:"command"`
	FilePath       string          `json:"file_path"`
	URL            string          `json:"url"`
	ToolOutput     json.RawMessage `json:"tool_output"`
	ExitCode       *int            `json:"exit_code"`
	Prompt         string          `json:"prompt"`
}

// Decode reads a Cursor payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	// Cursor sends a shell command in preToolUse and beforeShellExecution,
	// an MCP call in preToolUse and beforeMCPExecution, a read in
	// preToolUse and beforeReadFile, a run in postToolUse and
	// afterShellExecution: within one generation, the same call is one.
	req := host.Request{Session: p.ConversationID, Tool: p.ToolName, Prompted: true, Once: p.GenerationID}
	if len(p.WorkspaceRoots) > 0 {
		req.Project = p.WorkspaceRoots[0]
	}
	cwd := p.Cwd
	if cwd == "" {
		cwd = req.Project
	}
	ps := runtime.GOOS == "windows"
	switch p.HookEventName {
	case "beforeShellExecution", "afterShellExecution":
		req.Event, req.Tool = host.PreToolUse, "beforeShellExecution"
		if p.HookEventName == "afterShellExecution" {
			req.Event = host.PostToolUse
			if p.ExitCode != nil && *p.ExitCode != 0 {
				req.Event = host.PostToolUseFailure
			}
		}
		if p.Command == "" && req.Event == host.PreToolUse {
			return req, host.Malformed("beforeShellExecution has no command")
		}
		c := host.ShellCall(p.Command, ps)
		c.Cwd = cwd
		req.Calls = []toolwall.Call{c}
	case "beforeReadFile":
		req.Event, req.Tool = host.PreToolUse, "beforeReadFile"
		if p.FilePath == "" {
			return req, host.Malformed("beforeReadFile has no file_path")
		}
		c := host.ReadCall(p.FilePath)
		c.Cwd = cwd
		req.Calls = []toolwall.Call{c}
	case "beforeMCPExecution", "afterMCPExecution":
		req.Event = host.PreToolUse
		if p.HookEventName == "afterMCPExecution" {
			req.Event = host.PostToolUse
		}
		if p.ToolName == "" {
			return req, host.Malformed("beforeMCPExecution has no tool_name")
		}
		c := mcpCall(p.ToolName, p.ToolInput)
		c.Cwd = cwd
		req.Calls = []toolwall.Call{c}
	case "preToolUse", "postToolUse", "postToolUseFailure":
		req.Event = map[string]host.Event{"preToolUse": host.PreToolUse, "postToolUse": host.PostToolUse, "postToolUseFailure": host.PostToolUseFailure}[p.HookEventName]
		if p.ToolName == "" {
			return req, host.Malformed("preToolUse has no tool_name")
		}
		c, err := call(p.ToolName, p.ToolInput, ps)
		if err != nil {
			return req, err
		}
		if c.Cwd == "" {
			c.Cwd = cwd
		}
		c.ID = p.ToolUseID
		req.Calls = []toolwall.Call{c}
	case "beforeSubmitPrompt":
		req.Event = host.PromptSubmit
	case "":
		return req, host.Malformed("it names no hook_event_name")
	}
	return req, nil
}

// call maps a preToolUse tool onto toolwall's.
func call(tool string, input json.RawMessage, powershell bool) (toolwall.Call, error) {
	f, ok := host.ParseFields(input)
	if !ok {
		f = host.Fields{}
	}
	file, _ := f.Str("file_path", "path", "target_file", "filePath")
	needFile := func() error {
		if file == "" {
			return host.Malformed("Cursor's " + tool + " tool_input names no file_path")
		}
		return nil
	}
	switch strings.ToLower(tool) {
	case "shell", "terminal", "run_terminal_cmd":
		cmd, ok := f.Str("command")
		if !ok {
			return toolwall.Call{}, host.Malformed("the Shell tool_input has no command")
		}
		c := host.ShellCall(cmd, powershell || host.IsPowerShell(tool))
		c.Cwd, _ = f.Str("working_directory", "cwd")
		return c, nil
	case "read", "read_file":
		return host.ReadCall(file), needFile()
	case "write", "create":
		content, _ := f.Str("contents", "content", "file_text")
		return host.WriteCall(file, content), needFile()
	case "edit", "strreplace", "str_replace", "search_replace":
		old, _ := f.Str("old_string", "old_str", "oldString")
		new, _ := f.Str("new_string", "new_str", "newString")
		return host.EditCall(file, old, new), needFile()
	case "delete", "delete_file":
		return host.ShellCall("rm -f -- "+host.Quote(file), false), needFile()
	}
	if strings.HasPrefix(tool, "MCP:") {
		return mcpCall(tool, input), nil
	}
	// A tool toolwall does not know goes on under its name, unless it
	// carries a command: what that would run cannot be told.
	if k, ok := f.CommandKey(); ok {
		return toolwall.Call{}, host.Malformed("Cursor's tool " + tool + " is not one toolwall knows, and its " + k + " argument looks like a command to run")
	}
	return host.RawCall(tool, input), nil
}

// mcpCall reads an MCP tool's name as Cursor spells it: "MCP:server:tool"
// or "MCP:tool" in preToolUse, the same or the bare tool name in
// beforeMCPExecution.
func mcpCall(name string, input json.RawMessage) toolwall.Call {
	name = strings.TrimPrefix(name, "MCP:")
	if server, tool, ok := strings.Cut(name, ":"); ok && server != "" && tool != "" {
		return host.MCPCall(server, tool, input)
	}
	return host.MCPCall("", name, input)
}

// Encode prints {"permission":…} for every decision (allow included:
// failClosed blocks on output that is not JSON), {"continue":true} for a
// prompt and {} for other events; it always exits 0. beforeReadFile
// honours only "permission" (Cursor's hooks reference); the messages
// ride along for the hosts that show them.
func (Adapter) Encode(a host.Answer) host.Response {
	var v any
	switch {
	case a.Event == host.PromptSubmit:
		v = map[string]bool{"continue": true}
	case a.Event != host.PreToolUse:
		v = struct{}{}
	case a.Action == toolwall.Allow:
		v = map[string]string{"permission": "allow"}
	default:
		v = map[string]string{"permission": a.Action.String(), "user_message": a.Reason, "agent_message": a.Reason}
	}
	b, _ := json.Marshal(v)
	return host.Response{Stdout: string(b) + "\n"}
}
