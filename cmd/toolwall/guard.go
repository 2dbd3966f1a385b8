package main

import (
	"github.com/toolwall/toolwall/advisors/adversarial"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/llm/helper"
	"github.com/toolwall/toolwall/policy"
)

// guard puts e behind the adversarial policy gate when [adversarial]
// enabled is set (toolwall run, fetch and search): before a call runs, the
// model of [adversarial.llm] is asked ALLOW or DENY through the
// toolwall-llm helper, and each decision is written to the audit store.
// The returned func releases the audit store.
func guard(cfg *policy.Config, e executor.Executor) (executor.Executor, func(), error) {
	if !cfg.Adversarial.Enabled {
		return e, func() {}, nil
	}
	opts := cfg.AdversarialOptions()
	opts.Client = llm.Lazy(cfg.AdversarialClient(), helper.Open)
	opts.Logger = logger()
	done := func() {}
	if state, err := engine.StatePath("", cfg); err == nil {
		if au := engine.StoresFor(cfg, state).Audit(); au != nil {
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
