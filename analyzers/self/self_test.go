package self

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/shell"
)

var own = []string{
	"/home/user/.config/toolwall/config.toml",
	"/home/user/.local/state/toolwall/state.db",
	"/home/user/.local/state/toolwall/state.db-wal",
	"/home/user/.local/state/toolwall/state.db-shm",
	"/home/user/go/bin/toolwall",
}

// verdict runs the analyzer on one call and returns the strictest action.
func verdict(t testing.TB, tool, input string) (toolwall.Action, []toolwall.Finding) {
	a := New(Files{Own: own})
	if !strings.Contains(strings.Join(a.Tools, ","), tool) && tool != toolwall.ToolRead {
		t.Fatalf("tool %s not watched", tool)
	}
	var rep *analysis.Report
	if tool == toolwall.ToolBash {
		rep = analysistest.Bash(t, a, input, analysistest.Places{Cwd: "/workspace/app", Home: "/home/user"}, toolwall.UserContext)
	} else {
		call := toolwall.Call{Tool: tool, Input: json.RawMessage(input), Cwd: "/workspace/app", Project: "/workspace/app", Home: "/home/user"}
		rep = &analysis.Report{}
		a.Run(context.Background(), &analysis.Input{Call: call}, rep)
	}
	return analysistest.Strongest(rep), rep.Findings
}

func TestCases(t *testing.T) {
	n := 0
	for _, r := range rows.ReadRest(t, "testdata/cases.tsv", 3) {
		parts := r.Fields
		input := parts[2]
		if parts[1] == toolwall.ToolBash {
			input = strings.ReplaceAll(input, `\n`, "\n")
		}
		if parts[1] == toolwall.ToolRead {
			continue // not watched: nothing to run
		}
		got, fs := verdict(t, parts[1], input)
		want, _ := toolwall.ParseAction(parts[0])
		if got != want {
			t.Errorf("%s %s: got %v %+v, want %v", parts[1], input, got, fs, want)
		}
		for _, f := range fs {
			if f.Reason == "" || f.Rule == "" {
				t.Errorf("%s: finding without rule or reason", input)
			}
		}
		n++
	}
	if n < 30 {
		t.Fatalf("only %d cases", n)
	}
}

func FuzzSelf(f *testing.F) {
	f.Add("rm -rf ~/.local/state")
	f.Add("echo x > ~/.config/toolwall/config.toml")
	f.Fuzz(func(t *testing.T, cmd string) {
		s, err := shell.Read(cmd, shell.Options{Cwd: "/workspace/app", Home: "/home/user"})
		if err != nil {
			return
		}
		call := toolwall.NewBashCall(cmd)
		call.Cwd, call.Project, call.Home = "/workspace/app", "/workspace/app", "/home/user"
		a, b := &analysis.Report{}, &analysis.Report{}
		New(Files{Own: own}).Run(context.Background(), &analysis.Input{Call: call, Script: s}, a)
		New(Files{Own: own}).Run(context.Background(), &analysis.Input{Call: call, Script: s}, b)
		if len(a.Findings) != len(b.Findings) {
			t.Fatal("not deterministic")
		}
	})
}

func BenchmarkSelf(b *testing.B) {
	cmd := "cd src && go test ./... 2>&1 | tail -20 > /tmp/out.txt"
	s, _ := shell.Read(cmd, shell.Options{Cwd: "/workspace/app", Home: "/home/user"})
	call := toolwall.NewBashCall(cmd)
	call.Cwd, call.Project, call.Home = "/workspace/app", "/workspace/app", "/home/user"
	a := New(Files{Own: own})
	b.ReportAllocs()
	for b.Loop() {
		a.Run(context.Background(), &analysis.Input{Call: call, Script: s}, &analysis.Report{})
	}
}
