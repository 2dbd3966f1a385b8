// Package copilot is the GitHub Copilot CLI adapter.
//
// Protocol (github/docs copilot-cli-reference/cli-hooks-reference.md and
// hooks-configuration.md; github/copilot-cli changelog;
// the agent-host protocol notes): with camelCase events in the
// configuration (preToolUse, postToolUse, userPromptSubmitted) the
// payload is {sessionId?, timestamp, cwd, toolName, toolArgs} where
// toolArgs is documented as a JSON-encoded string and sent as an object
// by recent versions — both are read; postToolUse adds toolResult,
// userPromptSubmitted has prompt. With PascalCase events (≥1.0.21) the
// payload is Claude-shaped: {hook_event_name, session_id, timestamp, cwd,
// tool_name, tool_input}. Tools: bash (powershell on Windows) {command},
// create {path, file_text}, edit {path, old_str, new_str}, view {path},
// apply_patch (patch text), web_fetch {url}; the hooks reference lists
// the built-in names (ask_user, bash, create, edit, glob, grep,
// powershell, task, view, web_fetch) and no MCP ones. An MCP tool is
// <server>-<tool> (Copilot CLI's tool.execution_start events name
// "github-mcp-server-get_file_contents" with mcpServerName
// "github-mcp-server"; no built-in name has a dash), and mcp__server__tool
// in Claude-format plugin hooks (changelog 1.0.62): either is judged as an
// MCP call whose arguments are read by what they would do (package
// mcpargs; the server is not split off the dashed form, as server names
// hold dashes too). A tool toolwall does not know whose arguments carry a
// command is refused.
//
// The answer is {"permissionDecision":"deny"|"ask",
// "permissionDecisionReason":"…"} on stdout with exit 0 (a deny needs the
// reason; "ask" exists since 1.0.4 and is a deny in non-interactive runs);
// to allow the adapter prints nothing. Since 1.0.57 a hook error denies;
// timeouts fail open, hence the Hook's own deadline. With PascalCase
// events the same fields are read; the adapter answers in the flat form
// both shapes accept.
//
// User hooks are the *.json files in ~/.copilot/hooks, or in
// $COPILOT_HOME/hooks when COPILOT_HOME is set (docs.github.com copilot
// hooks-reference, "Hooks locations"); install, uninstall and doctor
// follow the variable.
package copilot
