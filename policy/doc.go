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
// Where it is read from: --config, else $TOOLWALL_CONFIG, else
// $XDG_CONFIG_HOME/toolwall/config.toml, else
// ~/.config/toolwall/config.toml. A missing file at a default place means
// the defaults; a missing file that was named explicitly is an error.
package policy
