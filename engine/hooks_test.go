package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis/analysistest"
)

// TestInstalledHooks: an installed engine protects the binary the
// hosts' settings run as toolwall's hook (as toolwall install recorded
// it) and the programs beside it, and refuses taking the hook out of
// the settings that hold it; a host's settings without the hook are
// only asked about (testdata/installed-hooks.tsv).
func TestInstalledHooks(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	write := func(rel, data string) {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"'/opt/tw/bin/toolwall-hook' hook claude-code","timeout":10}]}]}}`)
	write(".gemini/settings.json", `{"theme":"dark"}`)
	write("app/.codex/hooks.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"'/opt/tw/bin/toolwall-hook' hook codex","timeout":10}]}]}}`)
	write("app/.claude/settings.local.json", `{"model":"opus"}`)
	e := New(Options{Places: Installed, Memory: NoMemory, State: filepath.Join(home, "state.db")})
	defer e.Close()
	for _, row := range analysistest.ReadTSV(t, "installed-hooks.tsv", 3) {
		want, rule := row.Fields[0], row.Fields[1]
		cmd := strings.ReplaceAll(row.Fields[2], "HOME", home)
		c := toolwall.NewBashCall(cmd)
		c.Cwd, c.Project, c.Home = home+"/app", home+"/app", home
		v := e.Evaluate(context.Background(), c)
		got := v.Action.String()
		if got == "warn" {
			got = "allow"
		}
		if got != want || rule != "-" && !slices.Contains(v.Rules(), rule) {
			t.Errorf("line %d: %s: %s %v, want %s %s (%s)", row.Line, cmd, v.Action, v.Rules(), want, rule, v.Reason)
		}
	}
}
