// Package factory is the Factory Droid adapter.
//
// Protocol (docs.factory.ai reference/hooks-reference and
// cli/configuration/hooks-guide; rtk-ai/rtk PR #2267; cupcake's and
// hookshot's Droid references; shared/reference/agent-hosts.md §10):
// Claude Code's hook events and answer. The payload's field names are
// snake_case in Factory's reference and hookshot and camelCase
// (hookEventName, sessionId, transcriptPath, permissionMode) in cupcake's:
// both are read. Tools: Execute {command}, Create {file_path, content},
// Edit {file_path, old_str or old_string, new_str or new_string},
// MultiEdit, Read {file_path}, FetchUrl {url}, and Claude Code's names.
// The answer is hookSpecificOutput with permissionDecision allow, deny or
// ask; exit 2 would block too. Droid applies the first hook result that
// carries a decision (no deny-over-allow priority) and treats a timeout as
// non-blocking, so toolwall should be the first PreToolUse hook and
// answers within its own deadline.
package factory
