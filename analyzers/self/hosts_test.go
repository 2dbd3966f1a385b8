package self

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/shell"
)

// TestHostSettings: other hosts' settings files (Files.Settings) are
// asked about like Claude Code's, the reason naming the host; a "*"
// matches any file of the directory; reading them is free.
func TestHostSettings(t *testing.T) {
	a := New(Files{Settings: []Setting{
		{".codex/hooks.json", "Codex"}, {".gemini/settings.json", "Gemini CLI"}, {".cursor/hooks.json", "Cursor"},
		{".kiro/agents/*.json", "Kiro CLI"}, {".config/opencode/plugin/toolwall.js", "OpenCode"},
		{"opencode.json", "OpenCode"},
	}})
	for _, row := range analysistest.ReadTSV(t, "hosts.tsv", 4) {
		want, who, tool, input := row.Fields[0], row.Fields[1], row.Fields[2], row.Fields[3]
		call := toolwall.Call{Tool: tool, Input: json.RawMessage(input), Cwd: "/workspace/app", Project: "/workspace/app", Home: "/home/user"}
		in := &analysis.Input{Call: call}
		if tool == toolwall.ToolBash {
			call = toolwall.NewBashCall(input)
			call.Cwd, call.Project, call.Home = "/workspace/app", "/workspace/app", "/home/user"
			s, err := shell.Read(input, shell.Options{Cwd: call.Cwd, Home: call.Home})
			if err != nil {
				t.Fatal(err)
			}
			in = &analysis.Input{Call: call, Script: s}
		}
		r := (&analysis.Report{}).For("self")
		a.Run(context.Background(), in, r)
		got := analysistest.Strongest(r)
		if got.String() != want {
			t.Errorf("line %d: %s %s: %v, want %s (%+v)", row.Line, tool, input, got, want, r.Findings)
			continue
		}
		if want == "ask" && !strings.Contains(r.Findings[0].Reason, who+"'s settings") {
			t.Errorf("line %d: reason %q does not name %s", row.Line, r.Findings[0].Reason, who)
		}
	}
}
