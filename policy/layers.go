package policy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/toolwall/toolwall"
)

// Layer kinds, lowest first.
const (
	LayerSystem  = "system"
	LayerUser    = "user"
	LayerProject = "project"
)

// ProjectFile is the project layer's name in a project's root directory.
const ProjectFile = ".toolwall.toml"

// Layer is one file merged into a Config.
type Layer struct {
	// Kind is LayerSystem, LayerUser or LayerProject.
	Kind string
	// Path is the file.
	Path string
}

// merge lays c (decoded with metadata md) over dst: each key c's file
// set overrides dst's, table by table at any depth; arrays of tables
// accumulate.
func merge(dst, c *Config, md toml.MetaData) {
	mergeValue(reflect.ValueOf(dst).Elem(), reflect.ValueOf(c).Elem(), md, nil)
}

func mergeValue(dst, src reflect.Value, md toml.MetaData, key []string) {
	t := src.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		k := append(slices.Clone(key), name)
		if !md.IsDefined(k...) {
			continue
		}
		d, s := dst.Field(i), src.Field(i)
		switch {
		case s.Kind() == reflect.Slice && s.Type().Elem().Kind() == reflect.Struct:
			d.Set(reflect.AppendSlice(d, s))
		case s.Kind() == reflect.Struct && md.Type(k...) == "Hash" && !implementsText(s):
			mergeValue(d, s, md, k)
		default:
			d.Set(s)
		}
	}
}

// implementsText reports whether v decodes from a TOML string itself
// (Duration, Action), so it is set whole, not merged field by field.
func implementsText(v reflect.Value) bool {
	_, ok := v.Addr().Interface().(interface{ UnmarshalText([]byte) error })
	return ok
}

// projectTables is what a project file may hold: rules and thresholds
// that can only tighten.
type projectTables struct {
	Thresholds Thresholds `toml:"thresholds"`
	Rule       []Rule     `toml:"rule"`
}

// ForProject returns the configuration for calls in project: c with the
// project's .toolwall.toml laid over it, or c itself when there is none.
// A project file (which the agent can write) may only tighten: it may
// hold [thresholds] no higher than the operator layers' and [[rule]]s
// that warn, ask or deny under new ids; anything else — a looser
// threshold, an allow rule, a rule id an operator file defines, any
// other table — is an *Error naming both files where two are involved.
func (c *Config) ForProject(project string) (*Config, error) {
	if project == "" || !filepath.IsAbs(project) {
		return c, nil
	}
	path := filepath.Join(project, ProjectFile)
	data, err := readFile(path, true)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	return c.withProject(path, data)
}

func (c *Config) withProject(path string, data []byte) (*Config, error) {
	var p projectTables
	if _, err := decodeStrict(path, data, &p); err != nil {
		var e *Error
		if errors.As(err, &e) && strings.HasPrefix(e.Msg, "unknown key") {
			e.Msg += "; a project file can only tighten: it may hold [thresholds] and [[rule]] (warn, ask or deny)"
		}
		return nil, err
	}
	def := toolwall.DefaultThresholds()
	for _, t := range []struct {
		name      string
		own, base *float64
		dflt      float64
	}{{"thresholds.warn", p.Thresholds.Warn, c.Thresholds.Warn, def.Warn}, {"thresholds.block", p.Thresholds.Block, c.Thresholds.Block, def.Block}} {
		if t.own == nil {
			continue
		}
		base, from := t.dflt, "the default"
		if t.base != nil {
			base, from = *t.base, c.thresholdSource(t.name)
		}
		if *t.own > base {
			return nil, &Error{Path: path, Line: keyLine(data, toml.Key(strings.Split(t.name, "."))), Msg: fmt.Sprintf("%s = %v loosens %v set by %s: a project file can only tighten", t.name, *t.own, base, from)}
		}
	}
	out := *c
	out.Rule = slices.Clone(c.Rule)
	out.Layers = append(slices.Clone(c.Layers), Layer{Kind: LayerProject, Path: path})
	if p.Thresholds.Warn != nil {
		out.Thresholds.Warn = p.Thresholds.Warn
	}
	if p.Thresholds.Block != nil {
		out.Thresholds.Block = p.Thresholds.Block
	}
	for i := range p.Rule {
		r := &p.Rule[i]
		r.Source, r.Line = path, nthHeader(data, "rule", i)
		if act, err := toolwall.ParseAction(r.Action); err == nil && act < toolwall.Warn {
			return nil, &Error{Path: path, Line: r.Line, Msg: fmt.Sprintf("rule %q: action allow loosens; a project file can only tighten (warn, ask or deny). An operator allows calls for this project in the user configuration, with project = %q", r.ID, filepath.Dir(path))}
		}
		if r.Project != "" {
			return nil, &Error{Path: path, Line: r.Line, Msg: fmt.Sprintf("rule %q: project is for operator files; a project file's rules apply to its own project", r.ID)}
		}
		if j := slices.IndexFunc(c.Rule, func(o Rule) bool { return o.ID == r.ID }); j >= 0 {
			o := c.Rule[j]
			return nil, &Error{Path: path, Line: r.Line, Msg: fmt.Sprintf("rule %q is defined by %s:%d; a project file cannot redefine (and so loosen) an operator's rule: give this rule another id", r.ID, o.Source, o.Line)}
		}
		out.Rule = append(out.Rule, *r)
	}
	if err := out.check(); err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	if err := out.compileRules(); err != nil {
		return nil, err
	}
	return &out, nil
}

// thresholdSource names the operator file that set a threshold.
func (c *Config) thresholdSource(key string) string {
	for i := len(c.Layers) - 1; i >= 0; i-- {
		data, err := readFile(c.Layers[i].Path, false)
		if err != nil {
			continue
		}
		var probe Config
		if md, err := toml.Decode(string(data), &probe); err == nil && md.IsDefined(strings.Split(key, ".")...) {
			return c.Layers[i].Path
		}
	}
	if c.Source != "" {
		return c.Source
	}
	return "an operator file"
}

var headerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]`) })

// nthHeader returns the line of the n-th (from 0) [[name]] header in
// data, or 0.
func nthHeader(data []byte, name string, n int) int {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if m := headerRE().FindSubmatch(sc.Bytes()); m != nil && string(m[1]) == name {
			if n == 0 {
				return line
			}
			n--
		}
	}
	return 0
}

// keyLine returns the line where key is set or its table opens, or 0.
func keyLine(data []byte, key toml.Key) int {
	if len(key) == 0 {
		return 0
	}
	last := regexp.QuoteMeta(key[len(key)-1])
	table := regexp.QuoteMeta(strings.Join(key, "."))
	re := regexp.MustCompile(`^\s*(?:` + last + `\s*=|\[+\s*` + table + `\s*\]+)`)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if re.Match(sc.Bytes()) {
			return line
		}
	}
	return 0
}

// knownTables lists the top-level table names of v's type.
func knownTables(v any) string {
	t := reflect.TypeOf(v).Elem()
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}
