// Package qwen is the Qwen Code adapter.
//
// Protocol (QwenLM/qwen-code docs/users/features/hooks.md;
// the agent-host protocol notes): Claude Code's payload and answer
// (session_id, cwd, hook_event_name PreToolUse / PostToolUse /
// UserPromptSubmit, permission_mode default|plan|auto_edit|yolo,
// tool_name, tool_input, tool_use_id, tool_call_id) with Gemini CLI's
// tool names: run_shell_command {command, directory}, write_file
// {file_path, content}, edit {file_path, old_string, new_string},
// read_file {absolute_path or file_path}, read_many_files, web_fetch {url,
// prompt}. The answer is hookSpecificOutput with permissionDecision
// allow, deny or ask and a required permissionDecisionReason; Qwen Code
// itself turns an ask into a deny in headless runs and in background
// sub-agents. A crash or a timeout is non-blocking, hence the Hook's own
// deadline.
//
// Turns: Qwen Code fires UserPromptSubmit before every UserQuery,
// ToolResult and Hook send, not only when a person submits a prompt. A
// tool-result continuation's prompt is the text of function-response
// parts, which is empty; a submission from the interactive composer
// carries submitted_prompt (qwen-code 0.x, docs/users/features/hooks.md
// "UserPromptSubmit"). A blank prompt without submitted_prompt continues
// the turn (the event is ignored); any other prompt starts the next one.
// A hook's continuation with a text prompt cannot be told from a headless
// user query and counts as a turn.
package qwen
