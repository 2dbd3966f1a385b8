package guardrail_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/guardrail"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/llmtest"
	"github.com/toolwall/toolwall/llm/providers"
	"github.com/toolwall/toolwall/session"
)

type scenario struct {
	Name    string          `json:"name"`
	Command string          `json:"command"`
	Policy  policySpec      `json:"policy"`
	Replies []llmtest.Reply `json:"replies"`
	Second  []llmtest.Reply `json:"second"`
	Cancel  bool            `json:"cancel"`
	// TimeoutMS is the clients' timeout (default 1 s).
	TimeoutMS int `json:"timeout_ms"`
	Want      struct {
		Action   toolwall.Action `json:"action"`
		Rules    []string        `json:"rules"`
		Labels   []string        `json:"labels"`
		Notes    []string        `json:"notes"`
		Reason   string          `json:"reason"`
		MaxMS    int             `json:"max_ms"`
		Requests *int            `json:"requests"`
	} `json:"want"`
}

type policySpec struct {
	Threshold     string          `json:"threshold"`
	IgnoreUnknown bool            `json:"ignore_unknown"`
	Action        toolwall.Action `json:"action"`
}

func (p policySpec) policy(t *testing.T) guardrail.Policy {
	pol := guardrail.Policy{IgnoreUnknown: p.IgnoreUnknown, Action: p.Action}
	if p.Threshold != "" {
		r, err := guardrail.ParseRisk(p.Threshold)
		if err != nil {
			t.Fatal(err)
		}
		pol.Threshold = r
	}
	return pol
}

var quiet = slog.New(slog.DiscardHandler)

// open returns a client of format on srv with a 1 s timeout, or the
// one given.
func open(t *testing.T, srv *llmtest.Server, format string, timeout ...time.Duration) llm.Client {
	cfg := srv.OpenAI()
	if format == llm.Anthropic {
		cfg = srv.Anthropic()
	}
	cfg.Timeout = time.Second
	if len(timeout) > 0 && timeout[0] > 0 {
		cfg.Timeout = timeout[0]
	}
	c, err := providers.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestScenarios runs the gate with every built-in analyzer and the
// guardrail against a scripted model server speaking each wire format.
func TestScenarios(t *testing.T) {
	b, err := os.ReadFile("testdata/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []scenario
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, format := range []string{llm.OpenAI, llm.Anthropic} {
			t.Run(c.Name+"/"+format, func(t *testing.T) {
				t.Parallel()
				srv := llmtest.New(t, c.Replies...)
				members := []llm.Client{open(t, srv, format, time.Duration(c.TimeoutMS)*time.Millisecond)}
				var second *llmtest.Server
				if c.Second != nil {
					second = llmtest.New(t, c.Second...)
					members = append(members, open(t, second, format))
				}
				g, err := guardrail.New(guardrail.Options{Members: members, Policy: c.Policy.policy(t), Store: session.NewMemory(session.Options{}), Logger: quiet})
				if err != nil {
					t.Fatal(err)
				}
				gt := gate.New(gate.Options{Analyzers: analyzers.All(), Logger: quiet, Later: gate.LaterStage{Analyzers: []*analysis.Later{g.Analyzer()}}})
				cmd := c.Command
				if cmd == "" {
					cmd = "ls -la"
				}
				call := toolwall.NewBashCall(cmd)
				call.Cwd, call.Home, call.Session = "/workspace/app", "/home/user", "s1"
				ctx := context.Background()
				if c.Cancel {
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(ctx)
					defer cancel()
					go func() { <-srv.Arrived(); cancel() }()
				}
				start := time.Now()
				v := gt.Evaluate(ctx, call)
				took := time.Since(start)
				if v.Action != c.Want.Action {
					t.Errorf("action %v, want %v\n%+v", v.Action, c.Want.Action, v)
				}
				// The strongest rule first, then the others wanted in any
				// order (the deterministic analyzers may add more).
				if got := v.Rules(); len(c.Want.Rules) > 0 && (len(got) == 0 || got[0] != c.Want.Rules[0]) {
					t.Errorf("rules %v, want %v first", got, c.Want.Rules[0])
				}
				for _, r := range c.Want.Rules {
					if !slices.Contains(v.Rules(), r) {
						t.Errorf("rules %v lack %s", v.Rules(), r)
					}
				}
				if c.Want.Rules == nil && len(v.Rules()) > 0 {
					t.Errorf("rules %v, want none", v.Rules())
				}
				var labels []string
				for _, o := range v.Opinions {
					labels = append(labels, o.Label)
					if o.Analyzer != "guardrail" || o.Model == "" || (o.Label == "UNKNOWN") != (o.Error != "") {
						t.Errorf("opinion %+v", o)
					}
				}
				if c.Want.Labels != nil && !slices.Equal(labels, c.Want.Labels) {
					t.Errorf("labels %v, want %v", labels, c.Want.Labels)
				}
				for _, n := range c.Want.Notes {
					if !slices.ContainsFunc(v.Notes, func(s string) bool { return strings.Contains(s, n) }) {
						t.Errorf("notes %q lack %q", v.Notes, n)
					}
				}
				if !strings.Contains(v.Reason, c.Want.Reason) {
					t.Errorf("reason %q lacks %q", v.Reason, c.Want.Reason)
				}
				if c.Want.MaxMS > 0 && took > time.Duration(c.Want.MaxMS)*time.Millisecond {
					t.Errorf("took %v", took)
				}
				if n := c.Want.Requests; n != nil && len(srv.Requests()) != *n {
					t.Errorf("%d requests, want %d", len(srv.Requests()), *n)
				}
				if v.Action.Stops() && v.Reason == "" {
					t.Errorf("%v without a reason", v.Action)
				}
			})
		}
	}
}
