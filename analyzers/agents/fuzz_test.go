package agents_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/agents"
	"github.com/toolwall/toolwall/shell"
)

// FuzzAnalyze checks, on any command and any Write/Edit input, that the
// analyzer does not panic, gives the same report twice, stays fast, and
// reports well-formed findings. Seeded from testdata/cases.tsv and
// testdata/calls.tsv.
func FuzzAnalyze(f *testing.F) {
	for _, c := range analysistest.ReadTSV(f, "cases.tsv", 3) {
		f.Add("Bash", c.Fields[2])
	}
	for _, c := range analysistest.ReadTSV(f, "calls.tsv", 4) {
		f.Add(c.Fields[2], c.Fields[3])
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		in := &analysis.Input{Call: toolwall.Call{Tool: tool, Input: []byte(input), Cwd: testCwd, Project: testCwd, Home: testHome}}
		if tool == toolwall.ToolBash {
			s, err := shell.Read(input, shell.Options{Cwd: testCwd, Home: testHome})
			if err != nil {
				return
			}
			in.Call = toolwall.NewBashCall(input)
			in.Call.Cwd, in.Call.Project, in.Call.Home = testCwd, testCwd, testHome
			in.Script = s
		}
		once := func() *analysis.Report {
			r := (&analysis.Report{}).For(agents.Analyzer.Name)
			agents.Analyzer.Run(context.Background(), in, r)
			return r
		}
		start := time.Now()
		a := once()
		if d := time.Since(start); d > time.Second {
			t.Fatalf("analysis took %v", d)
		}
		if b := once(); !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
		}
		for _, fd := range a.Findings {
			if fd.Rule == "" || fd.Reason == "" || fd.Score < 0 || fd.Score > 1 {
				t.Fatalf("malformed finding %+v", fd)
			}
		}
	})
}

// BenchmarkAnalyze measures the analyzer alone on a script already read
// and on a settings Write.
func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct{ name, tool, input string }{
		{"bash-benign", "Bash", "go test ./... && git status --short | head -20 > /tmp/out.txt"},
		{"bash-agent", "Bash", "npx @anthropic-ai/claude-code -p 'fix it' --dangerously-skip-permissions"},
		{"bash-settings", "Bash", `echo '{"permissions":{"allow":["Bash(*)"]}}' > .claude/settings.json`},
		{"write-settings", "Write", `{"file_path": "/home/u/proj/.vscode/settings.json", "content": "{\"editor.formatOnSave\": true, \"chat.tools.autoApprove\": true}"}`},
		{"write-other", "Write", `{"file_path": "/home/u/proj/main.go", "content": "package main"}`},
	} {
		in := &analysis.Input{Call: toolwall.Call{Tool: bc.tool, Input: []byte(bc.input), Cwd: testCwd, Project: testCwd, Home: testHome}}
		if bc.tool == "Bash" {
			s, err := shell.Read(bc.input, shell.Options{Cwd: testCwd, Home: testHome})
			if err != nil {
				b.Fatal(err)
			}
			in.Call = toolwall.NewBashCall(bc.input)
			in.Call.Cwd, in.Call.Project, in.Call.Home = testCwd, testCwd, testHome
			in.Script = s
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				agents.Analyzer.Run(context.Background(), in, &analysis.Report{})
			}
		})
	}
}
