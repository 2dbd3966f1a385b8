package session

import (
	"errors"
	"os"
	"path/filepath"
)

// EnvState names the environment variable that overrides the state file
// location.
const EnvState = "TOOLWALL_STATE"

// DefaultPath returns where the SQLite state file lives: $TOOLWALL_STATE
// when set, else $XDG_STATE_HOME/toolwall/state.db when XDG_STATE_HOME is
// an absolute path (the XDG Base Directory Specification ignores relative
// ones), else ~/.local/state/toolwall/state.db (the specification's
// default). It fails only when none is set and the home directory is
// unknown.
func DefaultPath() (string, error) {
	if p := os.Getenv(EnvState); p != "" {
		return p, nil
	}
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "toolwall", "state.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errors.Join(errors.New("session: no state file location: set "+EnvState+", XDG_STATE_HOME or HOME"), err)
	}
	return filepath.Join(home, ".local", "state", "toolwall", "state.db"), nil
}
