// Package factory is the Factory Droid adapter.
//
// Checked against Factory's documentation repository Factory-AI/factory
// at a80aa7c5 (2026-07-24): docs/reference/hooks-reference.mdx (also
// docs.factory.ai/reference/hooks-reference) and the hooks guides under
// docs/guides/hooks/. Each fact names its section there.
//
//   - Configuration ("Configuration"): ~/.factory/hooks.json (user),
//     .factory/hooks.json (project), enterprise managed hooks; the hooks
//     key of settings.json when hooks.json is absent; the legacy
//     .factory/hooks/hooks.json still loads. Claude Code's shape:
//     {"hooks": {EVENT: [{"matcher", "hooks": [{"type": "command",
//     "command", "timeout" (seconds)}]}]}}, matcher "*" for all tools.
//     Changes made outside Droid apply only after review in /hooks
//     ("Configuration Safety").
//   - Events ("Hook Events"): PreToolUse, PostToolUse, UserPromptSubmit,
//     Notification, Stop, SubagentStop, PreCompact, SessionStart,
//     SessionEnd.
//   - Input ("Hook Input"): session_id, transcript_path, cwd,
//     permission_mode (off, spec, auto-low, auto-medium, auto-high),
//     hook_event_name, tool_name, tool_input; PostToolUse adds
//     tool_response ({filePath, success}); UserPromptSubmit prompt. A
//     camelCase spelling (hookEventName, sessionId, …) reported by
//     cupcake's harness is read as well.
//   - Tools ("PreToolUse", hooks guides): Execute {command}, Create
//     {file_path, content}, Edit {file_path, …}, Read {file_path}, Glob,
//     Grep, FetchUrl, WebSearch, Task, ApplyPatch (matchers
//     "Create|Edit|ApplyPatch"); MCP tools mcp__<server>__<tool> ("MCP
//     Tool Naming"). Edit's old/new names and ApplyPatch's field are not
//     documented: old_str or old_string, new_str or new_string, and the
//     patch text (Codex's apply_patch format) under patch, input or
//     command are read. MultiEdit was removed from Droid (release notes).
//     A tool naming no file, an Execute with no command, an ApplyPatch
//     with no patch header and an unknown tool carrying a command are
//     refused, never read as harmless.
//   - Output ("Hook Output"): exit 0 with hookSpecificOutput
//     {hookEventName: "PreToolUse", permissionDecision: allow | deny |
//     ask, permissionDecisionReason}; deny's reason goes to Droid. Exit 2
//     blocks with stderr to Droid; other exit statuses are non-blocking
//     and the call proceeds.
//   - Execution ("Hook Execution Details"): 60 s timeout by default, all
//     matching hooks run in parallel. rtk-ai/rtk#2267 (Droid 0.140.0)
//     reports that the first hook result carrying a decision wins, so
//     toolwall should be the only deciding PreToolUse hook.
package factory
