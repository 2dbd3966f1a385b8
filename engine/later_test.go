package engine_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/llm/llmtest"
	"github.com/toolwall/toolwall/llm/providers"
	"github.com/toolwall/toolwall/policy"
)

func config(t *testing.T, body string) *policy.Config {
	t.Helper()
	cfg, err := policy.Parse("test.toml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func call(cmd string) toolwall.Call {
	c := toolwall.NewBashCall(cmd)
	c.Cwd, c.Home, c.Session = "/workspace/app", "/home/user", "s1"
	return c
}

// TestSecondOpinions builds the engine from a configuration naming a
// scripted model server and checks each stage is on exactly when
// configured, with the model's answers on the verdict.
func TestSecondOpinions(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	srv := llmtest.New(t)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.System, "0 to 100") {
			return llmtest.Reply{Text: "90", InputTokens: 80, OutputTokens: 1}
		}
		return llmtest.Reply{Text: "RISK: HIGH\nIt empties the users database.", InputTokens: 700, OutputTokens: 12}
	})
	model := fmt.Sprintf("[llm]\nbase_url = %q\nmodel = %q\ntimeout = \"2s\"\n", srv.OpenAI().BaseURL, llmtest.Model)
	for _, c := range []struct {
		name   string
		body   string
		force  bool
		dial   bool
		action toolwall.Action
		labels []string
		note   string
	}{
		{"off by default", model, false, true, toolwall.Allow, nil, ""},
		{"guardrail", model + "[guardrail]\nenabled = true\n", false, true, toolwall.Ask, []string{"HIGH"}, ""},
		{"guardrail forced (eval --llm)", model, true, true, toolwall.Ask, []string{"HIGH"}, ""},
		{"advisor", model + "[advisor]\nenabled = true\n", false, true, toolwall.Deny, []string{"90%"}, ""},
		{"advisor above a raised threshold is allowed", model + "[advisor]\nenabled = true\nthreshold = 90\n", false, true, toolwall.Allow, []string{"90%"}, ""},
		{"both", model + "[guardrail]\nenabled = true\naction = \"ask\"\n[advisor]\nenabled = true\n", false, true, toolwall.Deny, []string{"HIGH", "90%"}, ""},
		{"no client linked: visible, not safe", model + "[guardrail]\nenabled = true\n", false, false, toolwall.Ask, []string{"UNKNOWN"}, "LLM guardrail unavailable: llm: openai scripted-model: no model client is linked"},
		{"key variable unset: the advisor fails open, visibly", model + "api_key_env = \"TOOLWALL_TEST_UNSET_KEY\"\n[advisor]\nenabled = true\n", false, true, toolwall.Allow, []string{"UNKNOWN"}, "advisor check failed, command allowed: llm: openai scripted-model: the API key variable TOOLWALL_TEST_UNSET_KEY is unset or empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := engine.Options{Config: config(t, c.body), Memory: engine.Volatile, Logger: quiet, Guardrail: c.force}
			if c.dial {
				opts.Dial = providers.Open
			}
			e := engine.New(opts)
			defer e.Close()
			v := e.Evaluate(context.Background(), call("truncate -s 0 data/users.db"))
			var labels []string
			for _, o := range v.Opinions {
				labels = append(labels, o.Label)
			}
			if v.Action != c.action || !slices.Equal(labels, c.labels) {
				t.Errorf("%v %v, want %v %v\n%+v", v.Action, labels, c.action, c.labels, v)
			}
			if c.note != "" && !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.HasPrefix(n, c.note) }) {
				t.Errorf("notes %q lack %q", v.Notes, c.note)
			}
			if c.note == "" && len(v.Notes) > 0 {
				t.Errorf("notes %q", v.Notes)
			}
		})
	}
}
