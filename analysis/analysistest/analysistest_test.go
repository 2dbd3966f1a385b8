package analysistest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

func TestHelpers(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "testdata", "t.tsv"), []byte("# comment\n\nask\tx\tls\\nrm\n"), 0o644)
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	rows := ReadTSV(t, "t.tsv", 3)
	if len(rows) != 1 || rows[0].Line != 3 || rows[0].Fields[2] != "ls\nrm" {
		t.Fatalf("rows = %+v", rows)
	}

	var seen []string
	a := &analysis.Analyzer{Name: "probe", Tools: []string{"Bash"}, Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
		for _, c := range in.Script.Commands {
			seen = append(seen, c.String())
		}
		r.Add(toolwall.Finding{Rule: "p.x", Action: toolwall.Ask})
		r.Add(toolwall.Finding{Rule: "p.y", Action: toolwall.Warn})
	}}
	r := Bash(t, a, "rm -rf ~", Places{Cwd: "/w", Home: "/h"}, toolwall.UserContext)
	if Strongest(r) != toolwall.Ask || len(seen) != 1 || seen[0] != "rm -rf /h" || r.Findings[0].Analyzer != "probe" {
		t.Errorf("strongest %v, seen %q, findings %+v", Strongest(r), seen, r.Findings)
	}
	if Strongest(&analysis.Report{}) != toolwall.Allow {
		t.Error("empty report is not allow")
	}
}
