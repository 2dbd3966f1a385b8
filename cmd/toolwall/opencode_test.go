package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/view"
	"github.com/toolwall/toolwall/install"
)

// standIn writes an executable script named name into a new directory
// that prints out for --version, and returns the directory (to put first
// on the PATH). It stands in for a host binary that is not installed.
func standIn(t *testing.T, name, out string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n[ \"$1\" = --version ] && printf '%s\\n' '" + out + "'\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// toolwallWith runs the binary like toolwallIn with extra environment
// (a PATH with stand-ins first, say).
func toolwallWith(t *testing.T, home, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOME="+home, "TOOLWALL_STATE="+filepath.Join(home, ".local/state/toolwall/state.db"), "XDG_CONFIG_HOME=", "TOOLWALL_CONFIG="), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func withPath(dir string) string {
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// runPlugin loads the plugin file under node with host name's loader for
// plugin API api, offers it call (host-shaped JSON) and returns what the
// plugin decided.
func runPlugin(t *testing.T, name string, api int, file, call, dir string) (action, reason string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(t.TempDir(), "plugin.mjs")
	if err := os.WriteFile(plugin, src, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--input-type=module", "-e", PluginHarness(name, api), plugin, call, dir)
	cmd.Env = append(os.Environ(), "HOME="+dir, "TOOLWALL_STATE="+filepath.Join(dir, ".local/state/toolwall/state.db"), "XDG_CONFIG_HOME=", "TOOLWALL_CONFIG=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s under node: %v\n%s", file, err, out)
	}
	var a struct{ Action, Reason string }
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("%s under node printed %q", file, out)
	}
	return a.Action, a.Reason
}

// v2Call is OpenCode 2's execute.before event for tool with input (the
// shape packages/core/src/tool.ts triggers: tool, sessionID, agent,
// messageID, id, input).
func v2Call(tool string, input map[string]any) string {
	b, _ := json.Marshal(map[string]any{"tool": tool, "sessionID": "ses_v2", "agent": "build", "messageID": "msg_1", "id": "call_1", "input": input})
	return string(b)
}

// TestOpenCodeV2Plugin: with OpenCode 2 installed, install writes the V2
// plugin (plugins/), which OpenCode 2's loader runs: `rm -rf ~` throws,
// `git status` passes; a V1 plugin left from before is taken out, and the
// V2 file is a no-op under OpenCode 1.x's loader.
func TestOpenCodeV2Plugin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	home := t.TempDir()
	v1 := filepath.Join(home, ".config/opencode/plugin/toolwall.js")
	v2 := filepath.Join(home, ".config/opencode/plugins/toolwall.js")
	old := withPath(standIn(t, "opencode", "1.18.30"))
	if out, code := toolwallWith(t, home, home, []string{old}, "install", "opencode"); code != 0 || !strings.Contains(out, "plugin/toolwall.js: created") {
		t.Fatalf("install under OpenCode 1.x: %d\n%s", code, out)
	}
	// Upgraded to OpenCode 2: doctor sees the V1 plugin guards nothing.
	now := withPath(standIn(t, "opencode", "opencode 2.0.3"))
	if out, code := toolwallWith(t, home, home, []string{now}, "doctor"); code != 1 || !strings.Contains(out, "V1 plugin, which OpenCode 2.0.3 does not run") {
		t.Errorf("doctor with a V1 plugin under OpenCode 2: %d\n%s", code, out)
	}
	out, code := toolwallWith(t, home, home, []string{now}, "install", "opencode")
	if code != 0 || !strings.Contains(out, "plugins/toolwall.js: created") || !strings.Contains(out, "does not run V1 plugins") {
		t.Fatalf("install under OpenCode 2: %d\n%s", code, out)
	}
	if _, err := os.Stat(v1); !os.IsNotExist(err) {
		t.Errorf("the V1 plugin is left: %v", err)
	}
	if out, code := toolwallWith(t, home, home, []string{now}, "doctor"); code != 0 || strings.Contains(out, "does not run") {
		t.Errorf("doctor after the install: %d\n%s", code, out)
	}
	for _, c := range []struct{ command, want string }{{"rm -rf ~", "deny"}, {"git status", "allow"}} {
		got, reason := runPlugin(t, "opencode", 2, v2, v2Call("shell", map[string]any{"command": c.command}), home)
		if got != c.want {
			t.Errorf("V2 loader, %q: %s %s", c.command, got, reason)
		}
	}
	// OpenCode 1.x loads the V2 file as a plugin that does nothing.
	if got, reason := runPlugin(t, "opencode", 1, v2, pluginCall("opencode", 1, "s", "rm -rf ~"), home); got != "allow" {
		t.Errorf("V1 loader on the V2 file: %s %s", got, reason)
	}
	// OpenCode 2 does not load the V1 plugin.
	if _, code := toolwallWith(t, home, home, []string{old}, "install", "opencode"); code != 0 {
		t.Fatal("install back under 1.x")
	}
	if got, reason := runPlugin(t, "opencode", 2, v1, v2Call("shell", map[string]any{"command": "rm -rf ~"}), home); got != "deny" || !strings.Contains(reason, "not loaded") {
		t.Errorf("V2 loader on the V1 plugin: %s %s", got, reason)
	}
	if _, err := os.Stat(v2); !os.IsNotExist(err) {
		t.Errorf("under 1.x the V2 plugin is left: %v", err)
	}
}

// TestOpenCodeMCPReachesToolwall: OpenCode fires the plugin hook for MCP
// tools (<server>_<tool>); the plugin hands toolwall the tool's name and
// its arguments as they come, under both plugin APIs.
func TestOpenCodeMCPReachesToolwall(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	home := t.TempDir()
	seen := filepath.Join(home, "seen.json")
	recorder := filepath.Join(t.TempDir(), "toolwall")
	script := "#!/bin/sh\ncat > '" + seen + "'\necho '{\"action\":\"allow\"}'\n"
	if err := os.WriteFile(recorder, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := toolwallWith(t, home, home, nil, "install", "opencode", "--binary", recorder); code != 0 {
		t.Fatal(out)
	}
	args := map[string]any{"path": "/home/u/.ssh/authorized_keys", "content": "ssh-ed25519 AAAA"}
	for _, c := range []struct {
		api        int
		file, call string
	}{
		{1, ".config/opencode/plugin/toolwall.js", func() string {
			b, _ := json.Marshal(map[string]any{"input": map[string]any{"tool": "fs_write_file", "sessionID": "s", "callID": "c"}, "output": map[string]any{"args": args}})
			return string(b)
		}()},
		{2, ".config/opencode/plugins/toolwall.js", v2Call("fs_write_file", args)},
	} {
		os.Remove(seen)
		if got, reason := runPlugin(t, "opencode", c.api, filepath.Join(home, c.file), c.call, home); got != "allow" {
			t.Fatalf("V%d: %s %s", c.api, got, reason)
		}
		b, err := os.ReadFile(seen)
		if err != nil {
			t.Fatalf("V%d: toolwall was not run: %v", c.api, err)
		}
		var p struct {
			Event, Tool string
			Args        map[string]any
		}
		if err := json.Unmarshal(b, &p); err != nil || p.Event != "tool.execute.before" || p.Tool != "fs_write_file" || p.Args["path"] != args["path"] || p.Args["content"] != args["content"] {
			t.Errorf("V%d: toolwall got %s", c.api, b)
		}
		// What the plugin sends, the real hook reads as the MCP call.
		r := runHost(t, hookEnv(t), []string{"hook", "opencode"}, b)
		if r.Exit != 0 || !strings.Contains(r.Stdout, `"action"`) {
			t.Errorf("V%d: the hook answered %+v", c.api, r)
		}
	}
}

// TestDoctorClaudeVersion: doctor reads the installed Claude Code's
// version (claude --version; a stand-in here) and warns below the
// release that honours onFailure.
func TestDoctorClaudeVersion(t *testing.T) {
	home := t.TempDir()
	if out, code := toolwallWith(t, home, home, []string{withPath(standIn(t, "claude", "2.1.100 (Claude Code)"))}, "install", "claude-code"); code != 0 || !strings.Contains(out, "warning: claude-code 2.1.100 is older than 2.1.295") {
		t.Fatalf("install under an old Claude Code: %d\n%s", code, out)
	}
	for _, c := range []struct {
		version string
		warn    bool
	}{{"2.1.200 (Claude Code)", true}, {"2.1.295 (Claude Code)", false}, {"2.2.0 (Claude Code)", false}} {
		out, code := toolwallWith(t, home, home, []string{withPath(standIn(t, "claude", c.version))}, "doctor")
		if warned := strings.Contains(out, "older than 2.1.295") && code == 1; warned != c.warn {
			t.Errorf("claude %s: exit %d\n%s", c.version, code, out)
		}
	}
}

// TestHostPayloads sends payloads built as Qwen Code, Copilot CLI,
// OpenCode (1.x and 2), Cursor, Factory Droid, Kiro CLI, Windsurf and Amp
// build them (testdata/host-payloads.json, each naming the host source it
// comes from) through what `toolwall install` wrote into a scratch home —
// the hook command through sh -c, a plugin under node with its host's
// loader — and reads the answers as the host does.
func TestHostPayloads(t *testing.T) {
	b, err := os.ReadFile("testdata/host-payloads.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name, Host, Source, Want string
			API                      int
			Payload                  json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	app := filepath.Join(home, "src", "app")
	os.MkdirAll(app, 0o755)
	// OpenCode's version is unknown here: both plugins are written.
	if out, code := toolwallWith(t, home, app, nil, "install", "qwen", "copilot", "opencode", "cursor", "factory", "kiro", "windsurf", "amp"); code != 0 {
		t.Fatal(out)
	}
	env := []string{"HOME=" + home, "TOOLWALL_STATE=" + filepath.Join(home, ".local/state/toolwall/state.db"), "XDG_CONFIG_HOME=", "TOOLWALL_CONFIG=", "QWEN_PROJECT_DIR=" + app}
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Source == "" {
				t.Fatal("a payload must name the host source it comes from")
			}
			payload := strings.ReplaceAll(string(c.Payload), "@HOME@", home)
			var got view.Reading
			var r host.Response
			if c.Host == "opencode" || c.Host == "amp" {
				file := map[int]string{1: ".config/opencode/plugin/toolwall.js", 2: ".config/opencode/plugins/toolwall.js", 0: ".config/amp/plugins/toolwall.ts"}[c.API]
				action, reason := runPlugin(t, c.Host, c.API, filepath.Join(home, file), payload, home)
				got = view.Reading{Valid: action == "allow" || action == "deny" && reason != "", Action: map[string]toolwall.Action{"allow": toolwall.Allow, "deny": toolwall.Deny}[action], Reason: reason}
			} else {
				// One command, however many events run it (Cursor's seven).
				hooks := install.Find(c.Host, install.Options{Home: home})
				for _, h := range hooks {
					if h.Command != hooks[0].Command {
						t.Fatalf("installed hooks run different commands: %+v", hooks)
					}
				}
				if len(hooks) == 0 {
					t.Fatalf("no installed hook for %s", c.Host)
				}
				r = runProgram(t, "sh", env, []string{"-c", hooks[0].Command}, []byte(payload))
				got = view.For(c.Host)(r, c.Want != "none" && c.Want != "post")
			}
			switch c.Want {
			case "none":
				if r.Exit != 0 || strings.TrimSpace(r.Stdout) != "" {
					t.Errorf("not acknowledged quietly: %+v", r)
				}
			case "any", "post":
				if !got.Valid {
					t.Errorf("ill-formed answer: %+v %+v", got, r)
				}
			default:
				if want := map[string]toolwall.Action{"allow": toolwall.Allow, "ask": toolwall.Ask, "deny": toolwall.Deny}[c.Want]; !got.Valid || got.Action != want {
					t.Errorf("the host reads %+v, want %s (%+v)", got, c.Want, r)
				}
			}
		})
	}
}
