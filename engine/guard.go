package engine

import (
	"log/slog"

	"github.com/toolwall/toolwall/advisors/adversarial"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/policy"
)

// Guard puts e behind the tool-executor framework's adversarial policy gate when the
// configuration's [adversarial] enabled is set (toolwall run, fetch and
// search use it): before a call runs, the model of [adversarial.llm] is
// asked ALLOW or DENY through dial (llm/helper.Open for the CLI: the
// toolwall-llm helper), and each decision is written to the audit store
// the configuration names. Without [adversarial] it returns e. The
// returned func releases the audit store; call it when done.
func Guard(cfg *policy.Config, e executor.Executor, dial func(llm.Config) (llm.Client, error), log *slog.Logger) (executor.Executor, func(), error) {
	if !cfg.Adversarial.Enabled {
		return e, func() {}, nil
	}
	opts := cfg.AdversarialOptions()
	opts.Client = llm.Lazy(cfg.AdversarialClient(), dial)
	opts.Logger = log
	done := func() {}
	if state, err := StatePath("", cfg); err == nil {
		if au := StoresFor(cfg, state).Audit(); au != nil {
			opts.Audit, done = au, func() { au.Close() }
		}
	}
	g, err := adversarial.New(e, opts)
	if err != nil {
		done()
		return nil, func() {}, err
	}
	return g, done, nil
}
