// Package policy loads toolwall's configuration and puts it to work: TOML
// decoded strictly (an unknown key is an error naming the file, line and
// key, so a typo never silently weakens the gate), layered, checked once,
// its custom rules compiled and self-tested at load.
//
// Layers, lowest first:
//
//   - system: /etc/toolwall/config.toml ([SystemPath]);
//   - user: --config, else $TOOLWALL_CONFIG, else
//     $XDG_CONFIG_HOME/toolwall/config.toml, else
//     ~/.config/toolwall/config.toml ([DefaultPath]);
//   - project: <project root>/.toolwall.toml ([ProjectFile]), read per
//     call by [Policy.For].
//
// A higher layer overrides the keys it sets, table by table; [[rule]] and
// [[allow]] accumulate (an operator layer's rule replaces a lower one of
// the same id). The system and user files are the operator's: they may
// loosen ([rules] disable, allow rules and the [[allow]] list, each for
// an exact project path). The project file lives where the agent writes,
// so it may only tighten: lower [thresholds] and new warn/ask/deny
// [[rule]]s; a looser threshold, an allow rule or a rule id an operator
// file defines is an error naming both files.
//
// The operator file (all keys optional):
//
//	[thresholds]          # the tool shield bands; Critical at 0.9 is fixed
//	warn  = 0.4
//	block = 0.7
//
//	[rules]
//	disable = ["priv.sudo"]   # rule ids whose findings are dropped
//
//	[memory]              # session memory of the hook
//	state     = "~/.local/state/toolwall/state.db"
//	turns     = 3         # chain window in turns
//	calls     = 100       # chain window in calls
//	retention = "168h"    # idle sessions are pruned after this
//
//	[[rule]]              # see Rule
//	id      = "team.no-force-push"
//	command = ["git push ** --force **"]
//	action  = "deny"
//	reason  = "Force-pushing rewrites shared history; push normally."
//	match   = ["git push --force origin main"]
//	not_match = ["git push origin main"]
//
//	[[allow]]             # see Allow
//	project = "/home/me/src/app"
//	command = "rm -rf build/cache"
//
//	[approvals]
//	ttl = "30m"           # default: the rest of the session
//
//	[audit]
//	store     = "sqlite"  # or "jsonl"
//	retention = "720h"
//
//	[llm]                 # the model the later stage asks (see LLM)
//	base_url = "http://127.0.0.1:11434/v1"
//	model    = "qwen2.5:7b"
//
//	[guardrail]           # the LLM security analyzer's guardrail LLM (see Guardrail)
//	enabled = true
//
//	[advisor]             # the shell guardrail's advisor (see Advisor)
//	enabled   = true
//	threshold = 70        # 0 to 100 in steps of 10
//
// How the policy meets the gate: [Policy.Analyzer] turns the rules into
// findings (evaluated on the shell reader's argv), which fuse with the
// built-in analyzers' as usual (the strictest wins); then [Policy.Apply]
// applies the project's thresholds (stricter only) and the operator's
// allowlist, which turns an ask into an allow and never touches a deny.
// The engine wires both for every driver.
package policy
