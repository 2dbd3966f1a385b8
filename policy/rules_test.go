package policy_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/policy"
)

func loadRules(t testing.TB) *policy.Config {
	b, err := os.ReadFile("testdata/rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := policy.Parse("rules.toml", b)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestRulesAndAllowlist runs testdata/calls.tsv: the custom rules as the
// gate's analyzer, then Policy.Apply with the operator's allowlist over a
// gate verdict given in the last column.
func TestRulesAndAllowlist(t *testing.T) {
	pol := policy.New(loadRules(t))
	g := gate.New(gate.Options{Analyzers: []*analysis.Analyzer{pol.Analyzer()}})
	for _, row := range analysistest.ReadTSV(t, "calls.tsv", 5) {
		want, project, tool, input, prior := row.Fields[0], row.Fields[1], row.Fields[2], row.Fields[3], row.Fields[4]
		call := toolwall.NewBashCall(input)
		if tool != toolwall.ToolBash {
			call = toolwall.Call{Tool: tool, Input: json.RawMessage(input)}
		}
		call.Cwd, call.Project, call.Home = project, project, "/home/user"
		v := g.Evaluate(context.Background(), call)
		if prior != "-" {
			for _, f := range strings.Split(prior, ",") {
				rule, act, _ := strings.Cut(f, ":")
				a, _ := toolwall.ParseAction(act)
				v.Findings = append(v.Findings, toolwall.Finding{Rule: rule, Action: a, Score: 0.6})
				v.Action = toolwall.Stricter(v.Action, a)
				v.Score = max(v.Score, 0.6)
			}
		}
		v = pol.Apply(call, v)
		if v.Action.String() != want {
			t.Errorf("line %d: %s %s %s: %s %v %v, want %s", row.Line, project, tool, input, v.Action, v.Rules(), v.Notes, want)
		}
	}
}
