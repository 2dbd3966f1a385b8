package places

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
)

// AgentFile is what a file is to a coding agent or an IDE.
type AgentFile uint8

// Kinds of agent files.
const (
	// NotAgent: not an agent's or IDE's file.
	NotAgent AgentFile = iota
	// AgentWork: a file an agent writes in the course of its work and
	// that grants nothing: Claude Code's plans (~/.claude/plans/**), its
	// project memory (~/.claude/projects/*/memory/**) and todo lists
	// (~/.claude/todos/**).
	AgentWork
	// AgentSettings: an agent's or IDE's settings, hooks or MCP server
	// list, where tools are approved, hooks and servers added, or
	// permission modes changed: Claude Code (.claude/settings*.json,
	// .claude/hooks/**, the rest of ~/.claude, ~/.claude.json,
	// ~/.config/claude), .mcp.json and mcp.json files, VS Code
	// (.vscode/settings.json, .vscode/tasks.json, its user settings),
	// Cursor (.cursor/**, ~/.cursor/**), Kiro (.kiro/settings/**), Gemini
	// CLI (.gemini/settings.json), Codex (~/.codex/config.toml), Windsurf
	// (~/.codeium/windsurf/**), Continue (.continue/config.*) and Zed
	// (.zed/settings.json).
	AgentSettings
)

// Agent says what p (absolute and clean) is to a coding agent or an IDE,
// for a user whose home is home. For AgentSettings, why is set for the
// files whose every write [Write] asks about today (Claude Code's
// settings and hooks, .mcp.json, VS Code's tasks.json) and empty for the
// others, whose ordinary edits (a theme, a formatter) are everyday work.
func Agent(p, home string) (kind AgentFile, why string) {
	lp := strings.ToLower(path.Clean(p))
	lhome := strings.ToLower(home)
	base := path.Base(lp)
	dir := path.Dir(lp)
	if lhome != "" && paths.StrictlyUnder(lp, lhome) {
		rel := strings.TrimPrefix(lp, lhome+"/")
		switch {
		case strings.HasPrefix(rel, ".claude/plans/"), strings.HasPrefix(rel, ".claude/todos/"):
			return AgentWork, ""
		case strings.HasPrefix(rel, ".claude/projects/"):
			parts := strings.Split(rel, "/")
			if len(parts) > 4 && parts[3] == "memory" {
				return AgentWork, ""
			}
		}
		switch {
		case rel == ".claude.json":
			return AgentSettings, "is the agent's own configuration (MCP servers, permissions)"
		case strings.HasPrefix(rel, ".config/claude/"):
			return AgentSettings, "is the agent's own configuration"
		case rel == ".codex/config.toml":
			return AgentSettings, ""
		case strings.HasPrefix(rel, ".cursor/"), strings.HasPrefix(rel, ".codeium/windsurf/"),
			strings.HasPrefix(rel, ".config/code/user/settings.json"),
			strings.HasPrefix(rel, "library/application support/code/user/settings.json"):
			return AgentSettings, ""
		}
	}
	switch {
	case base == ".mcp.json":
		return AgentSettings, "is the agent's MCP server list: each server is a program it starts"
	case strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json") && path.Base(dir) == ".claude":
		return AgentSettings, "is the agent's own settings (hooks, permissions)"
	case strings.Contains(lp, "/.claude/hooks/"):
		return AgentSettings, "is one of the agent's hook scripts: the agent's settings run it on tool calls"
	case base == "tasks.json" && path.Base(dir) == ".vscode":
		return AgentSettings, "is a VS Code task list: a task can run on folder open"
	case lhome != "" && paths.StrictlyUnder(lp, lhome+"/.claude"):
		return AgentSettings, "is the agent's own configuration (settings, hooks, permissions)"
	case base == "mcp.json", base == "mcp_config.json":
		return AgentSettings, ""
	case base == "settings.json" && (path.Base(dir) == ".vscode" || path.Base(dir) == ".gemini" || path.Base(dir) == ".zed"):
		return AgentSettings, ""
	case strings.Contains(lp, "/.cursor/"), strings.Contains(lp, "/.kiro/settings/"):
		return AgentSettings, ""
	case path.Base(dir) == ".continue" && strings.HasPrefix(base, "config."):
		return AgentSettings, ""
	}
	return NotAgent, ""
}
