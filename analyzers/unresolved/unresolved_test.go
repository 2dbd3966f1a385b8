package unresolved

import (
	"context"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/shell"
)

func judge(t testing.TB, cmd string, root bool) toolwall.Action {
	ctx := toolwall.UserContext
	if root {
		ctx = toolwall.RootContext
	}
	rep := analysistest.Bash(t, Analyzer, cmd, analysistest.Places{Cwd: "/workspace/app", Home: "/home/user"}, ctx)
	for _, f := range rep.Findings {
		if f.Reason == "" || f.Rule != RuleCommand {
			t.Errorf("%q: malformed finding %+v", cmd, f)
		}
	}
	return analysistest.Strongest(rep)
}

func TestCases(t *testing.T) {
	n := 0
	for _, r := range rows.Read(t, "testdata/cases.tsv", 0) {
		want, cmd := r.Fields[0], strings.Join(r.Fields[1:], "\t")
		if got := judge(t, cmd, false); got.String() != want {
			t.Errorf("%q: %v, want %s", cmd, got, want)
		}
		if got := judge(t, cmd, true); got != toolwall.Allow {
			t.Errorf("%q in root context: %v", cmd, got)
		}
		n++
	}
	if n < 15 {
		t.Fatalf("%d cases", n)
	}
}

func FuzzUnresolved(f *testing.F) {
	f.Add("$x -rf ~")
	f.Add("/usr/bin/r[m] x")
	f.Fuzz(func(t *testing.T, cmd string) {
		if _, err := shell.Read(cmd, shell.Options{Cwd: "/w", Home: "/h"}); err != nil {
			return
		}
		if judge(t, cmd, false) != judge(t, cmd, false) {
			t.Fatal("not deterministic")
		}
	})
}

func BenchmarkRun(b *testing.B) {
	s, _ := shell.Read("cd src && go test ./... 2>&1 | tail -20", shell.Options{Cwd: "/w", Home: "/h"})
	in := &analysis.Input{Call: toolwall.NewBashCall("x"), Script: s}
	b.ReportAllocs()
	for b.Loop() {
		Analyzer.Run(context.Background(), in, &analysis.Report{})
	}
}
