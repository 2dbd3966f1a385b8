// Package claudecode is the Claude Code adapter: hook events PreToolUse,
// PostToolUse, PostToolUseFailure and UserPromptSubmit.
//
// Protocol (Claude Code hooks reference, code.claude.com/docs/en/hooks;
// the agent-host protocol notes): one JSON object on stdin with
// session_id, cwd, permission_mode, hook_event_name and, per event,
// tool_name / tool_input / tool_use_id (PreToolUse), tool_response and
// duration_ms (PostToolUse), error (PostToolUseFailure) or prompt
// (UserPromptSubmit); agent_type inside a sub-agent. Tool names are
// toolwall's own (Bash, PowerShell, Write, Edit, MultiEdit, Read,
// NotebookEdit, WebFetch, mcp__server__tool). To deny or ask the hook
// prints {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "deny"|"ask", "permissionDecisionReason": "…"}}
// and exits 0; to allow it prints nothing. A top-level {"decision":
// "deny"} is silently ignored by Claude Code, and any non-zero exit but 2
// lets the call through, so the adapter never uses either. An ask shows
// Claude Code's prompt, except in the bypassPermissions, dontAsk and auto
// modes, where nobody is asked.
package claudecode
