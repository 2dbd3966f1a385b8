package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// seed writes testdata/existing.json's files under home.
func seed(t *testing.T, home string) {
	t.Helper()
	b, err := os.ReadFile("testdata/existing.json")
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
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot maps every regular file under dir to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, dir)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for f, w := range want {
		if g, ok := got[f]; !ok {
			t.Errorf("%s: %s is gone", what, f)
		} else if g != w {
			t.Errorf("%s: %s changed:\n%s\nwant\n%s", what, f, g, w)
		}
	}
	for f := range got {
		if _, ok := want[f]; !ok {
			t.Errorf("%s: %s was left behind", what, f)
		}
	}
}

// TestRoundTrip installs every host into a scratch home holding a user's
// own configuration: the user's entries stay, a second install changes
// nothing, Find sees the hooks with this binary, and uninstall leaves
// every file as it was, to the byte.
func TestRoundTrip(t *testing.T) {
	for _, project := range []bool{false, true} {
		home := t.TempDir()
		seed(t, home)
		o := Options{Home: home, Binary: "/opt/tool wall/bin/toolwall"}
		if project {
			o.Project = filepath.Join(home, "src", "app")
			seed(t, o.Project)
		}
		before := snapshot(t, home)
		for _, name := range Hosts() {
			changes, err := Install(name, o)
			if err != nil || len(changes) == 0 {
				t.Fatalf("%s (project %v): install: %v %v", name, project, changes, err)
			}
			if again, err := Install(name, o); err != nil || len(again) != 0 {
				t.Errorf("%s: second install changed %v (%v)", name, again, err)
			}
			hooks := Find(name, o)
			if len(hooks) == 0 {
				t.Errorf("%s: Find found no hook after install", name)
			}
			for _, h := range hooks {
				if h.Binary != o.Binary || h.Command != Command(o.Binary, name) {
					t.Errorf("%s: found %+v", name, h)
				}
			}
		}
		after := snapshot(t, home)
		// The user's own entries are all still there.
		for f, content := range before {
			if !strings.HasSuffix(f, ".json") {
				continue
			}
			var v any
			_ = json.Unmarshal([]byte(content), &v)
			for _, s := range leaves(v) {
				if !strings.Contains(after[f], s) {
					t.Errorf("project %v: %s lost %q", project, f, s)
				}
			}
		}
		claude := filepath.Join(o.base(), ".claude", "settings.json")
		if c := gjson.Get(snapshot(t, home)[strings.TrimPrefix(claude, home)], "hooks.PreToolUse.#"); c.Int() != 2 && !project {
			t.Errorf("claude PreToolUse entries: %v", c)
		}
		for _, name := range Hosts() {
			if _, err := Uninstall(name, o); err != nil {
				t.Fatalf("%s: uninstall: %v", name, err)
			}
		}
		sameFiles(t, "after uninstall", snapshot(t, home), before)
	}
}

func leaves(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			out = append(out, `"`+k+`"`)
			out = append(out, leaves(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, leaves(e)...)
		}
	case string:
		b, _ := json.Marshal(x)
		out = append(out, string(b))
	}
	return out
}

// TestUserEditsKept: a file the user changed after the install loses only
// toolwall's entries on uninstall, keeps the user's change, and its
// backup stays.
func TestUserEditsKept(t *testing.T) {
	home := t.TempDir()
	seed(t, home)
	o := Options{Home: home, Binary: "/usr/local/bin/toolwall"}
	if _, err := Install("claude-code", o); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(home, ".claude", "settings.json")
	b, _ := os.ReadFile(p)
	b = []byte(strings.Replace(string(b), `"opus"`, `"sonnet"`, 1))
	os.WriteFile(p, b, 0o644)
	changes, err := Uninstall("claude-code", o)
	if err != nil || len(changes) != 1 || !strings.Contains(changes[0].What, "backup") {
		t.Fatalf("uninstall: %v %v", changes, err)
	}
	b, _ = os.ReadFile(p)
	if !strings.Contains(string(b), "sonnet") || strings.Contains(string(b), "toolwall") || !strings.Contains(string(b), "audit-bash") {
		t.Errorf("after uninstall: %s", b)
	}
	if _, err := os.Stat(backupPath(p)); err != nil {
		t.Errorf("backup: %v", err)
	}
}

// TestMovedBinary: installing from another path points toolwall's
// existing entries at it instead of adding new ones.
func TestMovedBinary(t *testing.T) {
	home := t.TempDir()
	o := Options{Home: home, Binary: "/old/toolwall"}
	Install("gemini", o)
	o.Binary = "/new/toolwall"
	changes, err := Install("gemini", o)
	if err != nil || len(changes) != 1 || !strings.Contains(changes[0].What, "pointed 3 hook commands at /new/toolwall") {
		t.Fatalf("%v %v", changes, err)
	}
	for _, h := range Find("gemini", o) {
		if h.Binary != "/new/toolwall" {
			t.Errorf("%+v", h)
		}
	}
}

// TestConflictLeftAlone: a Cline hook script of the user's own is never
// replaced; the install says so and installs the rest.
func TestConflictLeftAlone(t *testing.T) {
	noXDG(t)
	home := t.TempDir()
	p := filepath.Join(home, "Documents", "Cline", "Hooks", "PreToolUse")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("#!/bin/sh\necho '{\"cancel\":false}'\n"), 0o755)
	_, err := Install("cline", Options{Home: home, Binary: "/usr/bin/toolwall"})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); strings.Contains(string(b), "toolwall") {
		t.Error("the user's script was replaced")
	}
	if len(Find("cline", Options{Home: home})) != 2 {
		t.Errorf("the other scripts: %v", Find("cline", Options{Home: home}))
	}
}

// TestClineDuplicateRetired: the ~/.cline/hooks/PreToolUse.sh an earlier
// install wrote (the Cline CLI also reads ~/Documents/Cline/Hooks, so it
// ran toolwall twice per call) is removed by the next install, and by an
// uninstall; a user's own file there is left alone.
func TestClineDuplicateRetired(t *testing.T) {
	noXDG(t)
	for _, uninstall := range []bool{false, true} {
		home := t.TempDir()
		o := Options{Home: home, Binary: "/usr/bin/toolwall"}
		old := filepath.Join(home, ".cline", "hooks", "PreToolUse.sh")
		os.MkdirAll(filepath.Dir(old), 0o755)
		os.WriteFile(old, []byte(script(old, "cline").(fileOp).content(o.Binary)), 0o755)
		var err error
		if uninstall {
			_, err = Uninstall("cline", o)
		} else {
			_, err = Install("cline", o)
		}
		if _, serr := os.Stat(old); err != nil || serr == nil {
			t.Errorf("uninstall %v: %v; the earlier duplicate is still there", uninstall, err)
		}
	}
	home := t.TempDir()
	mine := filepath.Join(home, ".cline", "hooks", "PreToolUse.sh")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("#!/bin/sh\necho '{}'\n"), 0o755)
	if _, err := Install("cline", Options{Home: home, Binary: "/usr/bin/toolwall"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Error("the user's own script was removed")
	}
	if got := len(Find("cline", Options{Home: home})); got != 3 {
		t.Errorf("found %d hooks, want the 3 in Documents/Cline/Hooks", got)
	}
}

// TestBrokenJSONUntouched: a settings file that is not JSON is reported
// and left as it is.
func TestBrokenJSONUntouched(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, ".qwen", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("{ // comments\n}"), 0o644)
	if _, err := Install("qwen", Options{Home: home, Binary: "/usr/bin/toolwall"}); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{ // comments\n}" {
		t.Errorf("changed: %s", b)
	}
}

// noXDG makes Cline's extension read ~/Documents for the test (as
// where xdg-user-dir is not installed).
func noXDG(t *testing.T) {
	old := xdgUserDir
	xdgUserDir = func() bool { return false }
	t.Cleanup(func() { xdgUserDir = old })
}

// TestClineXDGDocuments: where the Cline extension asks xdg-user-dir for
// the Documents directory, the hook scripts go there as well as into
// ~/Documents/Cline/Hooks (which the CLI reads): the XDG_DOCUMENTS_DIR
// of user-dirs.dirs, or the home when it names none.
func TestClineXDGDocuments(t *testing.T) {
	old := xdgUserDir
	xdgUserDir = func() bool { return true }
	t.Cleanup(func() { xdgUserDir = old })
	t.Setenv("XDG_CONFIG_HOME", "")
	for _, c := range []struct{ dirs, want string }{
		{"", "Cline/Hooks"},
		{"XDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n", "Dokumente/Cline/Hooks"},
		{"XDG_DOCUMENTS_DIR=\"$HOME/Documents\"\n", ""},
	} {
		home := t.TempDir()
		if c.dirs != "" {
			os.MkdirAll(filepath.Join(home, ".config"), 0o755)
			os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte(c.dirs), 0o644)
		}
		o := Options{Home: home, Binary: "/usr/bin/toolwall"}
		if _, err := Install("cline", o); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range Find("cline", o) {
			got = append(got, strings.TrimPrefix(filepath.Dir(h.File), home+"/"))
		}
		want := []string{"Documents/Cline/Hooks", "Documents/Cline/Hooks", "Documents/Cline/Hooks"}
		if c.want != "" {
			want = append(want, c.want, c.want, c.want)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("user-dirs.dirs %q: hooks in %v, want %v", c.dirs, got, want)
		}
		if _, err := Uninstall("cline", o); err != nil || len(Find("cline", o)) != 0 {
			t.Errorf("uninstall: %v, %v left", err, Find("cline", o))
		}
	}
}

// TestCopilotHome: with COPILOT_HOME set, install, Find, Found and
// uninstall use $COPILOT_HOME/hooks, never ~/.copilot/hooks.
func TestCopilotHome(t *testing.T) {
	home, moved := t.TempDir(), filepath.Join(t.TempDir(), "copilot")
	o := Options{Home: home, Binary: "/usr/local/bin/toolwall", Getenv: func(k string) string {
		if k == "COPILOT_HOME" {
			return moved
		}
		return ""
	}}
	if Found("copilot", o) {
		t.Fatal("copilot found before anything exists")
	}
	if _, err := Install("copilot", o); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(moved, "hooks", "toolwall.json")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("install wrote no %s: %v", want, err)
	}
	if _, err := os.Stat(filepath.Join(home, ".copilot")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("install wrote under ~/.copilot with COPILOT_HOME set: %v", err)
	}
	if hs := Find("copilot", o); len(hs) != 1 || hs[0].File != want {
		t.Errorf("Find: %+v", hs)
	}
	if !Found("copilot", o) {
		t.Error("Found misses the COPILOT_HOME install")
	}
	if _, err := Uninstall("copilot", o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("uninstall left %s", want)
	}
	// Without the variable the default place is used.
	o.Getenv = nil
	if _, err := Install("copilot", o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".copilot", "hooks", "toolwall.json")); err != nil {
		t.Error(err)
	}
}

// TestOpenCodePluginByVersion: the OpenCode install writes the plugin
// the installed major version runs (V1 under plugin/ for 1.x, V2 under
// plugins/ for 2), takes out toolwall's other one, writes both when the
// version is unknown, and uninstall takes out whichever is there.
func TestOpenCodePluginByVersion(t *testing.T) {
	v1 := filepath.Join(".config", "opencode", "plugin", "toolwall.js")
	v2 := filepath.Join(".config", "opencode", "plugins", "toolwall.js")
	for _, c := range []struct {
		version  string
		want, no []string
	}{
		{"", []string{v1, v2}, nil},
		{"1.18.30", []string{v1}, []string{v2}},
		{"opencode 2.0.3\n", []string{v2}, []string{v1}},
		{"garbage", []string{v1, v2}, nil},
	} {
		home := t.TempDir()
		// Start from the other install, so the switch is exercised.
		pre := Options{Home: home, Binary: "/usr/local/bin/toolwall"}
		if _, err := Install("opencode", pre); err != nil {
			t.Fatal(err)
		}
		o := pre
		o.Version = func(p string) string {
			if p == "opencode" {
				return c.version
			}
			return ""
		}
		if _, err := Install("opencode", o); err != nil {
			t.Fatal(err)
		}
		for _, f := range c.want {
			b, err := os.ReadFile(filepath.Join(home, f))
			if err != nil {
				t.Errorf("%q: %s not written: %v", c.version, f, err)
				continue
			}
			if strings.Contains(f, "plugins") != strings.Contains(string(b), "setup(ctx)") {
				t.Errorf("%q: %s holds the wrong plugin API", c.version, f)
			}
		}
		for _, f := range c.no {
			if _, err := os.Stat(filepath.Join(home, f)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%q: %s left in place: %v", c.version, f, err)
			}
		}
		if again, err := Install("opencode", o); err != nil || len(again) != 0 {
			t.Errorf("%q: second install changed %v (%v)", c.version, again, err)
		}
		if _, err := Uninstall("opencode", pre); err != nil {
			t.Fatal(err)
		}
		if left := snapshot(t, home); len(left) != 0 {
			t.Errorf("%q: uninstall left %v", c.version, left)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Version
		ok   bool
	}{
		{"2.1.240 (Claude Code)", Version{2, 1, 240}, true},
		{"opencode v1.18.30\n", Version{1, 18, 30}, true},
		{"2.0", Version{2, 0, 0}, true},
		{"unknown", Version{}, false},
	} {
		got, ok := ParseVersion(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseVersion(%q) = %v %v", c.in, got, ok)
		}
	}
	if !(Version{2, 1, 294}).Less(Version{2, 1, 295}) || (Version{2, 1, 295}).Less(Version{2, 1, 295}) {
		t.Error("Less")
	}
}

// TestOpenCodeXDG: OpenCode's config directory is $XDG_CONFIG_HOME/opencode
// when the variable is set; the plugin goes there.
func TestOpenCodeXDG(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	o := Options{Home: home, Binary: "/usr/local/bin/toolwall", Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}, Version: func(string) string { return "2.0.3" }}
	if _, err := Install("opencode", o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(xdg, "opencode", "plugins", "toolwall.js")); err != nil {
		t.Error(err)
	}
	if !Found("opencode", o) || len(Find("opencode", o)) != 1 {
		t.Error("Found or Find misses the XDG install")
	}
	if _, err := Uninstall("opencode", o); err != nil {
		t.Fatal(err)
	}
	if left := snapshot(t, xdg); len(left) != 0 {
		t.Errorf("uninstall left %v", left)
	}
	if left := snapshot(t, home); len(left) != 0 {
		t.Errorf("install wrote under the home: %v", left)
	}
}

// TestFiles: the files an install writes the hook into are listed per
// scope, relative to the home or the project, for every host.
func TestFiles(t *testing.T) {
	for _, c := range []struct {
		project bool
		want    []string
	}{
		{false, []string{".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json", ".config/opencode/plugin/toolwall.js", ".copilot/hooks/toolwall.json"}},
		{true, []string{".claude/settings.json", ".github/hooks/toolwall.json", ".opencode/plugin/toolwall.js", ".clinerules/hooks/PreToolUse"}},
	} {
		got := Files(c.project)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("Files(%v) = %v, lacks %s", c.project, got, w)
			}
		}
	}
}

// TestClineWindows: on Windows Cline runs only <HookName>.ps1 files, so
// install writes PreToolUse.ps1, PostToolUse.ps1 and UserPromptSubmit.ps1
// (and no extensionless script) into Documents\Cline\Hooks and into the
// Documents folder PowerShell reports when it is another one (moved by
// OneDrive); each hands its input to toolwall and exits with its status.
func TestClineWindows(t *testing.T) {
	home := t.TempDir()
	moved := filepath.Join(home, "OneDrive", "Documents")
	oldW, oldD := clineWindows, windowsDocuments
	clineWindows = func() bool { return true }
	windowsDocuments = func() string { return moved }
	t.Cleanup(func() { clineWindows, windowsDocuments = oldW, oldD })
	o := Options{Home: home, Binary: "/opt/tool wall/toolwall's"}
	if _, err := Install("cline", o); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(home, "Documents", "Cline", "Hooks"), filepath.Join(moved, "Cline", "Hooks")} {
		for _, ev := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit"} {
			b, err := os.ReadFile(filepath.Join(dir, ev+".ps1"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"[Console]::In.ReadToEnd()", `$payload | & '/opt/tool wall/toolwall''s' hook cline` + "\r\n", "exit $LASTEXITCODE\r\n", "[Console]::OutputEncoding = $utf8"} {
				if !strings.Contains(string(b), want) {
					t.Errorf("%s.ps1 lacks %q:\n%s", ev, want, b)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, ev)); err == nil {
				t.Errorf("an extensionless %s hook was written too", ev)
			}
		}
	}
	hooks := Find("cline", o)
	if len(hooks) != 6 || hooks[0].Binary != o.Binary {
		t.Errorf("found %+v", hooks)
	}
	if _, err := Uninstall("cline", o); err != nil || len(Find("cline", o)) != 0 {
		t.Errorf("uninstall: %v, %v left", err, Find("cline", o))
	}
}

// TestWindsurfUserFiles: the user install writes the hooks file of the
// Windsurf IDE (~/.codeium/windsurf/hooks.json) and of its JetBrains
// plugin (~/.codeium/hooks.json); uninstall takes both out.
func TestWindsurfUserFiles(t *testing.T) {
	home := t.TempDir()
	o := Options{Home: home, Binary: "/usr/bin/toolwall"}
	if _, err := Install("windsurf", o); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".codeium/windsurf/hooks.json", ".codeium/hooks.json"} {
		b, err := os.ReadFile(filepath.Join(home, f))
		if err != nil || !strings.Contains(string(b), `"pre_run_command"`) || !strings.Contains(string(b), "hook windsurf") {
			t.Errorf("%s: %v\n%s", f, err, b)
		}
	}
	if _, err := Uninstall("windsurf", o); err != nil || len(Find("windsurf", o)) != 0 {
		t.Errorf("uninstall: %v, %v left", err, Find("windsurf", o))
	}
}

// TestUninstallPrunesEmpty: a file toolwall created and the user changed
// since loses toolwall's entries and the lists and objects that leaves
// empty, not the user's keys.
func TestUninstallPrunesEmpty(t *testing.T) {
	for _, name := range []string{"claude-code", "gemini", "cursor", "qwen"} {
		home := t.TempDir()
		o := Options{Home: home, Binary: "/usr/local/bin/toolwall"}
		if _, err := Install(name, o); err != nil {
			t.Fatal(err)
		}
		hooks := Find(name, o)
		if len(hooks) == 0 {
			t.Fatalf("%s: no hook found", name)
		}
		p := hooks[0].File
		b, _ := os.ReadFile(p)
		b = []byte(strings.Replace(string(b), "{", `{"mine": {"kept": []},`, 1))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Uninstall(name, o); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(p)
		got := gjson.ParseBytes(b)
		if got.Get("hooks").Exists() || !got.Get("mine.kept").IsArray() || strings.Contains(string(b), "toolwall") {
			t.Errorf("%s after uninstall:\n%s", name, b)
		}
	}
}
