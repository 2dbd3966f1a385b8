package policy

import (
	"fmt"
	"strings"
)

// Trajectory is the [trajectory] table: a per-session risk level (0 calm
// … 3 critical) raised by refused calls, chain findings and anomalies,
// falling at each new user turn; at 3 an allow becomes a deny for tools
// that write, run or send (issue 14, seed 003's TrajectoryRiskSlot; see
// package trajectory).
type Trajectory struct {
	// Enabled turns it on (default off: reading the level costs the hook
	// a state-file read on most calls).
	Enabled bool `toml:"enabled"`
	// Decay is how many points the risk loses at each new user turn: 1
	// (default) to 3.
	Decay *int `toml:"decay"`
	// ReadOnly lists more tools a critical session may still use, beside
	// Read, Grep, Glob and LS.
	ReadOnly []string `toml:"read_only"`
}

// TrajectoryDecay returns trajectory.decay, or 0 for the default.
func (c *Config) TrajectoryDecay() int {
	if c.Trajectory.Decay != nil {
		return *c.Trajectory.Decay
	}
	return 0
}

// checkTools checks the [trajectory] table.
func (c *Config) checkTools() error {
	if d := c.Trajectory.Decay; d != nil && (*d < 1 || *d > 3) {
		return fmt.Errorf("trajectory.decay = %d: want 1 to 3 (points the risk loses at each new user turn)", *d)
	}
	for _, t := range c.Trajectory.ReadOnly {
		if strings.TrimSpace(t) == "" {
			return fmt.Errorf("trajectory.read_only: empty tool name")
		}
	}
	return nil
}
