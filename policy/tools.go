package policy

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// The tables [trajectory] and [search] (the adversarial policy
// gate's [adversarial] is in llm.go, beside the other model tables).

// Trajectory is the [trajectory] table: a per-session risk level (0 calm
// … 3 critical) raised by refused calls, chain findings and anomalies,
// falling at each new user turn; at 3 an allow becomes a deny for tools
// that write, run or send (the tool-executor framework's TrajectoryRiskSlot; see
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

// Search is the [search] table: the web_search executor (the tool-executor framework's
// [tools.search]; see package executor/websearch, whose Options its
// fields fill). It configures executors an application builds and
// `toolwall search`;
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

// checkTools checks the [trajectory] and [search] tables.
func (c *Config) checkTools() error {
	if c.Search != (Search{}) {
		if err := c.Search.check(); err != nil {
			return fmt.Errorf("search: %w", err)
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

// check reports what is wrong with the [search] table, the key aside, as
// executor/websearch's Options.Check does (this package does not link
// the executor, which the hook's binary must not carry): a provider other
// than brave, an endpoint that is not an https URL with a host (and no
// user, query or fragment), a variable name that is none, max_results
// outside 1 to 20.
func (s Search) check() error {
	if s.Provider != "" && s.Provider != "brave" {
		return fmt.Errorf("unknown provider %q (want \"brave\")", s.Provider)
	}
	if s.Endpoint != "" {
		if u, err := url.Parse(s.Endpoint); err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("endpoint %q is not an https URL with a host and no user, query or fragment", s.Endpoint)
		}
	}
	if s.APIKeyEnv != "" && !envName(s.APIKeyEnv) {
		return fmt.Errorf("api_key_env %q is not an environment variable name (want the variable's name, not the key)", s.APIKeyEnv)
	}
	if s.MaxResults < 0 || s.MaxResults > 20 {
		return fmt.Errorf("max_results %d: want 1 to 20", s.MaxResults)
	}
	return nil
}

// envName reports whether s is an environment variable name.
func envName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
