// Package windsurf is the Windsurf (Cascade, now Devin Desktop) adapter.
//
// Protocol (docs.windsurf.com/windsurf/cascade/hooks;
// shared/reference/agent-hosts.md §8): hooks.json events pre_run_command,
// pre_write_code, pre_read_code, pre_mcp_tool_use (and their post_
// counterparts) and pre_user_prompt. The payload is {agent_action_name,
// trajectory_id, execution_id, timestamp, model_name, tool_info} with
// tool_info {command_line, cwd} for commands, {file_path, edits:
// [{old_string, new_string}]} for writes, {file_path} for reads,
// {mcp_server_name, mcp_tool_name, mcp_tool_arguments} for MCP tools.
//
// Windsurf reads exit statuses only: 0 proceeds, 2 blocks a pre-hook and
// shows stderr, anything else is logged and the action proceeds. There is
// no JSON decision and no ask: an ask is a deny saying a human must run
// the call. Timeout and crash behaviour is undocumented (most likely fail
// open), hence the Hook's own deadline.
package windsurf
