// Package cursor is the Cursor (agent and CLI) adapter.
//
// Protocol (shared/reference/agent-hosts.md §4, from cc-safety-net's
// Cursor integration, the Doberman-Core connector memo quoting the
// Cursor docs, cupcake's harness docs and Cursor forum threads; the docs
// page itself, cursor.com/docs/agent/hooks, could not be read): hooks.json
// events preToolUse {tool_name, tool_input, tool_use_id, cwd},
// beforeShellExecution {command, cwd}, beforeMCPExecution {tool_name,
// tool_input (an object, or a JSON string in some versions), url |
// command}, beforeReadFile {file_path, content}, postToolUse and
// afterShellExecution (the call ran), beforeSubmitPrompt (the next turn),
// each with hook_event_name, conversation_id, generation_id and
// workspace_roots. preToolUse tools: Shell {command, working_directory},
// Read, Write, Edit / StrReplace, Delete {file_path or path}, Grep, Glob,
// Task and MCP tools.
//
// The answer is JSON on stdout: {"permission":"allow"|"deny",
// "user_message":"…","agent_message":"…"}; beforeSubmitPrompt takes
// {"continue":true}. Only deny is reliable in Cursor: an allow or an ask
// from a hook can be overridden by the user's allow-list, and "ask" is
// reported broken since 2.4.21, so an ask is answered as a deny saying a
// human must run the call. Every answer is JSON, allow included: toolwall
// is installed with "failClosed": true, which makes a crash, a timeout or
// output that is not JSON block the call. The Windows CLI sends a UTF-8
// byte order mark on stdin; the Hook strips it.
//
// One call arrives in two events (preToolUse and beforeShellExecution,
// beforeMCPExecution or beforeReadFile; postToolUse and
// afterShellExecution), only one of which carries a tool_use_id: the
// request's Once is the generation_id, so that within a generation the
// same call is decided once (host.Hook.Decisions). MCP tools are
// mcp__<tool> (Cursor names no server: preToolUse "MCP:<tool>",
// beforeMCPExecution tool_name), their arguments judged by what they
// would do.
package cursor
