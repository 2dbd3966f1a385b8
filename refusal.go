package toolwall

import (
	"slices"
	"strings"
)

// Rule ids of the fail-closed refusal (DESIGN.md principle 7: a panic or
// internal error in analysis becomes a deny with a clear reason). They
// keep toolwall itself safe and cannot be disabled.
const (
	// RuleInternal: toolwall failed while checking the call.
	RuleInternal = "gate.internal-error"
	// RuleTimeout: the check did not finish within its deadline.
	RuleTimeout = "gate.timeout"
	// RuleCancelled: the caller cancelled the check.
	RuleCancelled = "gate.cancelled"
	// RuleMalformed: the call or the host's payload could not be read.
	RuleMalformed = "input.malformed"
	// RuleConfig: toolwall's configuration is broken.
	RuleConfig = "config.invalid"
)

// unswitchable are the ids outside gate.* and input.* that keep toolwall
// itself safe (see Unswitchable).
var unswitchable = []string{
	RuleConfig,
	"shell.limit", "shell.parse-error", "shell.unclosed-heredoc", "shell.lookalike-dash",
	"pwsh.parse-error", "files.bad-input",
	"policy.self-approve",
}

// Unswitchable reports whether rules.disable may not name rule id: the
// rules that keep toolwall itself safe. They are the gate's own (gate.*:
// its failures, timeouts and cancellations), input it cannot read or
// check (input.*, shell.limit, shell.parse-error, shell.unclosed-heredoc,
// shell.lookalike-dash, pwsh.parse-error, files.bad-input), a
// configuration that does not load (config.invalid) and an agent
// approving its own calls (policy.self-approve). The gate keeps their
// findings whatever the configuration says, and a configuration that
// names one is an error.
func Unswitchable(id string) bool {
	return strings.HasPrefix(id, "gate.") || strings.HasPrefix(id, "input.") || slices.Contains(unswitchable, id)
}

// Refusal returns the deny verdict every driver gives when it cannot
// decide: rule is one of the Rule* ids above, analyzer names who refused
// ("gate", "hook", "engine", …) and reason, written for the model, says
// what happened and what to do. The verdict is Critical with score 1, so
// no threshold lets it through. Category is "input" for RuleMalformed and
// "internal" otherwise.
func Refusal(analyzer, rule, reason string) Verdict {
	cat := "internal"
	if rule == RuleMalformed {
		cat = "input"
	}
	return Verdict{
		Action: Deny, Band: Critical, Score: 1, Reason: reason,
		Findings: []Finding{{Analyzer: analyzer, Rule: rule, Category: cat, Score: 1, Action: Deny, Reason: reason}},
	}
}
