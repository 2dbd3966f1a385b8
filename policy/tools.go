package policy

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolwall/toolwall/executor/websearch"
)

// Tables of issue 14: [trajectory] and [search] (the adversarial policy
// gate's [adversarial] is in llm.go, beside the other model tables).

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

// Search is the [search] table: the web_search executor (seed 003's
// [tools.search]; see package executor/websearch). It configures
// executors an application builds (SearchOptions) and `toolwall search`;
// the hook judges calls of a host's own search tool by the [[rule]]
// entries only.
type Search struct {
	// Enabled turns web search on (default off).
	Enabled bool `toml:"enabled"`
	// Provider is "brave" (the default and only one).
	Provider string `toml:"provider"`
	// Endpoint is the provider's search URL (default Brave's,
	// https://api.search.brave.com/res/v1/web/search).
	Endpoint string `toml:"endpoint"`
	// APIKeyEnv names the environment variable holding the key (default
	// BRAVE_API_KEY); the key itself never goes in the file.
	APIKeyEnv string `toml:"api_key_env"`
	// MaxResults is how many results a search returns unless it asks for
	// fewer (default 10; 1 to 20).
	MaxResults int `toml:"max_results"`
	// Timeout bounds one search (default 15s; at most 60s).
	Timeout Duration `toml:"timeout"`
}

// SearchOptions returns the web_search executor's options of [search];
// the caller adds the gate, the audit sink and, in tests, the network.
func (c *Config) SearchOptions() websearch.Options {
	s := c.Search
	return websearch.Options{Provider: s.Provider, Endpoint: s.Endpoint, APIKeyEnv: s.APIKeyEnv, MaxResults: s.MaxResults, Timeout: s.Timeout.Duration}
}

// checkTools checks the [trajectory] and [search] tables.
func (c *Config) checkTools() error {
	if c.Search != (Search{}) {
		if err := c.SearchOptions().Check(); err != nil {
			return fmt.Errorf("search: %s", strings.TrimPrefix(err.Error(), "websearch: "))
		}
		if t := c.Search.Timeout.Duration; t < 0 || t > time.Minute {
			return fmt.Errorf("search.timeout must be from 0s to 60s")
		}
	}
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
