package persist_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/shell"
)

// FuzzAnalyze checks, on any command the reader accepts, that the
// analyzer does not panic, gives the same report twice, stays fast, and
// reports well-formed findings. Seeded from testdata/cases.tsv.
func FuzzAnalyze(f *testing.F) {
	for _, c := range analysistest.ReadTSV(f, "cases.tsv", 3) {
		f.Add(c.Fields[2], c.Fields[0] == "deny")
	}
	f.Fuzz(func(t *testing.T, command string, root bool) {
		s, err := shell.Read(command, shell.Options{Cwd: testCwd, Home: testHome})
		if err != nil {
			return
		}
		call := toolwall.NewBashCall(command)
		call.Cwd, call.Project, call.Home = testCwd, testCwd, testHome
		if root {
			call.Context = toolwall.RootContext
		}
		once := func() *analysis.Report {
			r := (&analysis.Report{}).For(persist.Analyzer.Name)
			persist.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
			return r
		}
		start := time.Now()
		a := once()
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("analysis took %v", d)
		}
		if b := once(); !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
		}
		if root && (len(a.Findings) > 0 || len(a.Effects) > 0) {
			t.Fatalf("reported in root context: %+v", a.Findings)
		}
		for _, fd := range a.Findings {
			if fd.Rule == "" || fd.Reason == "" || fd.Score < 0 || fd.Score > 1 {
				t.Fatalf("malformed finding %+v", fd)
			}
		}
	})
}
