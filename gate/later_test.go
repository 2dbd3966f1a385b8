package gate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

type laterSpec struct {
	Name    string          `json:"name"`
	Title   string          `json:"title"`
	Tools   []string        `json:"tools"`
	Below   toolwall.Action `json:"below"`
	OnError toolwall.Action `json:"on_error"`
	// Do is what Run does: opine (a LOW opinion), ask (HIGH → ask), deny
	// (a refusal), error, slow (waits for ctx), stuck (ignores ctx for
	// 2 s), panic.
	Do      string `json:"do"`
	DelayMS int    `json:"delay_ms"`
}

type laterCase struct {
	Name     string             `json:"name"`
	Rules    []toolwall.Finding `json:"rules"`
	Disabled []string           `json:"disabled"`
	Later    []laterSpec        `json:"later"`
	BudgetMS int                `json:"budget_ms"`
	ParentMS int                `json:"parent_ms"`
	CancelMS int                `json:"cancel_ms"`
	Want     struct {
		Action   toolwall.Action `json:"action"`
		Rules    []string        `json:"rules"`
		Notes    []string        `json:"notes"`
		Opinions int             `json:"opinions"`
		MaxMS    int             `json:"max_ms"`
		NotRun   bool            `json:"not_run"`
	} `json:"want"`
}

// fake builds a later analyzer from spec, counting its runs in ran.
func fake(s laterSpec, ran *atomic.Int32) *analysis.Later {
	return &analysis.Later{
		Name: s.Name, Title: s.Title, Tools: s.Tools, Below: s.Below, OnError: s.OnError,
		Run: func(ctx context.Context, in *analysis.LaterInput, r *analysis.LaterReport) error {
			ran.Add(1)
			time.Sleep(time.Duration(s.DelayMS) * time.Millisecond)
			switch s.Do {
			case "opine":
				r.Opine(toolwall.Opinion{Model: "m", Label: "LOW"})
			case "ask":
				r.Opine(toolwall.Opinion{Model: "m", Label: "HIGH", Action: toolwall.Ask})
				r.Add(toolwall.Finding{Rule: s.Name + ".risk-high", Action: toolwall.Ask, Reason: "the model says HIGH"})
			case "deny":
				r.Add(toolwall.Finding{Rule: s.Name + ".destructive", Score: 0.8, Action: toolwall.Deny, Reason: "80%"})
			case "error":
				r.Opine(toolwall.Opinion{Label: "UNKNOWN", Error: "model down"})
				return errors.New("model down")
			case "slow":
				<-ctx.Done()
				return ctx.Err()
			case "stuck":
				time.Sleep(2 * time.Second)
			case "panic":
				panic("boom")
			}
			return nil
		},
	}
}

func TestLaterStage(t *testing.T) {
	b, err := os.ReadFile("testdata/later.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []laterCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			var ran atomic.Int32
			opts := Options{Analyzers: []*analysis.Analyzer{fixed(c.Rules)}, Disabled: c.Disabled}
			for _, s := range c.Later {
				opts.Later.Analyzers = append(opts.Later.Analyzers, fake(s, &ran))
			}
			opts.Later.Budget = time.Duration(c.BudgetMS) * time.Millisecond
			ctx := context.Background()
			if c.ParentMS > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, time.Duration(c.ParentMS)*time.Millisecond)
				defer cancel()
			}
			if c.CancelMS > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(time.Duration(c.CancelMS)*time.Millisecond, cancel)
			}
			start := time.Now()
			v := New(opts).Evaluate(ctx, toolwall.NewBashCall("true"))
			took := time.Since(start)
			if v.Action != c.Want.Action {
				t.Errorf("action %v, want %v (%+v)", v.Action, c.Want.Action, v)
			}
			if c.Want.Rules != nil && !slices.Equal(v.Rules(), c.Want.Rules) {
				t.Errorf("rules %v, want %v", v.Rules(), c.Want.Rules)
			}
			if c.Want.Notes != nil && len(v.Notes) != len(c.Want.Notes) {
				t.Errorf("notes %q, want %q", v.Notes, c.Want.Notes)
			}
			for _, n := range c.Want.Notes {
				if !slices.ContainsFunc(v.Notes, func(s string) bool { return strings.HasPrefix(s, n) }) {
					t.Errorf("notes %q lack %q", v.Notes, n)
				}
			}
			if len(v.Opinions) != c.Want.Opinions {
				t.Errorf("%d opinions, want %d: %+v", len(v.Opinions), c.Want.Opinions, v.Opinions)
			}
			if c.Want.MaxMS > 0 && took > time.Duration(c.Want.MaxMS)*time.Millisecond {
				t.Errorf("took %v, want at most %d ms", took, c.Want.MaxMS)
			}
			if c.Want.NotRun && ran.Load() != 0 {
				t.Errorf("a later analyzer ran %d times", ran.Load())
			}
			if v.Action.Stops() && v.Reason == "" {
				t.Errorf("a %v without a reason", v.Action)
			}
		})
	}
}

// TestObserve: every executed call reaches Observe, with or without a
// store; a panic there is contained.
func TestObserve(t *testing.T) {
	var seen []string
	g := New(Options{Later: LaterStage{Analyzers: []*analysis.Later{
		{Name: "h", Observe: func(_ context.Context, c toolwall.Call, ok bool) {
			cmd, _ := c.Command()
			seen = append(seen, cmd)
		}},
		{Name: "p", Tools: []string{toolwall.ToolBash}, Observe: func(context.Context, toolwall.Call, bool) { panic("boom") }},
	}}})
	g.RecordInvocation(context.Background(), toolwall.NewBashCall("ls -l"), true)
	g.RecordInvocation(context.Background(), toolwall.Call{Tool: "mcp__notion__search", Input: json.RawMessage(`{}`)}, true)
	if !slices.Equal(seen, []string{"ls -l", ""}) {
		t.Errorf("observed %q", seen)
	}
}
