package destroy

import (
	"context"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// TestExists runs testdata/exists.tsv with an existence oracle that knows
// every path: those the row lists (and their ancestors), /, the home and
// the project exist; nothing else does.
func TestExists(t *testing.T) {
	an := New(Options{SkipGit: true})
	for _, row := range analysistest.ReadTSV(t, "exists.tsv", 4) {
		expect, rule, existing, command := row.Fields[0], row.Fields[1], row.Fields[2], row.Fields[3]
		command, _, _ = strings.Cut(command, "\t")
		there := []string{testHome, testProject}
		if existing != "-" {
			for _, p := range strings.Split(existing, ",") {
				there = append(there, paths.Abs(p, testProject))
			}
		}
		var asked []string
		exists := func(p string) (bool, bool) {
			asked = append(asked, p)
			for _, e := range there {
				if paths.Under(e, p) {
					return true, true
				}
			}
			return false, true
		}
		s, err := shell.Read(command, shell.Options{Cwd: testProject, Home: testHome})
		if err != nil {
			t.Fatalf("exists.tsv:%d: %v", row.Line, err)
		}
		call := toolwall.NewBashCall(command)
		call.Cwd, call.Project, call.Home = testProject, testProject, testHome
		r := (&analysis.Report{}).For(an.Name)
		an.Run(context.Background(), &analysis.Input{Call: call, Script: s, Exists: exists}, r)
		has := rule == "-"
		var rules []string
		for _, f := range r.Findings {
			has = has || f.Rule == rule
			rules = append(rules, f.Rule)
		}
		if got := fuse(r); got.String() != expect || !has {
			t.Errorf("exists.tsv:%d: %q: got %s %v, want %s %s (oracle asked %v)", row.Line, command, got, rules, expect, rule, asked)
		}
		for _, p := range asked {
			if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/data") {
				t.Errorf("exists.tsv:%d: the oracle was asked about %q, not a path of this machine", row.Line, p)
			}
		}
	}
}
