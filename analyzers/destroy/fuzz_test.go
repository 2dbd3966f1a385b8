package destroy

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// FuzzAnalyze checks, on any command the reader accepts, that the analyzer
// does not panic, gives the same report twice, and stays fast, with and
// without an existence oracle (a fake one: it must not read the file
// system either). The git check is off: the fuzzer must not run programs.
func FuzzAnalyze(f *testing.F) {
	for _, file := range []string{"testdata/cases.tsv", "testdata/root.tsv", "testdata/git.tsv", "testdata/gaps.tsv", "testdata/git-exists.tsv"} {
		for _, c := range readCases(f, file) {
			f.Add(c.command, c.expect == "deny", c.expect == "allow")
		}
	}
	an := New(Options{SkipGit: true})
	f.Fuzz(func(t *testing.T, command string, root, oracle bool) {
		s, err := shell.Read(command, shell.Options{Cwd: testProject, Home: testHome})
		if err != nil {
			return
		}
		call := toolwall.NewBashCall(command)
		call.Cwd, call.Project, call.Home = testProject, testProject, testHome
		if root {
			call.Context = toolwall.RootContext
		}
		in := &analysis.Input{Call: call, Script: s}
		if oracle {
			in.Exists = func(p string) (bool, bool) { return len(p)%2 == 0, len(p)%3 != 0 }
		}
		once := func() *analysis.Report {
			r := (&analysis.Report{}).For(an.Name)
			an.Run(context.Background(), in, r)
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
		for _, fd := range a.Findings {
			if fd.Rule == "" || fd.Reason == "" || fd.Score < 0 || fd.Score > 1 {
				t.Fatalf("malformed finding %+v", fd)
			}
		}
	})
}
