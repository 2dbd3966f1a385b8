// Package approval remembers a human's "yes" to an asked tool call, so
// the same call in the same session and directory is allowed again
// without asking, for a bounded time.
//
// When the gate asks about a call, the driver calls [Store.Check]: with a
// live grant for the call's [Key] the verdict becomes allow (with a note
// naming the grant); without one, a pending entry names the decision.
// The grant is made when a human approves:
//
//   - Claude Code runs an asked call only after the user said yes, so its
//     PostToolUse for that call ([Store.Confirm], by session and
//     tool_use_id) grants it, unless the session's permission mode lets
//     calls run without a prompt (bypassPermissions, dontAsk, auto: no
//     human saw it).
//   - Elsewhere a human runs `toolwall approve <decision-id>`
//     ([Store.Approve]) from a terminal.
//
// A deny is never approved: only asks leave a pending entry, and Check
// changes only asks. A grant lasts for the session (bounded by
// Options.Retention) or Options.TTL when set.
//
// The store is one append-only JSON Lines file (package jsonl) beside
// the session state, ~/.local/state/toolwall/approvals.jsonl by default.
// A grant is made once: [Store.Approve] and [Store.Confirm] read the
// pending ask and append its grant under an exclusive flock(2) on
// approvals.jsonl.lock beside it, so two `toolwall approve` of one ask at
// the same moment, or two servers on one file, record one grant (the
// second gets ErrNotPending). Systems without flock (not unix) keep apart
// the goroutines of one process only. Both files must be protected from
// the agent by the self analyzer (an agent that can write the store
// approves for itself; one that replaces the lock file while it is held
// can make two grants): [Files] lists them. No environment variable
// changes where they are or what they decide.
//
// Every approvals store is a [Keeper] with the same rules: the JSON Lines
// [Store] here, and approval/postgres, which the HTTP server's replicas
// share; approval/approvaltest is the conformance suite both pass.
package approval
