package destroy

import (
	"context"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/shell"
)

const (
	testHome    = "/home/user"
	testProject = "/workspace/app"
)

// tcase is one line of a testdata TSV file.
type tcase struct {
	line                  int
	expect, rule, command string
	note                  string
}

// readCases reads expect<TAB>rule<TAB>command[<TAB>note] lines; "#" lines
// and blank lines are skipped, and "\n" in command stands for a newline.
func readCases(t testing.TB, file string) []tcase {
	t.Helper()
	var out []tcase
	for _, r := range rows.ReadMin(t, file, 3) {
		cols := r.Fields
		c := tcase{line: r.Line, expect: cols[0], rule: cols[1], command: strings.ReplaceAll(cols[2], `\n`, "\n")}
		if len(cols) > 3 {
			c.note = cols[3]
		}
		out = append(out, c)
	}
	return out
}

// analyze reads command as the gate would and runs an analyzer on it.
func analyze(t testing.TB, an *analysis.Analyzer, command string, ctx toolwall.ExecContext) (*analysis.Report, error) {
	t.Helper()
	s, err := shell.Read(command, shell.Options{Cwd: testProject, Home: testHome})
	if err != nil {
		return nil, err
	}
	call := toolwall.NewBashCall(command)
	call.Cwd, call.Project, call.Home, call.Context = testProject, testProject, testHome, ctx
	r := (&analysis.Report{}).For(an.Name)
	an.Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
	return r, nil
}

// fuse is the gate's rule: the maximum of every finding's floor and the
// action of the band of the highest score (default thresholds).
func fuse(r *analysis.Report) toolwall.Action {
	act, top := toolwall.Allow, 0.0
	for _, f := range r.Findings {
		act = toolwall.Stricter(act, f.Action)
		top = max(top, f.Score)
	}
	return toolwall.Stricter(act, toolwall.DefaultThresholds().Band(top).Action())
}

func runFile(t *testing.T, file string, ctx toolwall.ExecContext) {
	an := New(Options{SkipGit: true})
	for _, c := range readCases(t, file) {
		t.Run(c.command, func(t *testing.T) {
			r, err := analyze(t, an, c.command, ctx)
			if c.expect == "unparsed" {
				if err == nil {
					t.Errorf("%s:%d: %q parsed; want a shell.Read error", file, c.line, c.command)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s:%d: shell.Read: %v", file, c.line, err)
			}
			got := fuse(r)
			var rules []string
			has := false
			for _, f := range r.Findings {
				rules = append(rules, f.Rule)
				has = has || f.Rule == c.rule
				if f.Analyzer != "destroy" || f.Reason == "" || !strings.Contains(f.Reason, "`") {
					t.Errorf("%s:%d: finding %+v: want analyzer destroy and a reason quoting the command", file, c.line, f)
				}
			}
			if got.String() != c.expect || (c.rule != "-" && !has) {
				t.Errorf("%s:%d: %q (%s): got %s %v, want %s %s", file, c.line, c.command, c.note, got, rules, c.expect, c.rule)
				for _, f := range r.Findings {
					t.Logf("  %s: %s", f.Rule, f.Reason)
				}
			}
		})
	}
}

func TestCases(t *testing.T) { runFile(t, "testdata/cases.tsv", toolwall.UserContext) }

func TestRootContext(t *testing.T) { runFile(t, "testdata/root.tsv", toolwall.RootContext) }

// TestReaderGaps runs the routes of testdata/gaps.tsv, which this analyzer
// cannot stop until the shell reader sees the commands they run. Each row
// must still miss its expectation; one that reaches it is reported so it
// moves to cases.tsv and is guarded from then on.
func TestReaderGaps(t *testing.T) {
	an := New(Options{SkipGit: true})
	for _, c := range readCases(t, "testdata/gaps.tsv") {
		r, err := analyze(t, an, c.command, toolwall.UserContext)
		if err != nil {
			continue
		}
		has := c.rule == "-"
		for _, f := range r.Findings {
			has = has || f.Rule == c.rule
		}
		if fuse(r).String() == c.expect && has {
			t.Errorf("testdata/gaps.tsv:%d: %q now gives %s %s: move the row to cases.tsv", c.line, c.command, c.expect, c.rule)
		}
	}
}
