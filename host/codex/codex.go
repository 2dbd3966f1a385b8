package codex

import (
	"encoding/json"
	"runtime"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
)

// Adapter is the Codex protocol.
type Adapter struct{}

// Name returns "codex".
func (Adapter) Name() string { return "codex" }

// Caps: Codex cannot ask; it reports executed calls (PostToolUse).
func (Adapter) Caps() host.Caps { return host.Caps{Ask: false, Post: true} }

// ProjectEnv returns "": Codex sets no project variable.
func (Adapter) ProjectEnv() string { return "" }

// Decode reads a Codex payload.
func (Adapter) Decode(b []byte) (host.Request, error) {
	var p claudecode.Payload
	if err := claudecode.Unmarshal(b, &p); err != nil {
		return host.Request{}, err
	}
	req, err := p.Request(func(c toolwall.Call) toolwall.Call { return c })
	if err != nil || len(req.Calls) != 1 {
		return req, err
	}
	c := req.Calls[0]
	switch c.Tool {
	case "Bash", "shell", "exec_command", "local_shell", "unified_exec":
		cmd, ok := command(c.Input)
		if !ok {
			return req, host.Malformed("the shell tool_input has no command")
		}
		n := host.ShellCall(cmd, runtime.GOOS == "windows")
		n.ID, n.Cwd, n.Caller = c.ID, c.Cwd, c.Caller
		req.Calls[0] = n
	case "apply_patch", "Write", "Edit":
		text, ok := command(c.Input)
		if !ok {
			return req, host.Malformed("the apply_patch tool_input has no patch text")
		}
		calls, ok := host.PatchCalls(text, c.Cwd)
		if !ok {
			return req, host.Malformed("the apply_patch text names no file (no *** Add/Update/Delete File header)")
		}
		for i := range calls {
			calls[i].ID, calls[i].Cwd, calls[i].Caller = c.ID, c.Cwd, c.Caller
		}
		req.Calls = calls
	}
	return req, nil
}

// command reads tool_input.command: a string, or an argv array joined as
// the shell would see it (older Codex shell tools send ["bash","-lc",…]).
func command(in json.RawMessage) (string, bool) {
	var m struct {
		Command json.RawMessage `json:"command"`
		Patch   string          `json:"patch"`
		Input   string          `json:"input"`
	}
	if json.Unmarshal(in, &m) != nil {
		return "", false
	}
	var s string
	if json.Unmarshal(m.Command, &s) == nil {
		return s, true
	}
	var argv []string
	if json.Unmarshal(m.Command, &argv) == nil && len(argv) > 0 {
		return host.JoinArgv(argv), true
	}
	for _, s := range []string{m.Patch, m.Input} {
		if s != "" {
			return s, true
		}
	}
	return "", false
}

// Encode prints the exact deny object for a deny (PreToolUse) and
// nothing otherwise; it always exits 0.
func (Adapter) Encode(a host.Answer) host.Response {
	if a.Event != host.PreToolUse || a.Action != toolwall.Deny {
		return host.Response{}
	}
	return host.Response{Stdout: claudecode.Decision(toolwall.Deny, a.Reason)}
}
