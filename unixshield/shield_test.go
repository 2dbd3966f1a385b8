package unixshield

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// step is one line of testdata/scenarios.txt.
type step struct {
	line       int
	op         string
	times      int
	call       toolwall.Call
	action     string
	band       string
	score      string
	rules      []string
	thresholds *[2]float64
}

type scenario struct {
	name  string
	steps []step
}

func loadScenarios(t testing.TB) []scenario {
	t.Helper()
	var out []scenario
	for _, r := range rows.Read(t, "testdata/scenarios.txt", 0) {
		n, f := r.Line, r.Fields
		if name, ok := strings.CutPrefix(strings.Join(f, "\t"), "= "); ok {
			out = append(out, scenario{name: name})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("line %d: step before the first scenario", n)
		}
		cur := &out[len(out)-1]
		if f[0] == "thresholds" {
			w, _ := strconv.ParseFloat(f[1], 64)
			b, _ := strconv.ParseFloat(f[2], 64)
			cur.steps = append(cur.steps, step{line: n, op: "thresholds", thresholds: &[2]float64{w, b}})
			continue
		}
		if len(f) != 7 {
			t.Fatalf("line %d: want 7 tab-separated fields, got %d", n, len(f))
		}
		s := step{line: n, times: 1, action: f[3], band: f[4], score: f[5]}
		switch {
		case f[0] == "try":
			s.op = "try"
		case strings.HasPrefix(f[0], "run"):
			s.op = "run"
			if f[0] != "run" {
				var err error
				s.times, err = strconv.Atoi(strings.TrimPrefix(f[0], "run"))
				if err != nil {
					t.Fatalf("line %d: bad op %q", n, f[0])
				}
			}
		default:
			t.Fatalf("line %d: bad op %q", n, f[0])
		}
		s.call = makeCall(f[1], f[2])
		if f[6] != "-" {
			s.rules = strings.Split(f[6], ",")
		}
		cur.steps = append(cur.steps, s)
	}
	return out
}

// makeCall builds a call the way the scenario file describes its input.
func makeCall(tool, input string) toolwall.Call {
	if strings.HasPrefix(input, "{") {
		return toolwall.Call{Tool: tool, Input: json.RawMessage(input)}
	}
	key := "command"
	if tool == toolwall.ToolWrite || tool == toolwall.ToolEdit {
		key = "file_path"
	}
	in, _ := json.Marshal(map[string]string{key: input})
	return toolwall.Call{Tool: tool, Input: in}
}

func firedRules(s *Shield, c toolwall.Call) []string {
	var names []string
	for _, r := range s.Score(c).Rules {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	return names
}

func TestScenarios(t *testing.T) {
	ctx := context.Background()
	for _, sc := range loadScenarios(t) {
		t.Run(sc.name, func(t *testing.T) {
			b := NewBuilder()
			s := b.Build()
			var recent []toolwall.RecentCall
			for _, st := range sc.steps {
				if st.op == "thresholds" {
					s = b.WithThresholds(st.thresholds[0], st.thresholds[1]).Build()
					continue
				}
				for range st.times {
					c := st.call
					c.Recent = recent
					v := s.Evaluate(ctx, c)
					check(t, st, s, c, v)
					if st.op == "run" {
						s.RecordInvocation(ctx, c, true)
						recent = append(recent, toolwall.RecentCall{Tool: c.Tool})
						if len(recent) > HistorySize {
							recent = recent[1:]
						}
					}
				}
			}
		})
	}
}

func check(t *testing.T, st step, s *Shield, c toolwall.Call, v toolwall.Verdict) {
	t.Helper()
	where := fmt.Sprintf("line %d (%s %s)", st.line, c.Tool, c.Input)
	if st.action != "*" && v.Action.String() != st.action {
		t.Errorf("%s: action %s, want %s (score %.3f, reason %q)", where, v.Action, st.action, v.Score, v.Reason)
	}
	if st.band != "*" && v.Band.String() != st.band {
		t.Errorf("%s: band %s, want %s (score %.3f)", where, v.Band, st.band, v.Score)
	}
	if st.score != "*" {
		want, err := strconv.ParseFloat(st.score, 64)
		if err != nil {
			t.Fatalf("%s: bad score %q", where, st.score)
		}
		if math.Abs(v.Score-want) > 1e-9 {
			t.Errorf("%s: score %.4f, want %.4f", where, v.Score, want)
		}
	}
	if got := firedRules(s, c); !slices.Equal(got, st.rules) {
		t.Errorf("%s: combination rules %v, want %v", where, got, st.rules)
	}
	if v.Action == toolwall.Deny {
		if !strings.Contains(v.Reason, "was refused") || !strings.Contains(v.Reason, c.Summary()) {
			t.Errorf("%s: deny reason does not name the call and the refusal: %q", where, v.Reason)
		}
		if !slices.Contains(v.Rules(), "unixshield.pattern") && !slices.Contains(v.Rules(), "unixshield.combination") {
			t.Errorf("%s: deny without a pattern or combination finding: %v", where, v.Rules())
		}
	}
	for _, f := range v.Findings {
		if f.Action != v.Action || f.Analyzer != "unixshield" {
			t.Errorf("%s: finding %+v does not carry the verdict's action and analyzer", where, f)
		}
	}
}
