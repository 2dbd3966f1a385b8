package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/nearest"
	"github.com/toolwall/toolwall/paths"
)

// Config is a loaded configuration. The zero value is the defaults.
//
// Each top-level field is one TOML table (or array of tables); a new
// table is one new field. Layering (see Load) needs nothing more: a
// higher layer overrides the keys it sets, table by table, and arrays of
// tables ([[rule]], [[allow]]) accumulate.
type Config struct {
	// Source is the operator file the configuration came from: the user
	// file, else the system file ("" for defaults).
	Source string `toml:"-"`
	// Layers are the files merged into this configuration, lowest first
	// (system, user, then project when ForProject added one).
	Layers []Layer `toml:"-"`
	// Thresholds are the warn and block edges (defaults 0.4 and 0.7).
	Thresholds Thresholds `toml:"thresholds"`
	// Rules switch rules off.
	Rules Rules `toml:"rules"`
	// Memory configures session memory.
	Memory Memory `toml:"memory"`
	// Rule are custom rules ([[rule]]), lowest layer first.
	Rule []Rule `toml:"rule"`
	// Allow is the operator allowlist ([[allow]]).
	Allow []Allow `toml:"allow"`
	// Approvals configures how long a human's approval lasts.
	Approvals Approvals `toml:"approvals"`
	// Audit configures the audit store.
	Audit Audit `toml:"audit"`
	// LLM, Guardrail and Advisor configure the later stage's second
	// opinions, Adversarial the adversarial policy gate of executors (see
	// llm.go).
	LLM         LLM         `toml:"llm"`
	Guardrail   Guardrail   `toml:"guardrail"`
	Advisor     Advisor     `toml:"advisor"`
	Adversarial Adversarial `toml:"adversarial"`
	// Trajectory configures the trajectory risk, Search the web_search
	// executor (see tools.go).
	Trajectory Trajectory `toml:"trajectory"`
	Search     Search     `toml:"search"`
}

// Approvals is the [approvals] table.
type Approvals struct {
	// TTL bounds an approval of an asked call ("30m"); unset or 0 means
	// the rest of the session.
	TTL Duration `toml:"ttl"`
}

// Audit is the [audit] table.
type Audit struct {
	// Enabled switches the audit record off when false (default true).
	Enabled *bool `toml:"enabled"`
	// Store is "sqlite" (default: audit.db, written by hooks through the
	// append-only inbox audit.jsonl and indexed when read) or "jsonl"
	// (the JSONL file alone).
	Store string `toml:"store"`
	// Path is the store's file ("~/" expanded); default audit.db (or
	// audit.jsonl) beside the state database.
	Path string `toml:"path"`
	// Retention is how long records are kept (default 720h, 30 days).
	Retention Duration `toml:"retention"`
}

// On reports whether auditing is on (the default).
func (a Audit) On() bool { return a.Enabled == nil || *a.Enabled }

// Thresholds are the [thresholds] table. A missing key keeps its default.
type Thresholds struct {
	// Warn is the score from which a call warns (default 0.4).
	Warn *float64 `toml:"warn"`
	// Block is the score from which a call is denied (default 0.7). The
	// Critical band from 0.9 denies whatever the thresholds.
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

// SystemPath is the system layer, read before the user's file (a
// missing file is no error).
const SystemPath = "/etc/toolwall/config.toml"

// Load reads the system layer (SystemPath) and then the user file at
// path, merged; with path "" the user file is the DefaultPath, where a
// missing file means no user layer. Errors are *Error. Project files are
// added per call with ForProject.
func Load(path string) (*Config, error) {
	explicit := path != ""
	if !explicit {
		path, explicit = DefaultPath()
	}
	return LoadFiles(Files{System: SystemPath, User: path, UserExplicit: explicit})
}

// Files name the operator layers LoadFiles reads.
type Files struct {
	// System is the system-wide file ("" for none); missing is no error.
	System string
	// User is the user's file ("" for none); missing is an error only
	// when UserExplicit.
	User         string
	UserExplicit bool
}

// LoadFiles reads and merges the operator layers in f, system first.
func LoadFiles(f Files) (*Config, error) {
	merged := &Config{}
	for _, l := range []struct {
		path     string
		kind     string
		explicit bool
	}{{f.System, LayerSystem, false}, {f.User, LayerUser, f.UserExplicit}} {
		if l.path == "" {
			continue
		}
		data, err := readFile(l.path, false)
		if errors.Is(err, fs.ErrNotExist) && !l.explicit {
			continue
		}
		if err != nil {
			return nil, &Error{Path: l.path, Msg: err.Error()}
		}
		c, md, err := parse(l.path, data)
		if err != nil {
			return nil, err
		}
		merge(merged, c, md)
		merged.Source = l.path
		merged.Layers = append(merged.Layers, Layer{Kind: l.kind, Path: l.path})
	}
	if err := merged.check(); err != nil {
		return nil, &Error{Path: merged.Source, Msg: err.Error()}
	}
	// A higher operator layer's rule replaces a lower one's of the same id.
	last := map[string]int{}
	for i, r := range merged.Rule {
		last[r.ID] = i
	}
	var kept []Rule
	for i, r := range merged.Rule {
		if last[r.ID] == i {
			kept = append(kept, r)
		}
	}
	merged.Rule = kept
	return merged, nil
}

var ruleID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$`)

// Parse decodes and checks one configuration file as a user layer; name
// is used in errors.
func Parse(name string, data []byte) (*Config, error) {
	c, _, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	c.Source = name
	c.Layers = []Layer{{Kind: LayerUser, Path: name}}
	return c, nil
}

// parse decodes one operator file strictly and checks it alone.
func parse(name string, data []byte) (*Config, toml.MetaData, error) {
	var c Config
	md, err := decodeStrict(name, data, &c)
	if err != nil {
		return nil, md, err
	}
	for i := range c.Rule {
		c.Rule[i].Source, c.Rule[i].Line = name, nthHeader(data, "rule", i)
	}
	for i := range c.Allow {
		c.Allow[i].Source, c.Allow[i].Line = name, nthHeader(data, "allow", i)
	}
	if err := c.check(); err != nil {
		return nil, md, &Error{Path: name, Msg: err.Error()}
	}
	if err := c.compileRules(); err != nil {
		return nil, md, err
	}
	return &c, md, nil
}

// decodeStrict decodes data into v; a syntax error, a wrong type or an
// unknown key is an *Error with the line where it is known.
func decodeStrict(name string, data []byte, v any) (toml.MetaData, error) {
	md, err := toml.Decode(string(data), v)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return md, &Error{Path: name, Line: pe.Position.Line, Msg: pe.Message}
		}
		return md, &Error{Path: name, Msg: err.Error()}
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		for i, k := range und {
			// A key of the full configuration that this file may not hold
			// (a project's [rules]) is no typo.
			if _, exact := suggestKey(reflect.TypeOf(&Config{}), k); exact {
				continue
			}
			if s, _ := suggestKey(reflect.TypeOf(v), k); s != "" {
				keys[i] += " (did you mean " + s + "?)"
			}
		}
		return md, &Error{Path: name, Line: keyLine(data, und[0]), Msg: fmt.Sprintf("unknown key(s) %s (known tables: %s)", strings.Join(keys, ", "), knownTables(v))}
	}
	return md, nil
}

// suggestKey returns the known key nearest to the unknown key k of a
// document decoded into a value of type t ("memory.retention" for
// "memory.retension"), "" when none is close, and whether k is a key of
// t as it is. It walks k's tables through t's fields by their toml
// names, and map values by any name. Only k's last part is suggested:
// the keys under a mistyped table are unknown too, and the table's own
// key carries the suggestion.
func suggestKey(t reflect.Type, k toml.Key) (string, bool) {
	for i, part := range k {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
			continue
		case reflect.Struct:
		default:
			return "", false
		}
		names := map[string]reflect.Type{}
		var known []string
		for j := range t.NumField() {
			f := t.Field(j)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			names[name], known = f.Type, append(known, name)
		}
		if ft, ok := names[part]; ok {
			t = ft
			continue
		}
		near := nearest.Likely(part, known)
		if near == "" || i < len(k)-1 {
			return "", false
		}
		return strings.Join(append(slices.Clone(k[:i]), near), "."), false
	}
	return "", true
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
	for _, id := range c.Rules.Disable {
		if toolwall.Unswitchable(id) {
			return fmt.Errorf("rules.disable: %s keeps toolwall itself safe and cannot be switched off (nor can gate.*, input.*, config.invalid, the shell and PowerShell reading errors, files.bad-input or %s)", id, RuleSelfApprove)
		}
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
	if c.Approvals.TTL.Duration < 0 || c.Audit.Retention.Duration < 0 {
		return fmt.Errorf("approvals.ttl and audit.retention must not be negative")
	}
	switch c.Audit.Store {
	case "", "sqlite", "jsonl":
	default:
		return fmt.Errorf("audit.store = %q: want \"sqlite\" or \"jsonl\"", c.Audit.Store)
	}
	if p := c.Audit.Path; p != "" && !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") {
		return fmt.Errorf("audit.path %q must be an absolute path or start with ~/", p)
	}
	if err := c.checkLLM(); err != nil {
		return err
	}
	return c.checkTools()
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
