package analysis

import "github.com/toolwall/toolwall"

// Rule describes one rule id an analyzer reports: what `toolwall rules`
// lists, what `rules.disable` is checked against, and where a reader of a
// finding looks its id up: rules are listable.
type Rule struct {
	// ID is the stable rule id findings carry ("rm.dangerous-target").
	ID string
	// Action is its default action: the floor its findings set (Deny,
	// Ask), or Warn for a rule that only raises the score.
	Action toolwall.Action
	// Protects says, in one line, what the rule protects.
	Protects string
	// Example is a tool call the rule stops: a shell command, or "TOOL
	// {json input}" for another tool; "" when no single call shows it (a
	// chain across calls, an internal failure).
	Example string
}
