package self

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the self analyzer reports.
var rules = []analysis.Rule{
	{ID: RuleTamper, Action: toolwall.Deny, Protects: "toolwall's own configuration, state, audit store, approvals and binary", Example: "rm ~/.local/state/toolwall/state.db"},
	{ID: RuleSettings, Action: toolwall.Ask, Protects: "the agent hosts' settings where toolwall's hook is configured", Example: `echo '{}' > ~/.claude/settings.json`},
}
