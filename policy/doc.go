// Package policy loads toolwall's configuration: a TOML file decoded
// strictly (an unknown key is an error naming it, so a typo never silently
// weakens the gate), checked once, and turned into gate options.
//
// The file (all keys optional):
//
//	[thresholds]          # seed 000 bands; Critical at 0.9 is fixed
//	warn  = 0.4
//	block = 0.7
//
//	[rules]
//	disable = ["priv.sudo"]   # rule ids whose findings are dropped
//
//	[memory]              # session memory of the hook
//	state     = "~/.local/state/toolwall/state.db"
//	turns     = 3         # chain window in turns (seed 003)
//	calls     = 100       # chain window in calls
//	retention = "168h"    # idle sessions are pruned after this
//
//	[llm]                 # the model the later stage asks (see LLM)
//	base_url = "http://127.0.0.1:11434/v1"
//	model    = "qwen2.5:7b"
//
//	[guardrail]           # seed 001's guardrail LLM (see Guardrail)
//	enabled = true
//
//	[advisor]             # seed 004's advisor (see Advisor)
//	enabled   = true
//	threshold = 70        # 0 to 100 in steps of 10
//
// Where it is read from: --config, else $TOOLWALL_CONFIG, else
// $XDG_CONFIG_HOME/toolwall/config.toml, else
// ~/.config/toolwall/config.toml. A missing file at a default place means
// the defaults; a missing file that was named explicitly is an error.
package policy
