package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/install"
)

// scratchHome returns a home holding a user's own configuration of
// several hosts (install/testdata/existing.json) and its snapshot.
func scratchHome(t *testing.T) (string, map[string]string) {
	t.Helper()
	home := t.TempDir()
	b, err := os.ReadFile("../../install/testdata/existing.json")
	if err != nil {
		t.Fatal(err)
	}
	var files map[string]string
	if err := json.Unmarshal(b, &files); err != nil {
		t.Fatal(err)
	}
	delete(files, "README")
	for rel, content := range files {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(home, "src", "app"), 0o755)
	return home, files
}

func configFiles(t *testing.T, home string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/.local/state/") {
			return err
		}
		b, _ := os.ReadFile(p)
		out[strings.TrimPrefix(p, home+"/")] = string(b)
		return nil
	})
	return out
}

func toolwallIn(t *testing.T, home, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "TOOLWALL_STATE="+filepath.Join(home, ".local/state/toolwall/state.db"), "XDG_CONFIG_HOME=", "TOOLWALL_CONFIG=")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestInstallDoctorUninstall installs toolwall into a scratch home for
// every host (user and project), runs doctor — every host wired: its hook
// runs this binary, a canary is denied and a harmless call allowed, the
// OpenCode and Amp plugins run under node — uninstalls, and finds every
// file as it was.
func TestInstallDoctorUninstall(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the OpenCode and Amp plugins cannot be run (apt-get install nodejs)")
	}
	for _, scope := range [][]string{nil, {"--project"}} {
		home, _ := scratchHome(t)
		dir := filepath.Join(home, "src", "app")
		before := configFiles(t, home)
		foundBefore := found(t, home, dir)
		every := append(append([]string{"install"}, install.Hosts()...), scope...)
		out, code := toolwallIn(t, home, dir, every...)
		if code != 0 {
			t.Fatalf("install %v: exit %d\n%s", scope, code, out)
		}
		if again, _ := toolwallIn(t, home, dir, every...); strings.Count(again, "already installed") != 12 {
			t.Errorf("second install changed something:\n%s", again)
		}
		out, code = toolwallIn(t, home, dir, "doctor")
		if code != 0 || !strings.Contains(out, "every host found is wired") || strings.Count(out, " denied ") != 12 {
			t.Errorf("doctor %v: exit %d\n%s", scope, code, out)
		}
		out, code = toolwallIn(t, home, dir, append([]string{"uninstall", "all"}, scope...)...)
		if code != 0 {
			t.Fatalf("uninstall: exit %d\n%s", code, out)
		}
		after := configFiles(t, home)
		for f, w := range before {
			if after[f] != w {
				t.Errorf("%v: %s is not as it was:\n%s", scope, f, after[f])
			}
		}
		for f := range after {
			if _, ok := before[f]; !ok {
				t.Errorf("%v: %s left behind", scope, f)
			}
		}
		// No host's directory is left for doctor to find.
		if got := found(t, home, dir); !slices.Equal(got, foundBefore) {
			t.Errorf("%v: doctor finds %v after uninstall, %v before install", scope, got, foundBefore)
		}
	}
}

// found lists the hosts doctor finds in home (its first column, for rows
// whose second says yes).
func found(t *testing.T, home, dir string) []string {
	t.Helper()
	out, _ := toolwallIn(t, home, dir, "doctor")
	var hosts []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[1] == "yes" {
			hosts = append(hosts, f[0])
		}
	}
	return hosts
}

// TestDoctorFindsProblems: doctor exits 1 for a host found but not
// installed, and for a hook that runs another binary.
func TestDoctorFindsProblems(t *testing.T) {
	home, _ := scratchHome(t)
	out, code := toolwallIn(t, home, home, "doctor")
	if code != 1 || !strings.Contains(out, "not installed: toolwall install claude-code") {
		t.Errorf("doctor before install: exit %d\n%s", code, out)
	}
	other := filepath.Join(t.TempDir(), "toolwall")
	if b, err := os.ReadFile(bin); err == nil {
		os.WriteFile(other, b, 0o755)
	}
	toolwallIn(t, home, home, "install", "gemini", "--binary", other)
	out, code = toolwallIn(t, home, home, "doctor")
	if code != 1 || !strings.Contains(out, "not this binary") {
		t.Errorf("doctor with another binary: exit %d\n%s", code, out)
	}
}

// TestPluginsFailClosed: the OpenCode and Amp plugins, run under node,
// block a call when toolwall cannot be started.
func TestPluginsFailClosed(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	home := t.TempDir()
	if out, code := toolwallIn(t, home, home, "install", "opencode", "amp", "--binary", "/nonexistent/toolwall"); code != 0 {
		t.Fatal(out)
	}
	for _, p := range []struct {
		name, file string
		api        int
	}{
		{"opencode", ".config/opencode/plugin/toolwall.js", 1}, {"opencode", ".config/opencode/plugins/toolwall.js", 2}, {"amp", ".config/amp/plugins/toolwall.ts", 0},
	} {
		src, _ := os.ReadFile(filepath.Join(home, p.file))
		plugin := filepath.Join(t.TempDir(), "plugin.mjs")
		os.WriteFile(plugin, src, 0o600)
		out, err := exec.Command(node, "--input-type=module", "-e", PluginHarness(p.name, p.api), plugin, pluginCall(p.name, p.api, "s", "ls"), home).CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"action":"deny"`) || !strings.Contains(string(out), "could not check") {
			t.Errorf("%s with a missing toolwall: %s %v", p.name, out, err)
		}
	}
}

// TestDoctorWhere: doctor labels a hook by the nearer of home and
// project that holds its file.
func TestDoctorWhere(t *testing.T) {
	for _, c := range []struct{ file, home, project, want string }{
		{"/tmp/h/.claude/settings.json", "/tmp/h", "/tmp", "user"},
		{"/tmp/h/.claude/settings.json", "/tmp/h", "/tmp/h", "user"},
		{"/tmp/h/p/.claude/settings.json", "/tmp/h", "/tmp/h/p", "project"},
		{"/w/p/.cursor/hooks.json", "/home/u", "/w/p", "project"},
		{"/home/u/.codex/config.toml", "/home/u", "/", "user"},
		{"/home/u/.codex/config.toml", "/home/u", "", "user"},
	} {
		if got := where(c.file, c.home, c.project); got != c.want {
			t.Errorf("where(%q, home %q, project %q) = %s, want %s", c.file, c.home, c.project, got, c.want)
		}
	}
}

// TestInstallAllFound: install all wires only the hosts found on this
// machine and creates no other host's directory (doctor would then find
// it); with none found it fails and writes nothing. Uninstall takes out
// what it created and leaves no empty directory behind.
func TestInstallAllFound(t *testing.T) {
	home := t.TempDir()
	empty := t.TempDir() // the PATH: no host's program on it
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "HOME="+home, "PATH="+empty, "TOOLWALL_STATE="+filepath.Join(home, ".local/state/toolwall/state.db"), "XDG_CONFIG_HOME=", "TOOLWALL_CONFIG=", "COPILOT_HOME=")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	before := configFiles(t, home)
	if out, code := run("install", "all"); code != 1 || !strings.Contains(out, "no agent host found") {
		t.Errorf("install all with no host: exit %d\n%s", code, out)
	}
	if after := configFiles(t, home); len(after) != len(before) {
		t.Errorf("install all with no host wrote %v", after)
	}
	os.Mkdir(filepath.Join(home, ".gemini"), 0o755)
	out, code := run("install", "all")
	if code != 0 || !strings.Contains(out, "gemini: ") || !strings.Contains(out, "cline: not found on this machine, skipped") {
		t.Errorf("install all: exit %d\n%s", code, out)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if n := e.Name(); n != ".gemini" && n != ".local" {
			t.Errorf("install all created %s for a host not on this machine", n)
		}
	}
	if out, code := run("uninstall", "all"); code != 0 {
		t.Errorf("uninstall all: exit %d\n%s", code, out)
	}
	if after := configFiles(t, home); len(after) != len(before) {
		t.Errorf("uninstall left %v", after)
	}
}
