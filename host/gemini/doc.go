// Package gemini is the Gemini CLI adapter.
//
// Protocol (google-gemini/gemini-cli docs/hooks/reference.md and
// packages/core/src/hooks/hookRunner.ts; the agent-host protocol
// notes): events BeforeTool, AfterTool and BeforeAgent (a user prompt: the
// next turn); the payload has session_id, transcript_path, cwd,
// hook_event_name, timestamp, tool_name, tool_input and, for MCP tools,
// mcp_context. Tools: run_shell_command {command, dir_path}, write_file
// {file_path, content}, replace {file_path, old_string, new_string},
// read_file {file_path}, read_many_files {paths}, web_fetch {prompt}
// (the URLs named in the prompt are fetched), MCP tools
// mcp_<server>_<tool>.
//
// The decision is JSON on stdout, {"decision":"deny"|"ask","reason":"…"},
// with exit 0 always: Gemini reads JSON first whatever the exit status,
// treats exit 2 without output as a failed hook (not blocking) and
// "continue": false as stopping the whole agent loop, so the adapter uses
// none of those. To allow it prints nothing. A crash or a timeout fails
// open in Gemini CLI, hence the Hook's own deadline.
package gemini
