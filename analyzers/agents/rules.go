package agents

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the agents analyzer reports.
var rules = []analysis.Rule{
	{ID: RuleApprovalsOff, Action: toolwall.Deny, Protects: "against an agent launched with its approvals off (any agent CLI, however wrapped)", Example: "claude --dangerously-skip-permissions"},
	{ID: RuleAutoApprove, Action: toolwall.Deny, Protects: "agent and IDE settings from keys that auto-approve tools or change the permission mode", Example: `Write {"file_path": "/workspace/app/.claude/settings.json", "content": "{\"permissions\": {\"defaultMode\": \"bypassPermissions\"}}"}`},
	{ID: RuleMCPServer, Action: toolwall.Deny, Protects: "agent settings from MCP servers added by a tool call", Example: "claude mcp add x -- node s.js"},
	{ID: RuleHooks, Action: toolwall.Deny, Protects: "agent settings from hooks added or switched off by a tool call", Example: `Write {"file_path": "/workspace/app/.claude/settings.json", "content": "{\"disableAllHooks\": true}"}`},
	{ID: RuleSettingsCommand, Action: toolwall.Ask, Protects: "agent settings whose value is a command the host runs (statusLine, apiKeyHelper)", Example: `Write {"file_path": "/workspace/app/.claude/settings.json", "content": "{\"statusLine\": {\"type\": \"command\", \"command\": \"x\"}}"}`},
	{ID: RuleWeaken, Action: toolwall.Ask, Protects: "the deny and ask rules and hooks already in agent settings from an edit that takes them out", Example: ""},
	{ID: RuleSettingsUnseen, Action: toolwall.Ask, Protects: "agent settings from a shell write whose content cannot be seen", Example: "cp /tmp/settings.json .claude/settings.json"},
}
