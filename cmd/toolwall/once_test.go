package main

import (
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host/view"
)

// TestOneCallOneDecision: a host that sends one call in two events gets
// one decision. Cursor's preToolUse and beforeShellExecution for the
// same command of a generation, and the Cline CLI's two installed
// PreToolUse hooks for the same tool call, get the same answer, the
// second without chain.repeated-refusal (the call was not counted as a
// second attempt); the same command in another generation, or another
// tool call, is a new attempt, and is counted.
func TestOneCallOneDecision(t *testing.T) {
	cases := []struct {
		host        string
		first, same []byte
		another     []byte
	}{
		{
			host:    "cursor",
			first:   []byte(`{"hook_event_name":"preToolUse","conversation_id":"c1","generation_id":"g1","workspace_roots":["/workspace/app"],"tool_name":"Shell","tool_input":{"command":"rm -rf ~","working_directory":"/workspace/app"},"tool_use_id":"tu1","cwd":"/workspace/app"}`),
			same:    []byte(`{"hook_event_name":"beforeShellExecution","conversation_id":"c1","generation_id":"g1","workspace_roots":["/workspace/app"],"command":"rm -rf ~","cwd":"/workspace/app"}`),
			another: []byte(`{"hook_event_name":"beforeShellExecution","conversation_id":"c1","generation_id":"g2","workspace_roots":["/workspace/app"],"command":"rm -rf ~","cwd":"/workspace/app"}`),
		},
		{
			host:    "cursor",
			first:   []byte(`{"hook_event_name":"preToolUse","conversation_id":"c2","generation_id":"g1","workspace_roots":["/workspace/app"],"tool_name":"MCP:write_file","tool_input":{"path":"~/.ssh/authorized_keys","content":"ssh-ed25519 AAAA x"},"tool_use_id":"tu1"}`),
			same:    []byte(`{"hook_event_name":"beforeMCPExecution","conversation_id":"c2","generation_id":"g1","workspace_roots":["/workspace/app"],"tool_name":"write_file","tool_input":"{\"path\": \"~/.ssh/authorized_keys\", \"content\": \"ssh-ed25519 AAAA x\"}","command":"npx"}`),
			another: []byte(`{"hook_event_name":"beforeMCPExecution","conversation_id":"c2","generation_id":"g2","workspace_roots":["/workspace/app"],"tool_name":"write_file","tool_input":{"path":"~/.ssh/authorized_keys","content":"ssh-ed25519 AAAA x"},"command":"npx"}`),
		},
		{
			host:    "cline",
			first:   []byte(`{"hookName":"tool_call","taskId":"task1","workspaceRoots":["/workspace/app"],"tool_call":{"id":"tc1","name":"run_commands","input":{"commands":["rm -rf ~"]}}}`),
			same:    []byte(`{"hookName":"tool_call","taskId":"task1","workspaceRoots":["/workspace/app"],"tool_call":{"id":"tc1","name":"run_commands","input":{"commands":["rm -rf ~"]}}}`),
			another: []byte(`{"hookName":"tool_call","taskId":"task1","workspaceRoots":["/workspace/app"],"tool_call":{"id":"tc2","name":"run_commands","input":{"commands":["rm -rf ~"]}}}`),
		},
	}
	env := hookEnv(t)
	for _, c := range cases {
		read := view.For(c.host)
		first := runHost(t, env, []string{"hook", c.host}, c.first)
		same := runHost(t, env, []string{"hook", c.host}, c.same)
		a, b := read(first, true), read(same, true)
		if a.Action != toolwall.Deny || b.Action != toolwall.Deny {
			t.Fatalf("%s: %+v then %+v, want deny twice", c.host, a, b)
		}
		if a.Reason != b.Reason {
			t.Errorf("%s: the second event of the call got another decision:\n%s\n%s", c.host, a.Reason, b.Reason)
		}
		if strings.Contains(b.Reason, "chain.repeated-refusal") {
			t.Errorf("%s: the second event of the call counted as a repeated attempt: %s", c.host, b.Reason)
		}
		if got := read(runHost(t, env, []string{"hook", c.host}, c.another), true); !strings.Contains(got.Reason, "chain.repeated-refusal") {
			t.Errorf("%s: another attempt is not counted: %+v", c.host, got)
		}
	}
}
