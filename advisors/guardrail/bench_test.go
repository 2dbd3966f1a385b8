package guardrail_test

import (
	"context"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/advisor"
	"github.com/toolwall/toolwall/advisors/guardrail"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/llmtest"
	"github.com/toolwall/toolwall/llm/providers"
	"github.com/toolwall/toolwall/session"
)

// BenchmarkGate evaluates one allowed Bash call in a session of 20
// recorded calls: the rules alone (the later stage off), then with the
// guardrail, then with the guardrail and the advisor, both asking a
// scripted model on loopback that answers at once. The difference is what
// the stage itself costs (prompt, history read, HTTP round trips, reply
// parsing); a real model adds its own latency on top.
func BenchmarkGate(b *testing.B) {
	srv := llmtest.New(b)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: "RISK: LOW\nIt runs the tests.", InputTokens: 900, OutputTokens: 8}
	})
	cfg := srv.OpenAI()
	client, err := providers.Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	srv2 := llmtest.New(b)
	srv2.Respond(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "5"} })
	adv, err := providers.Open(srv2.OpenAI())
	if err != nil {
		b.Fatal(err)
	}
	for _, stage := range []string{"off", "guardrail", "guardrail+advisor"} {
		b.Run(stage, func(b *testing.B) {
			store := session.NewMemory(session.Options{})
			g, _ := guardrail.New(guardrail.Options{Members: []llm.Client{client}, Store: store, Logger: quiet})
			a, _ := advisor.New(advisor.Options{Client: adv, Logger: quiet})
			opts := gate.Options{Analyzers: analyzers.All(), Store: store, Logger: quiet}
			switch stage {
			case "guardrail":
				opts.Later.Analyzers = []*analysis.Later{g.Analyzer()}
			case "guardrail+advisor":
				opts.Later.Analyzers = []*analysis.Later{g.Analyzer(), a.Analyzer()}
			}
			gt := gate.New(opts)
			ctx := context.Background()
			for range 20 {
				gt.RecordInvocation(ctx, bash("bench", "git status", "Show the working tree"), true)
			}
			call := bash("bench", "cd src && go test ./... 2>&1 | tail -20", "Run the tests")
			b.ReportAllocs()
			for b.Loop() {
				if v := gt.Evaluate(ctx, call); v.Action != toolwall.Allow {
					b.Fatalf("%+v", v)
				}
			}
		})
	}
}
