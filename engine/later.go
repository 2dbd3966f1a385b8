package engine

import (
	"context"
	"log/slog"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/advisor"
	"github.com/toolwall/toolwall/advisors/guardrail"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

// laterStage builds the gate's later stage from cfg: the guardrail when
// [guardrail] enabled (or forced), the advisor when [advisor] enabled,
// each with lazily opened model clients, so a call that never reaches
// the stage opens nothing. The budget is [llm] timeout (default 3 s).
func laterStage(cfg *policy.Config, opts Options, store session.Store, log *slog.Logger) gate.LaterStage {
	var st gate.LaterStage
	if !cfg.Guardrail.Enabled && !opts.Guardrail && !cfg.Advisor.Enabled {
		return st
	}
	st.Budget = cfg.LLM.Timeout.Duration
	if st.Budget <= 0 {
		st.Budget = gate.DefaultLaterBudget
	}
	if cfg.Guardrail.Enabled || opts.Guardrail {
		var members []llm.Client
		for _, m := range cfg.Members() {
			members = append(members, llm.Lazy(m, opts.Dial))
		}
		exp := cfg.GuardrailExperiences(UserHome())
		exp.Detect = opts.DetectMCP
		g, err := guardrail.New(guardrail.Options{
			Members:     members,
			Policy:      cfg.GuardrailPolicy(),
			Window:      cfg.GuardrailWindow(),
			Experiences: exp,
			Store:       store,
			Tools:       cfg.Guardrail.Tools,
			Logger:      log,
		})
		if err != nil {
			st.Analyzers = append(st.Analyzers, broken("guardrail", "LLM guardrail", toolwall.Ask, err))
		} else {
			st.Analyzers = append(st.Analyzers, g.Analyzer())
		}
	}
	if cfg.Advisor.Enabled {
		a, err := advisor.New(advisor.Options{Client: llm.Lazy(cfg.LLM.Client(policy.LLM{}), opts.Dial), Threshold: cfg.Advisor.Threshold, Logger: log})
		if err != nil {
			st.Analyzers = append(st.Analyzers, broken("advisor", "advisor", toolwall.Allow, err))
		} else {
			st.Analyzers = append(st.Analyzers, a.Analyzer())
		}
	}
	return st
}

// broken is a later analyzer that could not be built: every call gets
// the error as a note and onError, never silence.
func broken(name, title string, onError toolwall.Action, err error) *analysis.Later {
	return &analysis.Later{
		Name: name, Title: title, OnError: onError,
		Run: func(context.Context, *analysis.LaterInput, *analysis.LaterReport) error { return err },
	}
}
