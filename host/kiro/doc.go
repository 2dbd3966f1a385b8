// Package kiro is the Kiro CLI adapter.
//
// Checked against the Kiro CLI hook protocol as implemented in
// aws/amazon-q-developer-cli at 15cc8f3c (2026-04-23; Kiro CLI is its
// successor and kiro.dev/docs/cli/hooks carries the same text):
// docs/hooks.md, crates/chat-cli/src/cli/agent/hook.rs,
// crates/chat-cli/src/cli/chat/cli/hooks.rs, crates/chat-cli/src/cli/chat/
// mod.rs (the preToolUse call), crates/chat-cli/src/cli/chat/tools/.
//
//   - Configuration (hook.rs, docs/hooks.md): hooks live in an agent
//     configuration (.kiro/agents/<name>.json, ~/.kiro/agents/<name>.json)
//     as {"hooks": {"preToolUse": [{"command", "matcher", "timeout_ms"
//     (default 30000), "cache_ttl_seconds" (default 0), "max_output_size"}]}};
//     matcher "*" is every tool, "@builtin" the built-in ones, "@server"
//     or "@server/tool" MCP tools. Kiro CLI 3 also reads standalone
//     .kiro/hooks/<name>.json files ({"version": "v1", "hooks": [{name,
//     trigger, matcher, action: {type: "command", command}}]};
//     kiro.dev/docs/cli/v3/hooks) and keeps running hooks embedded in
//     agents during the transition; toolwall writes the agent form.
//   - Payload (hooks.rs run_hook): {hook_event_name, cwd} plus tool_name,
//     tool_input (and tool_response after the call) for tool events, prompt
//     for userPromptSubmit; event names agentSpawn, userPromptSubmit,
//     preToolUse, postToolUse, stop. There is no session id, so Kiro gets
//     no session memory.
//   - Tools (tools/mod.rs, execute/mod.rs, fs_write.rs): execute_bash
//     (execute_cmd on Windows) {command, summary}; fs_write {command:
//     create {path, file_text | new_str} | str_replace {path, old_str,
//     new_str} | insert {path, insert_line, new_str} | append {path,
//     new_str}}; fs_read {operations: [{mode, path}]}; use_aws, knowledge,
//     todo_list, delegate, …; an MCP tool is "@<server>/<tool>"
//     (custom_tool.rs namespaced_tool_name). Newer Kiro releases also call
//     the built-ins shell, write and read: both names are read. An fs_write
//     naming no path, a shell tool with no command and an unknown tool
//     carrying a command are refused.
//   - Exit status (chat/mod.rs, docs/hooks.md): 2 blocks a preToolUse and
//     returns stderr to the model ("PreToolHook blocked the tool
//     execution: …"); 0 allows; anything else is a warning and the call
//     proceeds; a timeout is an error, shown as a warning, and the call
//     proceeds — hence the Hook's own deadline. There is no ask and no
//     JSON decision: an ask is a deny saying a human must run the call.
package kiro
