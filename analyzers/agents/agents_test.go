package agents_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/agents"
)

const (
	testHome = "/home/u"
	testCwd  = "/home/u/proj"
)

// check holds one case to its expectation: the strongest action, a rule
// among the findings, and findings in the package's form.
func check(t *testing.T, where, what string, r *analysis.Report, expect, rule string) {
	t.Helper()
	got := analysistest.Strongest(r)
	if expect == "allow" {
		if len(r.Findings) > 0 {
			t.Errorf("%s %s: want no finding, got %+v", where, what, r.Findings)
		}
		return
	}
	want, err := toolwall.ParseAction(expect)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var rules []string
	for _, f := range r.Findings {
		rules = append(rules, f.Rule)
		if f.Analyzer != "agents" || !strings.HasPrefix(f.Rule, "agents.") || f.Reason == "" || len(f.Reason) > 600 ||
			f.Action == toolwall.Deny && f.Score != 0.95 || f.Action == toolwall.Ask && f.Score != 0.6 {
			t.Errorf("%s: malformed finding %+v", where, f)
		}
		if !strings.Contains(f.Reason, "was refused:") && !strings.Contains(f.Reason, "needs confirmation:") {
			t.Errorf("%s: reason does not say what happened: %q", where, f.Reason)
		}
	}
	if got != want || !slices.Contains(rules, rule) {
		t.Errorf("%s %s: want %v %s, got %v %v", where, what, want, rule, got, r.Findings)
	}
}

// TestCases runs testdata/cases.tsv: Bash calls.
func TestCases(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "cases.tsv", 3) {
		expect, rule, command := c.Fields[0], c.Fields[1], c.Fields[2]
		t.Run(fmt.Sprint(c.Line), func(t *testing.T) {
			r := analysistest.Bash(t, agents.Analyzer, command, analysistest.Places{Cwd: testCwd, Home: testHome}, toolwall.UserContext)
			check(t, fmt.Sprintf("cases.tsv:%d", c.Line), command, r, expect, rule)
		})
	}
}

// call runs the analyzer on a tool call with input in the test places.
func call(tool, input string, ctx toolwall.ExecContext) *analysis.Report {
	c := toolwall.Call{Tool: tool, Input: []byte(input), Cwd: testCwd, Project: testCwd, Home: testHome, Context: ctx}
	r := (&analysis.Report{}).For(agents.Analyzer.Name)
	agents.Analyzer.Run(context.Background(), &analysis.Input{Call: c}, r)
	return r
}

// TestCalls runs testdata/calls.tsv: Write, Edit and MultiEdit calls.
func TestCalls(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "calls.tsv", 4) {
		expect, rule, tool, input := c.Fields[0], c.Fields[1], c.Fields[2], c.Fields[3]
		t.Run(fmt.Sprint(c.Line), func(t *testing.T) {
			check(t, fmt.Sprintf("calls.tsv:%d", c.Line), tool+" "+input, call(tool, input, toolwall.UserContext), expect, rule)
		})
	}
}

// TestRootContext: the privileged helper gets nothing from this analyzer.
func TestRootContext(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "calls.tsv", 4) {
		if r := call(c.Fields[2], c.Fields[3], toolwall.RootContext); len(r.Findings) > 0 {
			t.Errorf("calls.tsv:%d: RootContext reported %v", c.Line, r.Findings)
		}
	}
	for _, c := range analysistest.ReadTSV(t, "cases.tsv", 3) {
		r := analysistest.Bash(t, agents.Analyzer, c.Fields[2], analysistest.Places{Cwd: testCwd, Home: testHome}, toolwall.RootContext)
		if len(r.Findings) > 0 {
			t.Errorf("cases.tsv:%d: RootContext reported %v", c.Line, r.Findings)
		}
	}
}

// TestMalformed: inputs that are not what the tool sends yield nothing
// or an ask, never a panic.
func TestMalformed(t *testing.T) {
	for _, in := range []string{``, `{`, `null`, `{"file_path": 3}`, `{"file_path": "/home/u/proj/.mcp.json"}`,
		`{"file_path": "/home/u/proj/.claude/settings.json", "edits": "x"}`} {
		for _, tool := range []string{"Write", "Edit", "MultiEdit"} {
			if r := call(tool, in, toolwall.UserContext); analysistest.Strongest(r) == toolwall.Deny {
				t.Errorf("%s %s: denied %v", tool, in, r.Findings)
			}
		}
	}
	agents.Analyzer.Run(context.Background(), nil, &analysis.Report{})
	agents.Analyzer.Run(context.Background(), &analysis.Input{Call: toolwall.NewBashCall("x")}, &analysis.Report{})
}
