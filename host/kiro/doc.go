// Package kiro is the Kiro CLI adapter.
//
// Protocol (kiro.dev/docs/cli/hooks and the agent configuration
// reference; shared/reference/agent-hosts.md §11): hooks live in an agent
// configuration (.kiro/agents/<name>.json, ~/.kiro/agents/<name>.json) as
// {"hooks": {"preToolUse": [{"matcher", "command", "timeout_ms"}]}}. The
// payload is {hook_event_name, cwd, tool_name, tool_input} (preToolUse,
// postToolUse with tool_response, userPromptSubmit with prompt); it has
// no session id, so Kiro gets no session memory. Tools: execute_bash,
// shell or execute_cmd {command}, fs_write or write {command: create |
// str_replace | append | insert, path, file_text, old_str, new_str},
// fs_read or read {path, or operations: [{path}]}, use_aws; MCP tools are
// @server/tool.
//
// Kiro reads exit statuses only: 2 blocks a preToolUse and sends stderr
// to the model, anything else but 0 is a warning and the call continues.
// There is no ask: an ask is a deny saying a human must run the call. A
// timeout fails open (30 s by default), hence the Hook's own deadline.
package kiro
