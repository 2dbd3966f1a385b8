// Package cursor is the Cursor (agent and CLI) adapter.
//
// Checked against Cursor 3.9.16 (2026-06-30). Cursor is closed source;
// its hooks reference (cursor.com/docs/reference/hooks, linked from
// cursor.com/docs/hooks) was read as quoted, field by field with live
// captures at 3.9.16, in a public Cursor hooks contract, and against
// cupcake's Cursor harness reference and cc-safety-net's Cursor
// integration. Each fact below names where it comes from: R for the
// reference, C for a live capture at 3.9.16.
//
// Configuration (R): ~/.cursor/hooks.json and <project>/.cursor/hooks.json
// (also /etc/cursor, /Library/Application Support/Cursor,
// C:\ProgramData\Cursor for enterprise), {"version": 1, "hooks": {EVENT:
// [{"command", "type", "timeout" (seconds), "loop_limit", "failClosed",
// "matcher"}]}}. failClosed (default false) makes a crash, a timeout, an
// empty answer or output that is not JSON block the call (R, C).
//
// Events and fields, each with hook_event_name, conversation_id (C: equal
// to session_id), generation_id, model, cursor_version, workspace_roots,
// user_email, transcript_path (R, C):
//
//   - preToolUse {tool_name, tool_input (an object), tool_use_id, cwd} (R,
//     C); tools Shell {command, cwd, timeout} (C), Read {file_path} (C),
//     Write, Grep {pattern, file_path} (C), Task, and MCP tools
//     "MCP:<tool>" (R; "MCP:server:tool" in another integration's
//     reference: both are read, the server split off when named).
//     Write's and Edit's argument names are not in the reference: file_path,
//     path, target_file and contents or content are read, and a Read,
//     Write, Edit or Delete naming no file is refused.
//   - beforeShellExecution {command, cwd, sandbox} (R, C).
//   - beforeMCPExecution {tool_name, tool_input (a JSON string in R, an
//     object in some releases: both are read), url | command} (R).
//   - beforeReadFile {file_path, content, attachments} (R, C).
//   - postToolUse {tool_name, tool_input, tool_output (a JSON string),
//     tool_use_id, duration} and afterShellExecution {command, output,
//     duration, sandbox}: the call ran (R, C); postToolUseFailure and
//     afterMCPExecution likewise. beforeSubmitPrompt {prompt,
//     attachments}: the next turn (R, C).
//
// The answer is JSON on stdout with exit 0 (R): {"permission": "allow" |
// "deny", "user_message", "agent_message"}; beforeSubmitPrompt takes
// {"continue": true}. The model reads a deny's user_message (C: it comes
// back as postToolUseFailure's error_message; agent_message was not seen
// to reach it), so the reason goes in both. Exit 2 also blocks, but a JSON
// body beside it reaches the model unparsed (C), so toolwall never uses
// it. "ask" is accepted but not enforced on preToolUse (R) and blocked
// with no prompt shown on beforeShellExecution (C): an ask is answered as
// a deny saying a human must run the call. Every answer is JSON, allow
// included, because toolwall is installed with "failClosed": true on the
// four deciding events. The Windows CLI sends a UTF-8 byte order mark on
// stdin; the Hook strips it.
//
// One call arrives in two events (preToolUse and beforeShellExecution,
// beforeMCPExecution or beforeReadFile; postToolUse and
// afterShellExecution: R, C), only one of which carries a tool_use_id: the
// request's Once is the generation_id, so that within a generation the
// same call is decided once (host.Hook.Decisions). MCP tools are
// mcp__server__tool (or mcp__tool when Cursor names no server), their
// arguments judged by what they would do. A tool toolwall does not know
// is judged under its own name, unless its input carries a command: that
// is refused, never read as harmless.
package cursor
