package persist_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/persist"
)

const (
	testHome = "/home/u"
	testCwd  = "/home/u/proj"
)

// analyze reads command as the gate would and runs the persist analyzer.
func analyze(t testing.TB, command string, ctx toolwall.ExecContext) *analysis.Report {
	t.Helper()
	return analysistest.Bash(t, persist.Analyzer, command, analysistest.Places{Cwd: testCwd, Home: testHome}, ctx)
}

// TestCases runs testdata/cases.tsv: expect<TAB>rule<TAB>command, where
// expect is the strongest action (allow = no finding) and rule must be
// among the findings ("-" for none).
func TestCases(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "cases.tsv", 3) {
		expect, rule, command := c.Fields[0], c.Fields[1], c.Fields[2]
		t.Run(fmt.Sprint(c.Line), func(t *testing.T) {
			r := analyze(t, command, toolwall.UserContext)
			if expect == "allow" {
				if len(r.Findings) > 0 {
					t.Fatalf("cases.tsv:%d %q: want no finding, got %+v", c.Line, command, r.Findings)
				}
				return
			}
			want, err := toolwall.ParseAction(expect)
			if err != nil {
				t.Fatalf("cases.tsv:%d: %v", c.Line, err)
			}
			if got := analysistest.Strongest(r); got != want {
				t.Fatalf("cases.tsv:%d %q: want %v, got %v: %+v", c.Line, command, want, got, r.Findings)
			}
			var rules []string
			for _, f := range r.Findings {
				rules = append(rules, f.Rule)
				checkFinding(t, f)
			}
			if !slices.Contains(rules, rule) {
				t.Fatalf("cases.tsv:%d %q: want rule %s, got %v", c.Line, command, rule, rules)
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
	if !strings.HasPrefix(f.Reason, "`") || !(strings.Contains(f.Reason, "` was refused: ") || strings.Contains(f.Reason, "` needs confirmation: ") || strings.Contains(f.Reason, "`) needs confirmation: ") || strings.Contains(f.Reason, "`) was refused: ") || strings.Contains(f.Reason, "` was allowed with a warning: ")) || !strings.HasSuffix(f.Reason, ".") {
		t.Errorf("reason not in the form \"`cmd` was refused: why. instead.\": %q", f.Reason)
	}
}

// TestRoot: in RootContext nothing is reported.
func TestRoot(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "root.txt", 1) {
		cmd := c.Fields[0]
		if r := analyze(t, cmd, toolwall.UserContext); len(r.Findings) == 0 {
			t.Errorf("root.txt:%d %q: reports nothing in user context; the case tests nothing", c.Line, cmd)
		}
		if r := analyze(t, cmd, toolwall.RootContext); len(r.Findings) > 0 || len(r.Effects) > 0 {
			t.Errorf("root.txt:%d %q: reported in root context: %+v", c.Line, cmd, r.Findings)
		}
	}
}

// TestEffects runs testdata/effects.tsv: +|-<TAB>tag<TAB>path<TAB>command:
// a risk tag (with that path, "-" for any) that must or must not be
// attached.
func TestEffects(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "effects.tsv", 4) {
		sign, tag, p, command := c.Fields[0], toolwall.Tag(c.Fields[1]), c.Fields[2], c.Fields[3]
		r := analyze(t, command, toolwall.UserContext)
		found := false
		for _, e := range r.Effects {
			found = found || e.Tag == tag && (p == "-" || e.Path == p)
		}
		if found != (sign == "+") {
			t.Errorf("effects.tsv:%d %q: tag %s %s: want %s, got effects %+v", c.Line, command, tag, p, sign, r.Effects)
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
