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
		ID      string          `json:"id"`
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		Error   json.RawMessage `json:"error"`
		IsError bool            `json:"isError"`
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
	// encoded: the extension's parameter record (every value a string);
	// the CLI's tool_call and tool_result carry the input as it is.
	encoded := false
	switch {
	case p.HookName == "PreToolUse" || p.HookName == "" && p.PreToolUse != nil:
		if p.PreToolUse == nil {
			return req, host.Malformed("PreToolUse has no preToolUse object")
		}
		req.Event, tool, input, encoded = host.PreToolUse, p.PreToolUse.ToolName, p.PreToolUse.Parameters, true
	case p.HookName == "PostToolUse":
		if p.PostToolUse == nil {
			return req, nil
		}
		req.Event, tool, input, encoded = host.PostToolUse, p.PostToolUse.ToolName, p.PostToolUse.Parameters, true
		if p.PostToolUse.Success != nil && !*p.PostToolUse.Success {
			req.Event = host.PostToolUseFailure
		}
	case p.HookName == "tool_call":
		if p.ToolCall == nil {
			return req, host.Malformed("tool_call has no tool_call object")
		}
		req.Event, tool, input, id = host.PreToolUse, p.ToolCall.Name, p.ToolCall.Input, p.ToolCall.ID
		req.Once = id // the CLI runs the hook of each directory it finds: one call, two events
	case p.HookName == "tool_result":
		if p.ToolResult == nil {
			return req, nil
		}
		req.Event, tool, input, id = host.PostToolUse, p.ToolResult.Name, p.ToolResult.Input, p.ToolResult.ID
		req.Once = id
		if e := strings.TrimSpace(string(p.ToolResult.Error)); p.ToolResult.IsError || e != "" && e != "null" && e != `""` {
			req.Event = host.PostToolUseFailure
		}
	case p.HookName == "UserPromptSubmit", p.HookName == "prompt_submit", p.HookName == "user_prompt_submit", p.HookName == "" && p.UserPromptSubmit != nil:
		req.Event = host.PromptSubmit
		return req, nil
	case p.HookName == "":
		return req, host.Malformed("it names no hookName")
	default:
		return req, nil
	}
	req.Tool = tool
	pre := req.Event == host.PreToolUse
	if tool == "" {
		if !pre {
			return req, nil
		}
		return req, host.Malformed("it names no tool")
	}
	calls, err := Calls(tool, input, encoded)
	if err != nil {
		if pre {
			return req, err
		}
		// A report of a call that ran is recorded as it came: answering
		// it with a refusal would stop Cline's task after the fact.
		calls = []toolwall.Call{host.RawCall(tool, input)}
	}
	for i := range calls {
		calls[i].ID, calls[i].Cwd = id, cwd
	}
	req.Calls = calls
	return req, nil
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

// Stops is said after every refusal: Cline has no refusal of one call
// for hook files, its cancel ends the task's run (see the package
// documentation).
const Stops = "Cline stops the whole task on a hook's refusal, not only this call: none of the tool calls of this step run, and the task waits until the user continues it."

// Encode prints {"cancel":true,"errorMessage":…} to block (the reason,
// then Stops) and {"cancel":false} otherwise; it always exits 0. Only a
// PreToolUse event is ever cancelled: a cancel after a call ran would
// stop the task for nothing.
func (Adapter) Encode(a host.Answer) host.Response {
	var v any = map[string]bool{"cancel": false}
	if a.Event == host.PreToolUse && a.Action != toolwall.Allow {
		v = struct {
			Cancel       bool   `json:"cancel"`
			ErrorMessage string `json:"errorMessage"`
		}{true, a.Reason + " " + Stops}
	}
	b, _ := json.Marshal(v)
	return host.Response{Stdout: string(b) + "\n"}
}
