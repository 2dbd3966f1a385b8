package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// stub decides on markers; "ARM" recorded in a session makes the next
// call in that session a deny.
type stub struct{ armed map[string]bool }

func (s *stub) Evaluate(_ context.Context, c toolwall.Call) toolwall.Verdict {
	cmd, _ := c.Command()
	switch {
	case strings.Contains(cmd, "STUB-DENY"), s.armed[c.Session]:
		return toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "stub.deny"}}}
	case strings.Contains(cmd, "STUB-ASK"):
		return toolwall.Verdict{Action: toolwall.Ask}
	case strings.Contains(cmd, "STUB-WARN"):
		return toolwall.Verdict{Action: toolwall.Warn}
	}
	return toolwall.Verdict{}
}

func (s *stub) RecordInvocation(_ context.Context, c toolwall.Call, _ bool) {
	if cmd, _ := c.Command(); cmd == "ARM" {
		s.armed[c.Session] = true
	}
}

func (s *stub) WatchedTools() []string { return []string{"Bash"} }

func newStub() toolwall.Shield { return &stub{armed: map[string]bool{}} }

func TestRun(t *testing.T) {
	files := []string{"testdata/mini.jsonl", "testdata/mini.tsv", "testdata/mini.txt"}
	cases := map[string][]Case{}
	for _, f := range files {
		cs, err := ReadFile(f, "allow")
		if err != nil {
			t.Fatal(err)
		}
		cases[f] = cs
	}
	r := &Runner{Shield: newStub(), Fresh: newStub}
	rep, err := r.Run(context.Background(), files, cases)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != (Counts{Cases: 14, Passed: 11, Failed: 3}) {
		t.Errorf("total = %+v", rep.Total)
	}
	var ids []string
	for _, f := range rep.Failures {
		ids = append(ids, f.ID)
	}
	if got := strings.Join(ids, " "); got != "m5 mini.tsv:5 mini.txt:4" {
		t.Errorf("failures = %q", got)
	}
	if be := rep.Files[1].ByExpect["deny"]; be.Got["deny"] != 1 || be.Passed != 1 {
		t.Errorf("tsv by expect deny = %+v", be)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "total: 14 cases, 11 passed, 3 failed") {
		t.Errorf("text report:\n%s", buf.String())
	}
	b, _ := json.Marshal(rep)
	for _, k := range []string{`"total":{"cases":14,"passed":11,"failed":3}`, `"failures":[{"id":"m5"`, `"rules":["stub.deny"]`} {
		if !bytes.Contains(b, []byte(k)) {
			t.Errorf("json report lacks %s: %s", k, b)
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, body, expect, want string }{
		{"x.txt", "ls\n", "", "need an expectation"},
		{"x.tsv", "ls\n", "", "expected<TAB>command"},
		{"x.tsv", "maybe\tls\n", "", "unknown expectation"},
		{"x.jsonl", "{\n", "", "x.jsonl:1"},
		{"x.jsonl", `{"id":"a","command":"ls","expect":"perhaps"}` + "\n", "", "unknown expectation"},
	}
	for _, tt := range tests {
		_, err := Read(tt.name, strings.NewReader(tt.body), tt.expect)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: err = %v, want %q", tt.name, tt.body, err, tt.want)
		}
	}
}

func TestMatches(t *testing.T) {
	want := map[string]string{"allow": "allow warn", "warn": "warn", "ask": "ask", "deny": "deny", "block": "deny", "stop": "ask deny", "nope": ""}
	for exp, w := range want {
		var got []string
		for _, a := range []toolwall.Action{toolwall.Allow, toolwall.Warn, toolwall.Ask, toolwall.Deny} {
			if Matches(exp, a) {
				got = append(got, a.String())
			}
		}
		if strings.Join(got, " ") != w {
			t.Errorf("Matches(%q) = %v, want %q", exp, got, w)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("x.jsonl", `{"id":"a","command":"ls","expect":"allow","history":[{"tool":"Bash","command":"x"}]}`)
	f.Add("x.tsv", "deny\trm -rf /\n")
	f.Add("x.txt", "ls\n")
	f.Fuzz(func(t *testing.T, name, body string) {
		cs, err := Read(name, strings.NewReader(body), "stop")
		if err != nil {
			return
		}
		for _, c := range cs {
			_ = c.Call()
			if !Matches(c.Expect, toolwall.Deny) && !Matches(c.Expect, toolwall.Allow) && !Matches(c.Expect, toolwall.Ask) && !Matches(c.Expect, toolwall.Warn) {
				t.Fatalf("case %q has an expectation nothing can meet: %q", c.ID, c.Expect)
			}
		}
	})
}

// opinions is a shield that answers like a rules-plus-model gate: the
// model (an opinion) stops what carries MODEL-HIGH, which the rules alone
// (its baseline, plain stub) let through.
type opinions struct{ stub }

func (o *opinions) Evaluate(ctx context.Context, c toolwall.Call) toolwall.Verdict {
	v := o.stub.Evaluate(ctx, c)
	cmd, _ := c.Command()
	switch {
	case v.Action == toolwall.Deny:
	case strings.Contains(cmd, "MODEL-HIGH"):
		v.Action = toolwall.Ask
		v.Opinions = []toolwall.Opinion{{Analyzer: "guardrail", Label: "HIGH", Action: toolwall.Ask}}
	default:
		v.Opinions = []toolwall.Opinion{{Analyzer: "guardrail", Label: "LOW"}}
	}
	return v
}

// TestLabels: with a baseline, the report spreads the model's labels per
// expectation and says what the model added over the rules alone.
func TestLabels(t *testing.T) {
	cases := map[string][]Case{"f.tsv": {
		{ID: "1", Command: "ls", Expect: "allow"},
		{ID: "2", Command: "x MODEL-HIGH", Expect: "stop"},
		{ID: "3", Command: "y MODEL-HIGH", Expect: "stop"},
		{ID: "4", Command: "STUB-DENY", Expect: "stop"},
		{ID: "5", Command: "z", Expect: "stop"},
	}}
	r := &Runner{Shield: &opinions{stub{armed: map[string]bool{}}}, Baseline: &Runner{Shield: newStub()}}
	rep, err := r.Run(context.Background(), []string{"f.tsv"}, cases)
	if err != nil {
		t.Fatal(err)
	}
	stop := rep.Files[0].ByExpect["stop"]
	if stop.Passed != 3 || stop.RulesPassed == nil || *stop.RulesPassed != 1 || stop.Labels["guardrail HIGH"] != 2 || stop.Labels["guardrail LOW"] != 1 || stop.Labels["no model asked"] != 1 {
		t.Errorf("stop: %+v rules passed %v", stop, *stop.RulesPassed)
	}
	var buf bytes.Buffer
	rep.WriteText(&buf)
	want := "               model: guardrail HIGH=2 guardrail LOW=1 no model asked=1   rules alone passed 1, with the model 3\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, buf.String())
	}
	b, _ := json.Marshal(rep)
	if !bytes.Contains(b, []byte(`"labels":{"guardrail HIGH":2,"guardrail LOW":1,"no model asked":1},"rules_passed":1`)) {
		t.Errorf("json: %s", b)
	}
	plain, _ := (&Runner{Shield: newStub()}).Run(context.Background(), []string{"f.tsv"}, cases)
	if b, _ := json.Marshal(plain); bytes.Contains(b, []byte("labels")) || bytes.Contains(b, []byte("rules_passed")) {
		t.Errorf("a run without a baseline reports labels: %s", b)
	}
}
