// Package hook drives toolwall from agent hosts' hook protocols, starting
// with Claude Code. A driver decodes the host's payload, calls a
// [toolwall.Shield], and encodes the answer; it holds no rules (DESIGN.md
// principle 6).
//
// Claude Code treats a crashed or failing hook as "allow", so [ClaudeCode]
// never panics and never reports failure through its exit status: a
// malformed PreToolUse payload gets a deny with a clear reason, and an
// internal error in any event is answered in the protocol (principle 7).
//
// Protocol (Claude Code hooks reference): the host writes one JSON object
// on stdin with session_id, cwd, hook_event_name and, per event,
// tool_name / tool_input (PreToolUse), tool_response (PostToolUse), error
// (PostToolUseFailure) or prompt (UserPromptSubmit). To deny or ask, the
// hook prints {"hookSpecificOutput": {"hookEventName": "PreToolUse",
// "permissionDecision": "deny"|"ask", "permissionDecisionReason": "…"}}
// and exits 0; to allow it prints nothing and exits 0.
package hook
