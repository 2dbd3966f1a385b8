package toolwall

import (
	"slices"
	"strings"
)

// Rule ids of the fail-closed refusal (a panic or
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
	// RuleAmbiguousKey: the tool input names a key that decoders read
	// differently (see AmbiguousKey). The agent wrote it, so unlike
	// RuleMalformed it counts toward chain.repeated-refusal.
	RuleAmbiguousKey = "input.ambiguous-key"
)

// unswitchable are the ids outside gate.* and input.* that keep toolwall
// itself safe (see Unswitchable).
var unswitchable = []string{
	RuleConfig,
	"shell.limit", "shell.parse-error", "shell.unreadable-code", "shell.unclosed-heredoc", "shell.lookalike-dash",
	"pwsh.parse-error", "files.bad-input",
	"policy.self-approve",
}

// Unswitchable reports whether rules.disable may not name rule id: the
// rules that keep toolwall itself safe. They are the gate's own (gate.*:
// its failures, timeouts and cancellations), input it cannot read or
// check (input.*, shell.limit, shell.parse-error, shell.unreadable-code, shell.unclosed-heredoc,
// shell.lookalike-dash, pwsh.parse-error, files.bad-input), a
// configuration that does not load (config.invalid) and an agent
// approving its own calls (policy.self-approve). The gate keeps their
// findings whatever the configuration says, and a configuration that
// names one is an error.
func Unswitchable(id string) bool {
	return strings.HasPrefix(id, "gate.") || strings.HasPrefix(id, "input.") || slices.Contains(unswitchable, id)
}

// Fault reports whether rule is a refusal that says nothing about the
// agent's conduct, so chain.repeated-refusal neither counts it nor raises
// it and the trajectory does not count it against the agent: a
// configuration that does not load (config.invalid: a broken file denies
// every call, whatever it does, until it is fixed), toolwall's own
// failure (gate.internal-error), a check cancelled or out of time
// (gate.cancelled, gate.timeout: the host's or the machine's doing), and
// a call whose input cannot be read (input.malformed: the host's payload
// or its tool schema; such a call runs nothing and is judged no further).
// They stay denies. The agent's own text still counts when the reading
// refuses it: a NUL byte (input.nul-byte) or a command too large or
// nested to read (shell.limit) is the call's only finding, so not
// counting it would let a retried attack go uncounted. Only the fault's
// own finding is skipped: an agent that breaks the project's
// .toolwall.toml, or a check that fails, still has every other finding of
// the call counted.
func Fault(rule string) bool {
	switch rule {
	case RuleConfig, RuleInternal, RuleCancelled, RuleTimeout, RuleMalformed:
		return true
	}
	return false
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
