package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/mcpargs"
)

// Event is what a host reports in one hook call.
type Event uint8

// Events a hook handles.
const (
	// Ignored is an event toolwall has nothing to do for (a session start,
	// a notification); the adapter's acknowledgement is still written.
	Ignored Event = iota
	// PreToolUse asks for a decision on Request.Calls.
	PreToolUse
	// PostToolUse reports that Request.Calls ran and succeeded.
	PostToolUse
	// PostToolUseFailure reports that Request.Calls ran and failed.
	PostToolUseFailure
	// PromptSubmit reports a new user prompt: the session's next turn.
	PromptSubmit
)

var eventNames = [...]string{"ignored", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PromptSubmit"}

// String returns the event's name.
func (e Event) String() string {
	if int(e) < len(eventNames) {
		return eventNames[e]
	}
	return "event"
}

// Request is one decoded payload.
type Request struct {
	Event Event
	// Calls are the tool calls of the event, in toolwall's shapes (see
	// the package documentation), with Session, ID, Cwd and Caller set
	// from the payload. A host's single tool call may be several calls
	// here (a patch that writes three files, a shell tool given a list of
	// commands); the answer is the strictest verdict over all of them.
	// Project and Home are filled by the Hook.
	Calls []toolwall.Call
	// Session is the host's session id ("" when it gives none: then there
	// is no session memory).
	Session string
	// Project is the project root the payload names (a workspace root);
	// "" lets the Hook use its ProjectDir, else the call's cwd.
	Project string
	// Prompted says a human sees the host's prompt when toolwall asks
	// (false in a host's modes that run or refuse calls unattended):
	// only then is a later report that the call ran taken as approval.
	Prompted bool
	// Outcome is what happened to the call (post events; its Success is
	// set by the Hook from the event).
	Outcome audit.Outcome
	// Tool is the host's own name for the tool, for logs.
	Tool string
	// Shape is the adapter's note on the payload's shape, handed back in
	// the Answer (a host with two payload shapes answers each in its own).
	Shape string
	// Once names the call across the events a host sends for it, where
	// a host sends one call more than once (an event for every tool and
	// one for its shell; two copies of a hook it finds in two places):
	// events of a session with the same Once and the same calls are one
	// call, decided and counted once (see Hook.Decisions). "" decides
	// every event.
	Once string
}

// Answer is what the Hook tells the host.
type Answer struct {
	// Event is the event answered.
	Event Event
	// Action is Allow, Ask or Deny (a warn is answered as Allow). An
	// adapter whose Caps say it cannot ask never gets Ask.
	Action toolwall.Action
	// Reason is the text for the model and the human ("" for Allow).
	Reason string
	// Shape is the Request's Shape ("" for a payload that could not be
	// read).
	Shape string
}

// Response is the hook process's output: stdout, stderr and exit status.
type Response struct {
	Stdout string
	Stderr string
	Exit   int
}

// Caps are what a host's hook protocol can do.
type Caps struct {
	// Ask: the host shows a human prompt for an ask. Without it, an ask is
	// answered as a deny whose reason says a human must run the call.
	Ask bool
	// Post: the host reports the calls that ran (a post-tool event is
	// installed). Without it, an allowed call is remembered as run when it
	// is decided, so chain rules still see it.
	Post bool
	// StderrReason: the host reads a refusal's reason from the hook's
	// standard error and shows it to the model (Windsurf, Kiro), so the
	// hook logs nothing else there.
	StderrReason bool
}

// Adapter is one host's protocol: decoding its payloads and encoding
// answers. It holds no rules.
type Adapter interface {
	// Name is the host's name on the command line ("claude-code", "codex").
	Name() string
	// Caps are the host protocol's capabilities.
	Caps() Caps
	// ProjectEnv names the environment variable the host sets to the
	// project root for its hooks ("" when it sets none).
	ProjectEnv() string
	// Decode reads one payload. An error means the payload cannot be
	// read: the Hook refuses the call.
	Decode(payload []byte) (Request, error)
	// Encode writes an answer in the host's contract.
	Encode(a Answer) Response
}

// DecodeError is a payload an adapter cannot read.
type DecodeError struct{ Msg string }

// Error returns the message.
func (e *DecodeError) Error() string { return e.Msg }

// Malformed returns a *DecodeError with msg.
func Malformed(msg string) error { return &DecodeError{Msg: msg} }

// ShellCall returns a call of the shell tool running command: Bash, or
// PowerShell when powershell is set.
func ShellCall(command string, powershell bool) toolwall.Call {
	c := toolwall.NewBashCall(command)
	if powershell {
		c.Tool = toolwall.ToolPowerShell
	}
	return c
}

// WriteCall returns a Write of content to file.
func WriteCall(file, content string) toolwall.Call {
	return object(toolwall.ToolWrite, "file_path", file, "content", content)
}

// EditCall returns an Edit of file replacing old with new.
func EditCall(file, old, new string) toolwall.Call {
	return object(toolwall.ToolEdit, "file_path", file, "old_string", old, "new_string", new)
}

// ReadCall returns a Read of file.
func ReadCall(file string) toolwall.Call { return object(toolwall.ToolRead, "file_path", file) }

// FetchCall returns a WebFetch of url.
func FetchCall(url string) toolwall.Call { return object(toolwall.ToolWebFetch, "url", url) }

// mcpPrefix starts the toolwall name of every MCP tool.
const mcpPrefix = "mcp__"

// MCPName returns the toolwall name of an MCP tool: mcp__server__tool
// (Claude Code's spelling), or mcp__tool when the server is unknown.
// The Hook judges the arguments of every call so named by what they
// would do (see [MCPCall]).
func MCPName(server, tool string) string {
	if server == "" {
		return mcpPrefix + tool
	}
	return mcpPrefix + server + "__" + tool
}

// MCPTool splits the toolwall name of an MCP tool into its server (""
// when unknown) and the tool's own name; ok is false for a name that is
// not an MCP tool's.
func MCPTool(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, mcpPrefix)
	if !ok || rest == "" {
		return "", "", false
	}
	if server, tool, two := strings.Cut(rest, "__"); two && server != "" && tool != "" {
		return server, tool, true
	}
	return "", rest, true
}

// MCPCall returns a call of an MCP tool of server ("" when the host
// does not say) with its arguments as sent; arguments sent as a JSON
// string holding the object are read as that object. The Hook maps the
// arguments onto the calls toolwall judges (package mcpargs), as the MCP
// proxy does, and refuses arguments that are not a JSON object.
func MCPCall(server, tool string, args json.RawMessage) toolwall.Call {
	var s string
	if json.Unmarshal(args, &s) == nil {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") {
			args = json.RawMessage(t)
		}
	}
	return toolwall.Call{Tool: MCPName(server, tool), Input: args}
}

// RawCall returns a call of tool with input as it came (an MCP tool, a
// tool toolwall does not judge); input that is not a JSON object is
// wrapped as {"input": …} so the gate's field readers see an object.
func RawCall(tool string, input json.RawMessage) toolwall.Call {
	in := input
	if t := strings.TrimSpace(string(in)); !strings.HasPrefix(t, "{") {
		if t == "" || !json.Valid(in) {
			b, _ := json.Marshal(map[string]string{"input": string(input)})
			in = b
		} else {
			b, _ := json.Marshal(map[string]json.RawMessage{"input": in})
			in = b
		}
	}
	return toolwall.Call{Tool: tool, Input: in}
}

// MCPCalls returns calls with, after each MCP call (see MCPCall), the
// calls its arguments map onto (package mcpargs: a command is a Bash
// call, a path written a Write, …), in the MCP call's places, so that
// they meet the analysis the host's own tools meet; the MCP call itself
// stays, for the rules and scopes that name MCP tools, unless ran says
// the calls ran (a report after the fact): then it is remembered as the
// calls it maps onto only. The calls need their Cwd (else Project) and
// Home. unread is the error of arguments
// that cannot be read (not a JSON object, too deep, a key given twice):
// the call is refused then (see MCPUnread). A key decoders read
// differently at the top level is left to the gate, which refuses it
// under its own rule, as for any tool.
func MCPCalls(calls []toolwall.Call, ran bool) (out []toolwall.Call, unread error) {
	for i, c := range calls {
		_, tool, ok := MCPTool(c.Tool)
		if !ok {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		if out == nil {
			out = append(make([]toolwall.Call, 0, len(calls)+2), calls[:i]...)
		}
		out = append(out, c)
		cwd := c.Cwd
		if cwd == "" {
			cwd = c.Project
		}
		mapped, err := mcpargs.Calls(tool, c.Input, mcpargs.Places{Cwd: cwd, Home: c.Home})
		if err != nil {
			unread = errors.Join(unread, err)
			continue
		}
		if ran && len(mapped) > 0 {
			// What ran is what the arguments do: the MCP call itself has
			// nothing to remember, and its id would commit the record a
			// mapped call left when it was judged.
			out = out[:len(out)-1]
		}
		for _, m := range mapped {
			n := c // the session, id, caller and places of the MCP call
			n.Tool, n.Input = m.Tool, m.Input
			if m.Cwd != "" {
				n.Cwd = m.Cwd
			}
			out = append(out, n)
		}
	}
	if out == nil {
		return calls, nil
	}
	return out, unread
}

// Judge decides one tool call as a hook does, for a caller outside a
// hook (toolwall check, toolwall eval): an MCP call with the calls its
// arguments map onto (MCPCalls), the strictest verdict of them deciding
// (the first of equals); arguments that cannot be read are refused.
func Judge(ctx context.Context, sh toolwall.Shield, call toolwall.Call) toolwall.Verdict {
	if isWindowsPath(call.Cwd) || isWindowsPath(call.Project) {
		call = windowsCall(call) // as a hook reads a Windows host's call
	}
	calls, err := MCPCalls([]toolwall.Call{call}, false)
	if err != nil {
		return toolwall.Refusal("hook", toolwall.RuleMalformed, MCPUnread(call.Tool, err))
	}
	var v toolwall.Verdict
	for i, c := range calls {
		if cv := sh.Evaluate(ctx, c); i == 0 || toolwall.Stricter(v.Action, cv.Action) != v.Action {
			v = cv
		}
	}
	return v
}

// MCPUnread is the reason an MCP call whose arguments cannot be read
// (err, from MCPCalls) is refused for.
func MCPUnread(tool string, err error) string {
	return fmt.Sprintf("The arguments of the MCP tool call %s cannot be read (%v), so toolwall cannot tell what it would do; it is refused. Send the arguments as a JSON object.", tool, err)
}

// object builds a call of tool whose input holds the string fields kv
// (name, value, name, value, …).
func object(tool string, kv ...string) toolwall.Call {
	m := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return toolwall.Call{Tool: tool, Input: b}
}
