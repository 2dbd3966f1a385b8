// Package agents is the analyzer for an agent giving itself or another
// agent more power: launching an AI coding agent with its
// approvals switched off, and changing agent and IDE settings so that
// tools run without asking, MCP servers are added, hooks are installed
// or removed, or the permission mode changes.
//
// Rules, all with stable ids (every refusal teaches):
//
//   - agents.approvals-off (deny): an agent launched with its approvals
//     off. Each agent CLI has a catalog entry (programs/catalog/agents.txt)
//     whose approvals-off options are named "approvals-off" (claude
//     --dangerously-skip-permissions, gemini/qwen --yolo, codex
//     --dangerously-bypass-approvals-and-sandbox, q and kiro-cli chat
//     --trust-all-tools, copilot --allow-all-tools, cursor-agent --force,
//     amp --dangerously-allow-all, aider --yes-always, droid exec
//     --skip-permissions-unsafe, agy --dangerously-skip-permissions); the
//     mode options are judged by value (claude --permission-mode
//     bypassPermissions, gemini --approval-mode yolo, codex -a never with
//     -s danger-full-access or the same through -c, claude --settings
//     text that sets such a mode, an unscoped Bash or shell tool allowed
//     by --allowedTools or --allow-tool). droid exec --auto high asks.
//   - agents.auto-approve (deny): a settings write that auto-approves
//     tools or changes the permission mode: Claude Code's permissions
//     allow lists, defaultMode, additionalDirectories; VS Code's
//     chat.tools.*autoApprove; Codex's approval_policy = "never" and
//     sandbox_mode = "danger-full-access"; Gemini's tools.allowed and
//     autoAccept; Cursor's permissions; Amp's dangerouslyAllowAll; Zed's
//     always_allow_tool_actions; aider's yes-always; opencode's "allow".
//   - agents.mcp-server (deny): a settings write that adds MCP servers
//     (mcpServers, mcp_servers, servers in an mcp.json file, VS Code's
//     mcp and chat.mcp.*, Zed's context_servers, opencode's mcp,
//     enableAllProjectMcpServers) and the agent CLIs' "mcp add"; a
//     launch with --mcp-config asks.
//   - agents.hooks (deny): a settings write that adds or turns off hooks
//     (hooks, disableAllHooks, Codex's notify and [hooks] tables, Cursor's
//     and Kiro's hook files), and codex --dangerously-bypass-hook-trust.
//   - agents.settings-command (ask): a setting whose value is a command
//     the agent host runs (statusLine, apiKeyHelper and other *Helper
//     keys, "command" outside MCP server lists).
//   - agents.weaken (ask): an edit that takes deny rules, ask rules or
//     hooks out of the settings.
//   - agents.settings-unseen (ask): a shell write to an agent settings
//     file whose content cannot be seen (cp, mv, curl -o, a program's
//     output); a shell write of static text (echo, printf, a heredoc, a
//     sed or jq program) is judged by that text like a Write.
//
// Settings files: Claude Code's .claude/settings*.json, ~/.claude.json
// and managed-settings.json; .vscode/settings.json, .vscode/mcp.json and
// VS Code's user settings (also Cursor's, Windsurf's and VSCodium's);
// anything under .cursor/; .kiro/settings/, .kiro/agents/, .kiro/hooks/;
// .gemini/ and .qwen/ settings.json; .codex/config.toml and hooks.json;
// Amp's settings.json; ~/.copilot/; .aider.conf.yml; Zed's
// settings.json; opencode.json; .continue/; Windsurf's mcp_config.json;
// .factory/; every .mcp.json, mcp.json and mcp_config.json. Ordinary
// edits of the same files (a theme, a formatter) pass.
//
// Content is read as text, not parsed: JSON, YAML and TOML keys with the
// scalar value after them, and JSON string values. The analyzer self
// also asks before any change to Claude Code's settings (where toolwall's
// hook lives); where both speak, the gate takes the stricter verdict, so
// a change that adds power is denied and an ordinary one asked by self.
// In RootContext the analyzer reports nothing.
package agents
