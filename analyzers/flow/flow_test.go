package flow_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/flow"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/provenance"
)

// TestCalls reads testdata/calls.tsv: each command's rule and the flow
// effects it gives (every effect of the tags listed there, in any order).
func TestCalls(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/calls.tsv", 3) {
		f := r.Fields
		r := analysistest.Bash(t, flow.Analyzer, f[0], analysistest.Places{Cwd: "/w", Home: "/h"}, toolwall.UserContext)
		var rules []string
		for _, fd := range r.Findings {
			rules = append(rules, fd.Rule)
		}
		if want := f[1]; want == "-" && len(rules) > 0 || want != "-" && !slices.Contains(rules, want) {
			t.Errorf("%s: rules %v, want %s", f[0], rules, want)
		}
		var got []string
		for _, e := range r.Effects {
			s := string(e.Tag) + ":" + e.Path
			if provenance.Carries(e.Tag) {
				var kinds []string
				for _, st := range provenance.Decode(e.Detail) {
					kinds = append(kinds, string(st.Kind))
				}
				s += "=" + strings.Join(kinds, ">")
			}
			got = append(got, s)
		}
		want := strings.Fields(f[2])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", f[0], got, want)
		}
	}
}
