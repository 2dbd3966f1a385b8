package chain

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

type chainCase struct {
	Name    string              `json:"name"`
	History [][]toolwall.Effect `json:"history"`
	Current []toolwall.Effect   `json:"current"`
	Rules   []string            `json:"rules"`
	Action  string              `json:"action"`
}

func steps(h [][]toolwall.Effect) []Step {
	var out []Step
	for i, es := range h {
		out = append(out, Step{Summary: fmt.Sprintf("call %d", i+1), Turn: 1, Effects: es})
	}
	return out
}

func TestChains(t *testing.T) {
	b, err := os.ReadFile("testdata/chains.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []chainCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			fs := Evaluate(Rules, steps(c.History), c.Current, 0.3)
			var ids []string
			for _, f := range fs {
				ids = append(ids, f.Rule)
				if f.Action.String() != c.Action {
					t.Errorf("%s: action %v, want %s", f.Rule, f.Action, c.Action)
				}
				if f.Score <= 0.3 || f.Score > 1 {
					t.Errorf("%s: score %.2f not above the base", f.Rule, f.Score)
				}
				if !strings.Contains(f.Reason, "`call ") || !strings.Contains(f.Reason, "then this call") {
					t.Errorf("%s: reason does not name the arming calls: %q", f.Rule, f.Reason)
				}
			}
			if !slices.Equal(ids, c.Rules) && !(len(ids) == 0 && len(c.Rules) == 0) {
				t.Errorf("fired %v, want %v", ids, c.Rules)
			}
		})
	}
}

// TestOrderMatters checks the tool shield's ordering on random histories
// against an independent oracle for the two-link rules: a chain fires
// only when its first link ran in an earlier call and its last link is
// the current call, never the other way round.
func TestOrderMatters(t *testing.T) {
	tags := []toolwall.Tag{toolwall.TagDownloadFile, toolwall.TagExecLocal, toolwall.TagSensitiveRead, toolwall.TagEgress}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + r.IntN(4)
		var h [][]toolwall.Effect
		for range n {
			h = append(h, []toolwall.Effect{{Tag: tags[r.IntN(len(tags))], Path: "/p"}})
		}
		cur := []toolwall.Effect{{Tag: tags[r.IntN(len(tags))], Path: "/p"}}
		fired := len(Evaluate(Rules, steps(h), cur, 0)) > 0
		// Oracle: a two-link rule fires iff some earlier step has link 0's
		// tag and the current call has link 1's tag.
		want := false
		for _, rule := range Rules[:4] {
			if !slices.ContainsFunc(cur, func(e toolwall.Effect) bool { return e.Tag == rule.Links[1].Tag }) {
				continue
			}
			for _, s := range h {
				if s[0].Tag == rule.Links[0].Tag && rule.Links[0].Detail == "" {
					want = true
				}
			}
		}
		if fired != want {
			t.Fatalf("history %v current %v: fired %v, oracle %v", h, cur, fired, want)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	var h []Step
	for i := range 20 {
		h = append(h, Step{Summary: "ls", Turn: i, Effects: []toolwall.Effect{{Tag: toolwall.TagPermInspect}, {Tag: toolwall.TagDownloadStdout}}})
	}
	cur := []toolwall.Effect{{Tag: toolwall.TagExecLocal, Path: "/w/x.sh"}, {Tag: toolwall.TagEgress}}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(Rules, h, cur, 0.2)
	}
}
