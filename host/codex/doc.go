// Package codex is the OpenAI Codex CLI adapter.
//
// Protocol (openai/codex codex-rs/hooks: events/pre_tool_use.rs,
// engine/output_parser.rs, schema.rs; the agent-host protocol
// notes): the payload is Claude Code's shape (session_id, turn_id, cwd,
// hook_event_name, tool_name, tool_input, tool_use_id). The shell tools
// (shell, exec_command, unified exec) arrive as tool_name "Bash" with
// tool_input.command; every file edit arrives as "apply_patch" with the
// raw patch text in tool_input.command, judged here as the file writes
// the patch makes; MCP tools are mcp__server__tool.
//
// Codex can only deny: "ask", and "allow" without updatedInput, mark the
// hook Failed and the call proceeds, as does any output with a field the
// output structs do not know (#[serde(deny_unknown_fields)]) or a deny
// with an empty reason. So the adapter prints exactly
// {"hookSpecificOutput":{"hookEventName":"PreToolUse",
// "permissionDecision":"deny","permissionDecisionReason":"…"}} and
// nothing else, exits 0, prints nothing to allow, and answers an ask as a
// deny saying a human must run the call. A crash, a timeout or a non-zero
// exit other than 2 fails open in Codex, hence the Hook's own deadline.
package codex
