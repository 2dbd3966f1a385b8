// Package windsurf is the Windsurf (Cascade, now Devin Desktop) adapter.
//
// Checked against the Cascade hooks page, docs.windsurf.com/windsurf/
// cascade/hooks (also docs.devin.ai/desktop/cascade/hooks), as stored in
// 2026 (English, and the zh, ja, es, de and fr translations for the
// configuration sections); Windsurf is closed source.
//
//   - Configuration ("Configuration"): hooks.json merged from the system
//     file (/Library/Application Support/Windsurf, /etc/windsurf,
//     C:\ProgramData\Windsurf), the user file ~/.codeium/windsurf/
//     hooks.json (the JetBrains plugin: ~/.codeium/hooks.json) and the
//     workspace's .windsurf/hooks.json, run system → user → workspace;
//     {"hooks": {EVENT: [{"command", "show_output"}]}}. The user install
//     writes both user files.
//   - Events: pre_/post_read_code, pre_/post_write_code,
//     pre_/post_run_command, pre_/post_mcp_tool_use, pre_user_prompt,
//     post_cascade_response(_with_transcript), post_setup_worktree.
//   - Payload: {agent_action_name, trajectory_id, execution_id,
//     timestamp, model_name, tool_info} with tool_info {command_line, cwd}
//     for commands, {file_path, edits: [{old_string, new_string}]} for
//     writes, {file_path} for reads, {mcp_server_name, mcp_tool_name,
//     mcp_tool_arguments} (+ mcp_result after) for MCP tools, {user_prompt}
//     for a prompt. A pre-hook payload without the field it is about (no
//     command_line, file_path or mcp_tool_name) is refused.
//   - Exit status ("How Hooks Work"): 2 blocks a pre-hook and shows the
//     hook's output; 0 proceeds; anything else is logged and the action
//     proceeds. There is no JSON decision and no ask: an ask is a deny
//     saying a human must run the call. Timeout and crash behaviour is not
//     documented (most likely fail open), hence the Hook's own deadline.
package windsurf
