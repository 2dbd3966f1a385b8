package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/eval"
	"github.com/toolwall/toolwall/policy"
)

func newEval() *cobra.Command {
	var (
		asJSON, withLLM    bool
		expect             string
		cwd, project, home string
	)
	cmd := &cobra.Command{
		Use:   "eval [--json] [--expect allow|deny|stop|ask|warn] FILE...",
		Short: "Measure the gate against case files",
		Long: `Reads case files and reports, per file and in total, how many cases passed.

Formats by extension:
  .jsonl  the acceptance format of testdata/spec/FORMAT.md (id, tool, command|input,
          cwd, project, home, context, history, expect, rule)
  .tsv    expected<TAB>command, expected one of allow, warn, ask, deny, block
  other   one command a line; the expectation comes from --expect
Expectations: allow passes on allow or warn, stop on ask or deny, block = deny.
Cases with history run in a fresh session that first records those calls.

Places: a case that does not give its own cwd, project or home is judged
with cwd --cwd (default /workspace/app), project --project (default --cwd)
and home --home (default /home/user). toolwall's own files are where an
install puts them under that home (~/go/bin/toolwall,
~/.config/toolwall/config.toml, ~/.local/state/toolwall/state.db), not
where this binary happens to be, so the verdicts are the same on every
machine. Nothing is read from the file system.

With --llm every case is also put to the model of the configuration's
[llm] table (the guardrail, on whatever [guardrail] enabled says, and the
advisor when [advisor] is enabled), and the report adds per expectation
how the model's labels spread and how many cases the rules alone passed:
what the model adds over the rules on your own cases.

Exit status: 0 when every case passed, 4 when some failed, 1 on usage errors.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			cases := map[string][]eval.Case{}
			for _, f := range files {
				cs, err := eval.ReadFile(f, expect)
				if err != nil {
					return err
				}
				cases[f] = cs
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			places := eval.Places{Cwd: orDefault(cwd, eval.DefaultProject), Home: orDefault(home, eval.DefaultHome)}
			places.Project = orDefault(project, places.Cwd)
			r := &eval.Runner{
				Shield: newEngine(cfg, engine.Options{Guardrail: withLLM}),
				Fresh: func() toolwall.Shield {
					return newEngine(cfg, engine.Options{Memory: engine.Volatile, Guardrail: withLLM})
				},
				Places: places,
			}
			if withLLM {
				if r.Baseline, err = rulesAlone(cfg, places); err != nil {
					return err
				}
			}
			rep, err := r.Run(cmd.Context(), files, cases)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				err = enc.Encode(rep)
			} else {
				err = rep.WriteText(out)
			}
			if err != nil {
				return fmt.Errorf("writing report: %w", err)
			}
			if rep.Total.Failed > 0 {
				return exitError{4}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"total":{...},"files":[...],"failures":[...]} as JSON`)
	cmd.Flags().StringVar(&expect, "expect", "", "expectation for plain command files: allow, deny, stop, ask or warn")
	cmd.Flags().StringVar(&cwd, "cwd", "", "working directory of cases that give none (default /workspace/app)")
	cmd.Flags().StringVar(&project, "project", "", "project root of cases that give none (default --cwd)")
	cmd.Flags().StringVar(&home, "home", "", "home directory of cases that give none (default /home/user)")
	cmd.Flags().BoolVar(&withLLM, "llm", false, "also ask the configured model (the guardrail, and the advisor when enabled) and report how its labels spread")
	return cmd
}

// rulesAlone is the runner of eval --llm's baseline: the same
// configuration with the later stage off.
func rulesAlone(cfg *policy.Config, places eval.Places) (*eval.Runner, error) {
	if cfg.LLM.BaseURL == "" || cfg.LLM.Model == "" {
		return nil, fmt.Errorf("eval --llm needs a model: set base_url and model in the configuration's [llm] table")
	}
	rules := *cfg
	rules.Guardrail.Enabled, rules.Advisor.Enabled = false, false
	return &eval.Runner{
		Shield: newEngine(&rules, engine.Options{}),
		Fresh: func() toolwall.Shield {
			return newEngine(&rules, engine.Options{Memory: engine.Volatile})
		},
		Places: places,
	}, nil
}
