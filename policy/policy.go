package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
)

// Config is a loaded configuration. The zero value is the defaults.
type Config struct {
	// Source is the file the configuration came from ("" for defaults).
	Source string `toml:"-"`
	// Thresholds are the warn and block edges (defaults 0.4 and 0.7).
	Thresholds Thresholds `toml:"thresholds"`
	// Rules switch rules off.
	Rules Rules `toml:"rules"`
	// Memory configures session memory.
	Memory Memory `toml:"memory"`
	// LLM, Guardrail and Advisor configure the later stage's second
	// opinions (see llm.go).
	LLM       LLM       `toml:"llm"`
	Guardrail Guardrail `toml:"guardrail"`
	Advisor   Advisor   `toml:"advisor"`
}

// Thresholds are the [thresholds] table. A missing key keeps its default.
type Thresholds struct {
	Warn  *float64 `toml:"warn"`
	Block *float64 `toml:"block"`
}

// Rules is the [rules] table.
type Rules struct {
	// Disable lists rule ids ("area.name") whose findings are dropped.
	Disable []string `toml:"disable"`
}

// Memory is the [memory] table.
type Memory struct {
	// State is the SQLite state file; "~/" is expanded. Empty means the
	// default place (see session.DefaultPath).
	State string `toml:"state"`
	// Turns is the chain window in turns (default 3, at least 1).
	Turns int `toml:"turns"`
	// Calls is the chain window in calls (default 100, 1 to 10000).
	Calls int `toml:"calls"`
	// Retention is how long an idle session is kept (default 168h).
	Retention Duration `toml:"retention"`
}

// Duration is a time.Duration written as a Go duration string ("168h").
type Duration struct{ time.Duration }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"168h\" or \"30m\"", b)
	}
	d.Duration = v
	return nil
}

// Error is a configuration error: the file and, where known, the line.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("policy: %s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("policy: %s: %s", e.Path, e.Msg)
}

// DefaultPath returns where the configuration is read from when no path
// is given: $TOOLWALL_CONFIG, else $XDG_CONFIG_HOME/toolwall/config.toml,
// else ~/.config/toolwall/config.toml. explicit reports whether it came
// from $TOOLWALL_CONFIG (then a missing file is an error).
func DefaultPath() (path string, explicit bool) {
	if p := os.Getenv("TOOLWALL_CONFIG"); p != "" {
		return p, true
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "toolwall", "config.toml"), false
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "toolwall", "config.toml"), false
	}
	return "", false
}

// Load reads the configuration at path; with path "" it reads the
// DefaultPath, where a missing file means the defaults. Errors are *Error.
func Load(path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path, explicit = DefaultPath()
		if path == "" {
			return &Config{}, nil
		}
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return &Config{}, nil
	}
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

var ruleID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$`)

// Parse decodes and checks a configuration; name is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Path: name, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, &Error{Path: name, Msg: fmt.Sprintf("unknown key(s) %s (known: thresholds.warn, thresholds.block, rules.disable, memory.state, memory.turns, memory.calls, memory.retention, and the keys of [llm], [guardrail], [[guardrail.ensemble]] and [advisor] in the README)", strings.Join(keys, ", "))}
	}
	c.Source = name
	if err := c.check(); err != nil {
		return nil, &Error{Path: name, Msg: err.Error()}
	}
	return &c, nil
}

func (c *Config) check() error {
	for _, t := range []struct {
		name string
		v    *float64
	}{{"thresholds.warn", c.Thresholds.Warn}, {"thresholds.block", c.Thresholds.Block}} {
		if t.v != nil && (math.IsNaN(*t.v) || *t.v < 0 || *t.v > 1) {
			return fmt.Errorf("%s = %v: want a number from 0 to 1", t.name, *t.v)
		}
	}
	if th := c.ThresholdsOr(toolwall.DefaultThresholds()); th.Block < th.Warn {
		return fmt.Errorf("thresholds.block (%v) is below thresholds.warn (%v); a missing one takes its default (warn 0.4, block 0.7)", th.Block, th.Warn)
	}
	for _, id := range c.Rules.Disable {
		if !ruleID.MatchString(id) {
			return fmt.Errorf("rules.disable: %q is not a rule id like \"priv.sudo\"", id)
		}
	}
	if slices.ContainsFunc(c.Rules.Disable, func(id string) bool {
		return strings.HasPrefix(id, "gate.") || strings.HasPrefix(id, "input.") || id == "shell.limit"
	}) {
		return fmt.Errorf("rules.disable: gate.*, input.* and shell.limit keep toolwall itself safe and cannot be switched off")
	}
	if c.Memory.Turns < 0 || c.Memory.Calls < 0 || c.Memory.Calls > 10000 {
		return fmt.Errorf("memory.turns must be at least 1 and memory.calls from 1 to 10000")
	}
	if st := c.Memory.State; st != "" && !filepath.IsAbs(st) && !strings.HasPrefix(st, "~/") {
		return fmt.Errorf("memory.state %q must be an absolute path or start with ~/", st)
	}
	if c.Memory.Retention.Duration < 0 {
		return fmt.Errorf("memory.retention must not be negative")
	}
	return c.checkLLM()
}

// ThresholdsOr returns the configured thresholds, each missing one taken
// from def.
func (c *Config) ThresholdsOr(def toolwall.Thresholds) toolwall.Thresholds {
	if c.Thresholds.Warn != nil {
		def.Warn = *c.Thresholds.Warn
	}
	if c.Thresholds.Block != nil {
		def.Block = *c.Thresholds.Block
	}
	return def
}

// StatePath returns memory.state with "~/" expanded against home, or "".
func (c *Config) StatePath(home string) string {
	return paths.Expand(c.Memory.State, home)
}
