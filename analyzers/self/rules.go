package self

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the self analyzer reports.
var rules = []analysis.Rule{
	{ID: RuleTamper, Action: toolwall.Deny, Protects: "toolwall's own configuration, state, audit store, approvals and binary", Example: "rm ~/.local/state/toolwall/state.db"},
	{ID: RulePolicy, Action: toolwall.Ask, Protects: "the project's own toolwall policy file (.toolwall.toml), which adds rules for this project", Example: "sed -i 's/ask/warn/' .toolwall.toml"},
	{ID: RuleProcess, Action: toolwall.Deny, Protects: "toolwall's running processes (the resident that answers hook calls): stopped is refused, killed is asked about", Example: `pkill -STOP -f "toolwall resident"`},
	{ID: RuleUnhook, Action: toolwall.Deny, Protects: "toolwall's hook entries in the agent hosts' settings where it is registered: emptied, removed or stripped", Example: "cp /dev/null ~/.claude/settings.json"},
	{ID: RuleSettings, Action: toolwall.Ask, Protects: "the agent hosts' settings where toolwall's hook is configured", Example: `cp settings.backup.json ~/.claude/settings.json`},
}
