package windsurf

import (
	"encoding/json"
	"runtime"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Windsurf protocol.
type Adapter struct{}

// Name returns "windsurf".
func (Adapter) Name() string { return "windsurf" }

// Caps: no ask; post_ events report executed calls.
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true, StderrReason: true} }

// ProjectEnv returns "": Windsurf sets no project variable.
func (Adapter) ProjectEnv() string { return "" }

type payload struct {
	AgentActionName string `json:"agent_action_name"`
	TrajectoryID    string `json:"trajectory_id"`
	ExecutionID     string `json:"execution_id"`
	ToolInfo        struct {
		CommandLine      string          `json:"command_line"`
		Cwd              string          `json:"cwd"`
		FilePath         string          `json:"file_path"`
		Edits            json.RawMessage `json:"edits"`
		MCPServerName    string          `json:"mcp_server_name"`
		MCPToolName      string          `json:"mcp_tool_name"`
		MCPToolArguments json.RawMessage `json:"mcp_tool_arguments"`
	} `json:"tool_info"`
}

// Decode reads a Windsurf payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req := host.Request{Session: p.TrajectoryID, Tool: p.AgentActionName}
	t := p.ToolInfo
	var c toolwall.Call
	switch p.AgentActionName {
	case "pre_run_command", "post_run_command":
		if t.CommandLine == "" && p.AgentActionName == "pre_run_command" {
			return req, host.Malformed("pre_run_command has no command_line")
		}
		c = host.ShellCall(t.CommandLine, runtime.GOOS == "windows")
	case "pre_write_code", "post_write_code":
		if t.FilePath == "" && p.AgentActionName == "pre_write_code" {
			return req, host.Malformed("pre_write_code has no file_path")
		}
		var edits []struct {
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		}
		_ = json.Unmarshal(t.Edits, &edits)
		switch {
		case len(edits) == 1 && edits[0].OldString == "":
			c = host.WriteCall(t.FilePath, edits[0].NewString)
		default:
			in, _ := json.Marshal(map[string]any{"file_path": t.FilePath, "edits": edits})
			c = toolwall.Call{Tool: toolwall.ToolMultiEdit, Input: in}
		}
	case "pre_read_code", "post_read_code":
		if t.FilePath == "" && p.AgentActionName == "pre_read_code" {
			return req, host.Malformed("pre_read_code has no file_path")
		}
		c = host.ReadCall(t.FilePath)
	case "pre_mcp_tool_use", "post_mcp_tool_use":
		if t.MCPToolName == "" && p.AgentActionName == "pre_mcp_tool_use" {
			return req, host.Malformed("pre_mcp_tool_use has no mcp_tool_name")
		}
		c = host.MCPCall(t.MCPServerName, t.MCPToolName, t.MCPToolArguments)
	case "pre_user_prompt":
		req.Event = host.PromptSubmit
		return req, nil
	case "":
		return req, host.Malformed("it names no agent_action_name")
	default:
		return req, nil
	}
	req.Event = host.PreToolUse
	if p.AgentActionName[:4] == "post" {
		req.Event = host.PostToolUse
	}
	c.Cwd = t.Cwd
	c.ID = p.ExecutionID
	req.Calls = []toolwall.Call{c}
	return req, nil
}

// Encode exits 2 with the reason on stderr to block; it exits 0 with no
// output otherwise.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action == toolwall.Allow {
		return host.Response{}
	}
	return host.Response{Stderr: a.Reason + "\n", Exit: 2}
}
