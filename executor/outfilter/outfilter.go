package outfilter

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/pipeline"
)

// Strategy kinds (the tool-executor framework's nine).
const (
	StripNoise     = "strip_noise"     // drop lines matching patterns (default: progress and spinner lines), ANSI codes and blank runs
	Truncate       = "truncate"        // keep the first head and last tail lines
	KeepMatching   = "keep_matching"   // keep lines matching patterns (and error lines when the command failed)
	StripAnnotated = "strip_annotated" // drop lines matching patterns with their indented continuation lines
	TestSummary    = "test_summary"    // keep failures (with context) and summary lines of a test run
	GroupByRule    = "group_by_rule"   // group diagnostics by the "rule" capture of a regexp
	GitStatus      = "git_status"      // compact git status: counts and names per state
	GitDiff        = "git_diff"        // per-file +/- counts, hunks cut at max_lines per file
	Dedup          = "dedup"           // collapse runs of repeated lines (numbers ignored with normalize)
)

var kinds = []string{StripNoise, Truncate, KeepMatching, StripAnnotated, TestSummary, GroupByRule, GitStatus, GitDiff, Dedup}

// Rule is one [[filter]] table.
type Rule struct {
	// Name identifies the rule in errors and in the marker line.
	Name string `toml:"name"`
	// Match is a regexp (RE2) searched in the command line.
	Match string `toml:"match"`
	// Strategy is one of the nine kinds.
	Strategy string `toml:"strategy"`
	// Patterns are regexps for strip_noise, keep_matching and
	// strip_annotated.
	Patterns []string `toml:"patterns"`
	// Head and Tail are line counts for truncate (defaults 50 and 50).
	Head *int `toml:"head"`
	Tail *int `toml:"tail"`
	// MaxLines bounds kept lines per failure (test_summary, default 30)
	// or per file (git_diff, default 40).
	MaxLines int `toml:"max_lines"`
	// RuleRegexp is group_by_rule's regexp with a (?P<rule>...) group.
	RuleRegexp string `toml:"rule"`
	// Examples is how many lines group_by_rule shows per rule (default 3).
	Examples int `toml:"examples"`
	// Normalize makes dedup ignore digits when comparing lines.
	Normalize bool `toml:"normalize"`

	match    *regexp.Regexp
	patterns []*regexp.Regexp
	rule     *regexp.Regexp
}

// Pipeline is an ordered list of rules; the first whose Match finds the
// command applies. Safe for concurrent use once built.
type Pipeline struct {
	rules []*Rule
}

type file struct {
	Filter []*Rule `toml:"filter"`
}

// Parse reads a filters.toml document (strict: unknown keys are errors)
// and compiles its rules; name is used in errors.
func Parse(name string, data []byte) (*Pipeline, error) {
	var f file
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("outfilter: %s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("outfilter: %s: unknown key(s) %s", name, strings.Join(keys, ", "))
	}
	for i, r := range f.Filter {
		if err := r.compile(); err != nil {
			return nil, fmt.Errorf("outfilter: %s: filter %d (%q): %w", name, i+1, r.Name, err)
		}
	}
	return &Pipeline{rules: f.Filter}, nil
}

// PathNextTo returns where a user's filters.toml lives: beside the
// configuration file config ("a filters.toml placed next to
// config.toml").
func PathNextTo(config string) string { return filepath.Join(filepath.Dir(config), "filters.toml") }

// Load reads filters.toml at path; a missing file is an empty pipeline.
func Load(path string) (*Pipeline, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Pipeline{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("outfilter: %w", err)
	}
	return Parse(path, data)
}

//go:embed builtin.toml
var builtinTOML []byte

var builtin = sync.OnceValues(func() (*Pipeline, error) { return Parse("builtin.toml", builtinTOML) })

// Builtin returns the built-in rules for common tools (test runners,
// linters, package managers, git, build tools), compiled on first use.
func Builtin() *Pipeline {
	p, err := builtin()
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return p
}

// Then returns a pipeline trying p's rules first, then next's.
func (p *Pipeline) Then(next *Pipeline) *Pipeline {
	return &Pipeline{rules: slices.Concat(p.rules, next.rules)}
}

// Rules returns the rule names in order.
func (p *Pipeline) Rules() []string {
	out := make([]string, len(p.rules))
	for i, r := range p.rules {
		out[i] = r.Name
	}
	return out
}

func (r *Rule) compile() error {
	if r.Name == "" {
		return errors.New("name is required")
	}
	if !slices.Contains(kinds, r.Strategy) {
		return fmt.Errorf("strategy %q is not one of %s", r.Strategy, strings.Join(kinds, ", "))
	}
	var err error
	if r.match, err = regexp.Compile(r.Match); err != nil || r.Match == "" {
		return fmt.Errorf("match %q: want a regexp (%v)", r.Match, err)
	}
	for _, p := range r.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return fmt.Errorf("pattern %q: %w", p, err)
		}
		r.patterns = append(r.patterns, re)
	}
	if (r.Strategy == KeepMatching || r.Strategy == StripAnnotated) && len(r.patterns) == 0 {
		return fmt.Errorf("%s needs patterns", r.Strategy)
	}
	if r.Strategy == GroupByRule {
		if r.rule, err = regexp.Compile(r.RuleRegexp); err != nil || r.rule.SubexpIndex("rule") < 0 {
			return fmt.Errorf("rule %q: want a regexp with a (?P<rule>...) group (%v)", r.RuleRegexp, err)
		}
	}
	for _, n := range []*int{r.Head, r.Tail} {
		if n != nil && *n < 0 {
			return errors.New("head and tail must not be negative")
		}
	}
	if r.MaxLines < 0 || r.Examples < 0 {
		return errors.New("max_lines and examples must not be negative")
	}
	return nil
}

// Find returns the first rule matching command, or nil.
func (p *Pipeline) Find(command string) *Rule {
	for _, r := range p.rules {
		if r.match.MatchString(command) {
			return r
		}
	}
	return nil
}

// Apply filters a process's output for the model. Only stdout is
// filtered. A filter never hides an error exit: when the exit status is
// not 0, stderr is kept whole, the lines of stdout that look like errors
// are kept whatever the strategy, and the exit status stays in the
// rendered text. It returns env unchanged (and "") when no rule matches,
// else a filtered copy and the rule's name.
func (p *Pipeline) Apply(command string, env *executor.Envelope) (*executor.Envelope, string) {
	r := p.Find(command)
	if r == nil || env == nil {
		return env, ""
	}
	out := *env
	failed := env.ExitCode != 0
	lines := splitLines(env.Stdout)
	kept := r.run(lines, failed)
	if failed && r.Strategy != TestSummary {
		kept = keepErrors(lines, kept)
	}
	text := strings.Join(kept, "\n")
	if text != "" && strings.HasSuffix(env.Stdout, "\n") {
		text += "\n"
	}
	if dropped := len(lines) - len(kept); dropped > 0 {
		text += fmt.Sprintf("[toolwall filter %s: %d of %d lines left out]\n", r.Name, dropped, len(lines))
	}
	out.Stdout = text
	if !failed {
		out.Stderr = strings.Join(r.run(splitLines(env.Stderr), false), "\n")
		if out.Stderr != "" && strings.HasSuffix(env.Stderr, "\n") {
			out.Stderr += "\n"
		}
	}
	return &out, r.Name
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

var errorLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(error|fail(ed|ure)?|fatal|panic|exception|traceback)\b`)
})

// keepErrors adds to kept, in their original order, the lines of all
// that look like errors and are missing.
func keepErrors(all, kept []string) []string {
	have := map[string]int{}
	for _, l := range kept {
		have[l]++
	}
	var out []string
	ki := 0
	for _, l := range all {
		if ki < len(kept) && kept[ki] == l {
			out = append(out, l)
			ki++
			have[l]--
			continue
		}
		if have[l] <= 0 && errorLine().MatchString(l) {
			out = append(out, l)
		}
	}
	return append(out, kept[ki:]...)
}

// Wrap returns inner with its shell outputs filtered by p: an Output
// with a Process envelope has the envelope filtered and its Text rendered
// again (stdout, "[stderr]" and stderr, "[exit status N]"). Other outputs
// and every other method go to inner unchanged.
func Wrap(inner executor.Executor, p *Pipeline) executor.Executor {
	return &filtered{inner: inner, p: p}
}

type filtered struct {
	inner executor.Executor
	p     *Pipeline
}

func (f *filtered) Definitions() []executor.Definition { return f.inner.Definitions() }

func (f *filtered) Execute(ctx context.Context, req *executor.Request) (*executor.Output, error) {
	out, err := f.inner.Execute(ctx, req)
	if err != nil || out == nil || out.Process == nil || out.Process.ExitCode == 126 && out.Process.Duration == 0 {
		return out, err
	}
	command, _ := req.Call.Command()
	env, name := f.p.Apply(command, out.Process)
	if name == "" {
		return out, nil
	}
	o := *out
	o.Process = env
	o.Text = Render(env)
	return &o, nil
}

func (f *filtered) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	return f.inner.Confirmation(ctx, call)
}

func (f *filtered) Speculatable(call toolwall.Call) bool { return f.inner.Speculatable(call) }

// Render is the text a model sees for an envelope, as the shell executor
// writes it: stdout, stderr under "[stderr]", and a non-zero exit status
// with a timeout or rollback noted.
func Render(env *executor.Envelope) string {
	var b strings.Builder
	b.WriteString(env.Stdout)
	if env.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n" + env.Stderr)
	}
	if env.ExitCode != 0 {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[exit status %d", env.ExitCode)
		if env.TimedOut {
			b.WriteString(", timed out or cancelled")
		}
		if env.RolledBack {
			fmt.Fprintf(&b, "; file changes rolled back from checkpoint %s", env.Checkpoint)
		}
		b.WriteString("]")
	}
	return b.String()
}
