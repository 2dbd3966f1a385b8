package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host/view"
)

// mcpHookCase is one line of testdata/mcp-hooks.jsonl: a host's payload
// of an MCP tool call, as the host sends it to the hook command the
// install writes (toolwall hook HOST), and the answer the host must read.
type mcpHookCase struct {
	Host    string          `json:"host"`
	Name    string          `json:"name"`
	Payload json.RawMessage `json:"payload"`
	Action  string          `json:"action"`
	Rule    string          `json:"rule"`
}

// TestMCPThroughHooks sends every host's MCP tool calls through the real
// binary: an MCP server's write of ~/.ssh/authorized_keys is refused in
// the host's own answer shape, as the same call through the MCP proxy
// is (one mapping of the arguments, package mcpargs); arguments that are
// not an object are refused; a read in the project is allowed.
func TestMCPThroughHooks(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "mcp-hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := hookEnv(t)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c mcpHookCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		t.Run(c.Host+"/"+c.Name, func(t *testing.T) {
			r := runHost(t, env, []string{"hook", c.Host}, c.Payload)
			got := view.For(c.Host)(r, true)
			want, err := toolwall.ParseAction(c.Action)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Valid || got.Action != want || !strings.Contains(got.Reason, c.Rule) {
				t.Errorf("the host reads %+v from %+v, want %s [%s]", got, r, c.Action, c.Rule)
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestMCPRemembered: an MCP call that ran is remembered as what its
// arguments did: a filesystem server's write of a script that deletes
// the home directory, then running it, is the write-then-run chain, as
// with the host's own Write tool.
func TestMCPRemembered(t *testing.T) {
	env := hookEnv(t)
	write := map[string]any{"session_id": "s-mcp-chain", "cwd": "/workspace/app", "tool_name": "mcp__filesystem__write_file",
		"tool_input": map[string]any{"path": "clean.sh", "content": "#!/bin/sh\nrm -rf ~\n"}, "tool_use_id": "toolu_w"}
	write["hook_event_name"] = "PreToolUse"
	if d := decision(t, runHook(t, env, write)); d.PermissionDecision != "allow" {
		t.Fatalf("the write: %+v, want allow", d)
	}
	write["hook_event_name"], write["tool_response"] = "PostToolUse", map[string]any{}
	runHook(t, env, write)
	d := decision(t, runHook(t, env, pre("s-mcp-chain", "bash clean.sh")))
	if d.PermissionDecision == "allow" || !strings.Contains(d.PermissionDecisionReason, "chain.destructive-script") {
		t.Errorf("running the script an MCP tool wrote: %+v, want a stop by chain.destructive-script", d)
	}
}
