package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
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

// TestOpenCodePluginMCP: the OpenCode plugin the install writes, run
// under node, blocks an MCP server's write of ~/.ssh/authorized_keys
// (OpenCode names the tool <server>_<tool>) and lets a read in the
// project through.
func TestOpenCodePluginMCP(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	home := t.TempDir()
	if out, code := toolwallIn(t, home, home, "install", "opencode", "--binary", bin); code != 0 {
		t.Fatal(out)
	}
	src, err := os.ReadFile(filepath.Join(home, ".config/opencode/plugin/toolwall.js"))
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(t.TempDir(), "plugin.mjs")
	if err := os.WriteFile(plugin, src, 0o600); err != nil {
		t.Fatal(err)
	}
	const harness = `const [plugin, dir, tool, args] = process.argv.slice(1);
const m = await import("file://" + plugin);
const hooks = await m.Toolwall({ directory: dir, worktree: dir });
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "ses_mcp", callID: "call_" + tool }, { args: JSON.parse(args) });
  process.stdout.write("allow\n");
} catch (e) { process.stdout.write("deny " + String(e && e.message) + "\n"); }
`
	for _, c := range []struct{ tool, args, want string }{
		{"filesystem_write_file", `{"path":"~/.ssh/authorized_keys","content":"ssh-ed25519 AAAA x"}`, "deny toolwall denied this call [files.write-protected]"},
		{"filesystem_read_text_file", `{"path":"` + home + `/README.md"}`, "allow"},
	} {
		cmd := exec.Command(node, "--input-type=module", "-e", harness, plugin, home, c.tool, c.args)
		cmd.Env = append(os.Environ(), "HOME="+home, "TOOLWALL_STATE="+filepath.Join(home, "state.db"), "TOOLWALL_CONFIG=", "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), c.want) {
			t.Errorf("%s: %s %v, want %s…", c.tool, out, err, c.want)
		}
	}
}
