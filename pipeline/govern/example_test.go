package govern_test

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
	"github.com/toolwall/toolwall/pipeline/govern"
)

// Example_callers: every call carries its caller (the hook adapters take
// it from the host, Claude Code's agent_type). A sub-agent gets a
// capability scope and a quota of its own; the primary agent keeps the
// task's.
func Example_callers() {
	scopes, _, _ := govern.CompileScopes(govern.ScopeConfig{
		Default: "code_edit",
		Scopes: map[string][]string{
			"code_edit": {"builtin:Read", "builtin:Edit", "builtin:Bash"},
			"research":  {"builtin:Read", "builtin:WebFetch"},
		},
		Callers: map[string]string{"Explore": "research"},
	}, []string{"Read", "Edit", "Bash", "WebFetch"})
	quota := govern.NewQuota(100).PerCaller(map[string]int{"Explore": 1})
	tools := pipeline.ToolFunc(func(_ context.Context, req *pipeline.Request) (*pipeline.Result, error) {
		return &pipeline.Result{Output: "ran " + req.Call.Tool}, nil
	})
	p, _ := pipeline.NewBuilder().Use(govern.Stack(govern.Layers{Scopes: scopes, Quota: quota})...).Core(tools).Build()

	for _, c := range []toolwall.Call{
		{Tool: "Bash", Session: "s"},
		{Tool: "Bash", Session: "s", Caller: "Explore"},
		{Tool: "WebFetch", Session: "s", Caller: "Explore", Input: []byte(`{"url":"https://go.dev/"}`)},
		{Tool: "Read", Session: "s", Caller: "Explore", Input: []byte(`{"file_path":"/w/a.go"}`)},
	} {
		res, _ := p.Execute(context.Background(), &pipeline.Request{Call: c})
		who := c.Caller
		if who == "" {
			who = "primary"
		}
		fmt.Printf("%s %s: %s\n", who, c.Tool, res.Output)
	}
	// Output:
	// primary Bash: ran Bash
	// Explore Bash: scope_blocked: the tool Bash (builtin:Bash) is outside the "research" capability scope of the sub-agent Explore; use one of the tools you were given.
	// Explore WebFetch: ran WebFetch
	// Explore Read: quota_blocked: the sub-agent Explore has used all 1 of its tool calls in this session. Finish with what you have, or hand the work back.
}
