package gate

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

type fusionCase struct {
	Name     string             `json:"name"`
	Warn     float64            `json:"warn"`
	Block    float64            `json:"block"`
	Disabled []string           `json:"disabled"`
	Findings []toolwall.Finding `json:"findings"`
	Action   toolwall.Action    `json:"action"`
	Band     toolwall.Band      `json:"band"`
	Score    float64            `json:"score"`
	Rules    []string           `json:"rules"`
	Reason   string             `json:"reason"`
}

// fixed returns an analyzer that reports fs on Bash calls.
func fixed(fs []toolwall.Finding) *analysis.Analyzer {
	return &analysis.Analyzer{Name: "fixed", Tools: []string{toolwall.ToolBash}, Run: func(_ context.Context, _ *analysis.Input, r *analysis.Report) {
		for _, f := range fs {
			r.Add(f)
		}
	}}
}

func TestFusion(t *testing.T) {
	b, err := os.ReadFile("testdata/fusion.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []fusionCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			opts := Options{Analyzers: []*analysis.Analyzer{fixed(c.Findings)}, Disabled: c.Disabled}
			if c.Warn != 0 {
				opts.Thresholds, _ = toolwall.NewThresholds(c.Warn, c.Block)
			}
			v := New(opts).Evaluate(context.Background(), toolwall.NewBashCall("true"))
			if v.Action != c.Action || v.Band != c.Band || v.Score != c.Score {
				t.Errorf("got %v %v %.2f, want %v %v %.2f", v.Action, v.Band, v.Score, c.Action, c.Band, c.Score)
			}
			if c.Rules != nil && !slices.Equal(v.Rules(), c.Rules) {
				t.Errorf("rules %v, want %v", v.Rules(), c.Rules)
			}
			if c.Reason != "" && v.Reason != c.Reason {
				t.Errorf("reason %q, want %q", v.Reason, c.Reason)
			}
			if v.Action != toolwall.Allow && v.Reason == "" {
				t.Error("a verdict that is not allow has no reason")
			}
			for _, f := range v.Findings {
				if f.Analyzer != "fixed" {
					t.Errorf("finding %s not stamped with its analyzer: %q", f.Rule, f.Analyzer)
				}
			}
		})
	}
}

func TestReadFailures(t *testing.T) {
	g := New(Options{Analyzers: []*analysis.Analyzer{fixed(nil)}})
	tests := []struct {
		name string
		call toolwall.Call
		want toolwall.Action
		rule string
	}{
		{"does not parse", toolwall.NewBashCall("echo 'unterminated"), toolwall.Warn, "shell.parse-error"},
		{"too large", toolwall.NewBashCall(strings.Repeat("echo hi; ", 20000)), toolwall.Deny, "shell.limit"},
		{"no command field", toolwall.Call{Tool: "Bash", Input: json.RawMessage(`{"cmd":"ls"}`)}, toolwall.Deny, "input.malformed"},
		{"command not a string", toolwall.Call{Tool: "Bash", Input: json.RawMessage(`{"command":["rm","-rf","/"]}`)}, toolwall.Deny, "input.malformed"},
		{"input not JSON", toolwall.Call{Tool: "Bash", Input: json.RawMessage(`rm -rf /`)}, toolwall.Deny, "input.malformed"},
		{"empty command", toolwall.NewBashCall("   "), toolwall.Allow, ""},
		{"unknown tool passes", toolwall.Call{Tool: "Glob", Input: json.RawMessage(`{"pattern":"**"}`)}, toolwall.Allow, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := g.Evaluate(context.Background(), tt.call)
			if v.Action != tt.want || (tt.rule != "" && !slices.Contains(v.Rules(), tt.rule)) {
				t.Errorf("got %v %v (%s), want %v %s", v.Action, v.Rules(), v.Reason, tt.want, tt.rule)
			}
		})
	}
}

func TestFailClosed(t *testing.T) {
	boom := &analysis.Analyzer{Name: "boom", Tools: []string{"Bash"}, Run: func(context.Context, *analysis.Input, *analysis.Report) { panic("kaboom") }}
	v := New(Options{Analyzers: []*analysis.Analyzer{boom}}).Evaluate(context.Background(), toolwall.NewBashCall("ls"))
	if v.Action != toolwall.Deny || !strings.Contains(v.Reason, "kaboom") {
		t.Errorf("panicking analyzer: %v %q, want deny naming the panic", v.Action, v.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v = New(Options{Analyzers: []*analysis.Analyzer{fixed(nil)}}).Evaluate(ctx, toolwall.NewBashCall("ls"))
	if v.Action != toolwall.Deny || !slices.Contains(v.Rules(), "gate.cancelled") {
		t.Errorf("cancelled: %v %v, want deny gate.cancelled", v.Action, v.Rules())
	}
}

func TestNormalizeAndWatched(t *testing.T) {
	c := Normalize(toolwall.Call{Tool: "Bash", Project: "/w/app/", Home: "/home/u//"})
	if c.Cwd != "/w/app" || c.Project != "/w/app" || c.Home != "/home/u" || c.Context != toolwall.UserContext {
		t.Errorf("Normalize = %+v", c)
	}
	if c := Normalize(toolwall.Call{}); c.Cwd != "/" || c.Project != "/" {
		t.Errorf("Normalize(empty) = %+v", c)
	}
	a := &analysis.Analyzer{Name: "w", Tools: []string{"Write", "Bash"}, Run: func(context.Context, *analysis.Input, *analysis.Report) {}}
	if got := New(Options{Analyzers: []*analysis.Analyzer{a, fixed(nil)}}).WatchedTools(); !slices.Equal(got, []string{"Bash", "Write"}) {
		t.Errorf("WatchedTools = %v", got)
	}
}
