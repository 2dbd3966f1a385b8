package persist_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/shell"
)

const (
	testHome = "/home/u"
	testCwd  = "/home/u/proj"
)

// analyze reads command as the gate would and runs the analyzer.
func analyze(t testing.TB, command string, ctx toolwall.ExecContext) *analysis.Report {
	t.Helper()
	call := toolwall.NewBashCall(command)
	call.Cwd, call.Project, call.Home, call.Context = testCwd, testCwd, testHome, ctx
	script, err := shell.Read(command, shell.Options{Cwd: testCwd, Home: testHome})
	if err != nil {
		t.Fatalf("shell.Read(%q): %v", command, err)
	}
	r := (&analysis.Report{}).For(persist.Analyzer.Name)
	persist.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
	return r
}

// strongest returns the most severe action among the findings.
func strongest(r *analysis.Report) toolwall.Action {
	a := toolwall.Allow
	for _, f := range r.Findings {
		a = toolwall.Stricter(a, f.Action)
	}
	return a
}

type row struct {
	line   int
	fields []string
}

// readTSV reads a tab-separated file of testdata, skipping blank lines and
// "#" comments. A literal "\n" in the last field stands for a newline.
func readTSV(t testing.TB, name string, cols int) []row {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.SplitN(line, "\t", cols)
		if len(fs) != cols {
			t.Fatalf("%s:%d: want %d tab-separated fields, got %d", name, n, cols, len(fs))
		}
		fs[cols-1] = strings.ReplaceAll(fs[cols-1], `\n`, "\n")
		rows = append(rows, row{n, fs})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCases runs testdata/cases.tsv: expect<TAB>rule<TAB>command, where
// expect is the strongest action (allow = no finding) and rule must be
// among the findings ("-" for none).
func TestCases(t *testing.T) {
	for _, c := range readTSV(t, "cases.tsv", 3) {
		expect, rule, command := c.fields[0], c.fields[1], c.fields[2]
		t.Run(fmt.Sprint(c.line), func(t *testing.T) {
			r := analyze(t, command, toolwall.UserContext)
			if expect == "allow" {
				if len(r.Findings) > 0 {
					t.Fatalf("cases.tsv:%d %q: want no finding, got %+v", c.line, command, r.Findings)
				}
				return
			}
			want, err := toolwall.ParseAction(expect)
			if err != nil {
				t.Fatalf("cases.tsv:%d: %v", c.line, err)
			}
			if got := strongest(r); got != want {
				t.Fatalf("cases.tsv:%d %q: want %v, got %v: %+v", c.line, command, want, got, r.Findings)
			}
			var rules []string
			for _, f := range r.Findings {
				rules = append(rules, f.Rule)
				checkFinding(t, f)
			}
			if !slices.Contains(rules, rule) {
				t.Fatalf("cases.tsv:%d %q: want rule %s, got %v", c.line, command, rule, rules)
			}
		})
	}
}

// checkFinding holds a finding to the conventions: analyzer name, score
// per action, a rule id of the package's areas, a reason that quotes the
// command and says what to do.
func checkFinding(t *testing.T, f toolwall.Finding) {
	t.Helper()
	if f.Analyzer != "persist" {
		t.Errorf("finding without analyzer name: %+v", f)
	}
	switch {
	case f.Action == toolwall.Deny && f.Score != 0.95,
		f.Action == toolwall.Ask && (f.Score < 0.5 || f.Score > 0.65),
		f.Action == toolwall.Warn && (f.Score < 0.4 || f.Score > 0.5):
		t.Errorf("score %v does not fit action %v: %+v", f.Score, f.Action, f)
	}
	area, _, _ := strings.Cut(f.Rule, ".")
	if area != "persist" && area != "defense" && area != "creddump" {
		t.Errorf("rule %q outside the package's areas", f.Rule)
	}
	if !strings.HasPrefix(f.Reason, "`") || !(strings.Contains(f.Reason, "` was refused: ") || strings.Contains(f.Reason, "` needs confirmation: ") || strings.Contains(f.Reason, "` was allowed with a warning: ")) || !strings.HasSuffix(f.Reason, ".") {
		t.Errorf("reason not in the form \"`cmd` was refused: why. instead.\": %q", f.Reason)
	}
}

// TestRoot: in RootContext nothing is reported (seed 004).
func TestRoot(t *testing.T) {
	for _, c := range readTSV(t, "root.txt", 1) {
		cmd := c.fields[0]
		if r := analyze(t, cmd, toolwall.UserContext); len(r.Findings) == 0 {
			t.Errorf("root.txt:%d %q: reports nothing in user context; the case tests nothing", c.line, cmd)
		}
		if r := analyze(t, cmd, toolwall.RootContext); len(r.Findings) > 0 || len(r.Effects) > 0 {
			t.Errorf("root.txt:%d %q: reported in root context: %+v", c.line, cmd, r.Findings)
		}
	}
}

// TestEffects runs testdata/effects.tsv: +|-<TAB>tag<TAB>path<TAB>command:
// a risk tag (with that path, "-" for any) that must or must not be
// attached.
func TestEffects(t *testing.T) {
	for _, c := range readTSV(t, "effects.tsv", 4) {
		sign, tag, p, command := c.fields[0], toolwall.Tag(c.fields[1]), c.fields[2], c.fields[3]
		r := analyze(t, command, toolwall.UserContext)
		found := false
		for _, e := range r.Effects {
			found = found || e.Tag == tag && (p == "-" || e.Path == p)
		}
		if found != (sign == "+") {
			t.Errorf("effects.tsv:%d %q: tag %s %s: want %s, got effects %+v", c.line, command, tag, p, sign, r.Effects)
		}
	}
}

// TestNilInput: a call without a script (not Bash, or unparsed) yields
// nothing and does not panic.
func TestNilInput(t *testing.T) {
	r := &analysis.Report{}
	persist.Analyzer.Run(context.Background(), &analysis.Input{Call: toolwall.NewBashCall("x")}, r)
	persist.Analyzer.Run(context.Background(), nil, r)
	if len(r.Findings) > 0 {
		t.Fatalf("findings without a script: %+v", r.Findings)
	}
}
