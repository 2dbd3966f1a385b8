package host

// Setting is one file where an agent host reads toolwall's hook from, or
// that can switch its hooks off.
type Setting struct {
	// Host is the adapter's name ("codex").
	Host string
	// Display is the host's name for people ("Codex").
	Display string
	// Path is relative to the home directory (User) or the project;
	// a "*" in the last element matches any file name there.
	Path string
	// User: under the home directory; else under the project.
	User bool
}

// Settings lists every host's hook settings files, Claude Code's
// included (each adapter's doc.go names its
// sources). The self analyzer asks before a tool call changes one
// (engine passes them), `toolwall install` writes toolwall's hook into
// the first of a host's files for the chosen scope, and `toolwall
// doctor` reads them.
func Settings() []Setting {
	return []Setting{
		{"claude-code", "Claude Code", ".claude/settings.json", true},
		{"claude-code", "Claude Code", ".claude/settings.json", false},
		{"claude-code", "Claude Code", ".claude/settings.local.json", false},
		{"codex", "Codex", ".codex/hooks.json", true},
		{"codex", "Codex", ".codex/config.toml", true},
		{"codex", "Codex", ".codex/hooks.json", false},
		{"codex", "Codex", ".codex/config.toml", false},
		{"gemini", "Gemini CLI", ".gemini/settings.json", true},
		{"gemini", "Gemini CLI", ".gemini/settings.json", false},
		{"cursor", "Cursor", ".cursor/hooks.json", true},
		{"cursor", "Cursor", ".cursor/hooks.json", false},
		{"copilot", "Copilot CLI", ".copilot/hooks/toolwall.json", true},
		{"copilot", "Copilot CLI", ".copilot/settings.json", true},
		{"copilot", "Copilot CLI", ".copilot/config.json", true},
		{"copilot", "Copilot CLI", ".github/hooks/toolwall.json", false},
		{"opencode", "OpenCode", ".config/opencode/plugin/toolwall.js", true},
		{"opencode", "OpenCode", ".config/opencode/opencode.json", true},
		{"opencode", "OpenCode", ".opencode/plugin/toolwall.js", false},
		{"opencode", "OpenCode", "opencode.json", false},
		// Every file in Cline's hook directories is a hook (named after its
		// event, any extension), and the CLI applies a later hook's
		// overrideInput to a call toolwall has judged.
		{"cline", "Cline", "Documents/Cline/Hooks/*", true},
		{"cline", "Cline", "Cline/Hooks/*", true}, // Linux, no XDG documents directory set
		{"cline", "Cline", ".cline/hooks/*", true},
		{"cline", "Cline", ".clinerules/hooks/*", false},
		{"cline", "Cline", ".cline/hooks/*", false},
		{"windsurf", "Windsurf", ".codeium/windsurf/hooks.json", true},
		{"windsurf", "Windsurf", ".windsurf/hooks.json", false},
		{"factory", "Factory Droid", ".factory/hooks.json", true},
		{"factory", "Factory Droid", ".factory/settings.json", true},
		{"factory", "Factory Droid", ".factory/hooks.json", false},
		{"factory", "Factory Droid", ".factory/settings.json", false},
		{"kiro", "Kiro CLI", ".kiro/agents/*.json", true},
		{"kiro", "Kiro CLI", ".kiro/agents/*.json", false},
		{"qwen", "Qwen Code", ".qwen/settings.json", true},
		{"qwen", "Qwen Code", ".qwen/settings.json", false},
		{"amp", "Amp", ".config/amp/plugins/toolwall.ts", true},
		{"amp", "Amp", ".config/amp/settings.json", true},
		{"amp", "Amp", ".amp/plugins/toolwall.ts", false},
	}
}
