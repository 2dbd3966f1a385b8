package policy

import (
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// Policy is a loaded configuration put to work on calls: its rules as an
// analyzer for the gate, and Apply after the gate (project thresholds,
// the operator's allowlist). Each call's project file is read when it
// changes (cached by file identity, size and modification time, looked
// at again at most every ProjectRecheck, or at the next call after
// Recheck). Safe for concurrent use.
type Policy struct {
	base *Config
	// elsewhere: calls run on another machine (or on synthetic places),
	// so no project file is read here.
	elsewhere bool

	mu    sync.Mutex
	cache map[string]projectEntry
}

// ProjectRecheck is how long a project's file, once looked at, is taken
// as unchanged without another stat: a call is judged against one
// reading of it (its analyzer and Apply), and an edit takes effect within
// this time (500 ms).
const ProjectRecheck = 500 * time.Millisecond

type projectEntry struct {
	seen time.Time // when the file was last looked at
	none bool      // there was no project file then
	file os.FileInfo
	size int64
	mod  time.Time
	cfg  *Config
	err  error
}

// New returns the policy of c (the defaults when c is nil).
func New(c *Config) *Policy {
	if c == nil {
		c = &Config{}
	}
	return &Policy{base: c, cache: map[string]projectEntry{}}
}

// Elsewhere returns a policy of c for calls that run on another machine
// or on synthetic places (the decision server, toolwall eval): a
// project's path names a directory there, so no project file is read
// here and the operator layers apply alone.
func Elsewhere(c *Config) *Policy {
	p := New(c)
	p.elsewhere = true
	return p
}

// For returns the configuration for calls in project: the operator
// layers with the project's file over them (see Config.ForProject), or
// the operator layers alone for a policy made by Elsewhere.
func (p *Policy) For(project string) (*Config, error) {
	if project == "" || !filepath.IsAbs(project) || p.elsewhere {
		return p.base, nil
	}
	now := time.Now()
	p.mu.Lock()
	e, ok := p.cache[project]
	p.mu.Unlock()
	if ok && now.Sub(e.seen) < ProjectRecheck && now.Sub(e.seen) >= 0 {
		if e.none {
			return p.base, nil
		}
		return e.cfg, e.err
	}
	file := filepath.Join(project, ProjectFile)
	st, err := os.Stat(file)
	switch {
	case err != nil:
		// no project file (or none readable: ForProject would say)
		e = projectEntry{none: true}
	case !ok || e.none || !os.SameFile(e.file, st) || e.size != st.Size() || !e.mod.Equal(st.ModTime()):
		// A file saved by a rename is another file, though its size and
		// time may be the old one's.
		cfg, err := p.base.ForProject(project)
		e = projectEntry{file: st, size: st.Size(), mod: st.ModTime(), cfg: cfg, err: err}
	}
	e.seen = now
	p.mu.Lock()
	if len(p.cache) > 256 {
		clear(p.cache)
	}
	p.cache[project] = e
	p.mu.Unlock()
	if e.none {
		return p.base, nil
	}
	return e.cfg, e.err
}

// Recheck makes the next call of each project look at its file again (a
// stat; read again only when it changed), however recently it was looked
// at: a process that serves calls as separate processes would (a hook's
// resident) calls it between calls, so that an edit applies to the very
// next call, as it does for a process that reads the file per call.
func (p *Policy) Recheck() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, e := range p.cache {
		e.seen = time.Time{}
		p.cache[k] = e
	}
}

// Analyzer returns the analyzer of the custom rules: for each call it
// adds the findings of the warn, ask and deny rules (operator and
// project layers) that match, and of the built-in rule
// policy.self-approve. A project file that does not load denies the call
// (rule config.invalid) with the error. It watches the tools in Tools and
// every tool an operator rule names exactly.
func (p *Policy) Analyzer() *analysis.Analyzer {
	tools := slices.Clone(Tools)
	for _, r := range p.base.Rule {
		if !strings.ContainsAny(r.Tool, "*?[{") && !slices.Contains(tools, r.Tool) {
			tools = append(tools, r.Tool)
		}
	}
	return &analysis.Analyzer{
		Name:  "policy",
		Rules: p.rules(),
		Doc:   "the configuration's custom rules ([[rule]]), per project; refuses toolwall approve from a tool call",
		Tools: tools,
		Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
			selfApprove(in, r)
			cfg, err := p.For(in.Call.Project)
			if err != nil {
				r.Add(toolwall.Finding{Rule: toolwall.RuleConfig, Category: "internal", Score: 1, Action: toolwall.Deny,
					Reason: "toolwall's configuration for this project is broken (" + err.Error() + "), so the call is refused until it is fixed. Tell the user; `toolwall policy check` shows the error."})
				return
			}
			for i := range cfg.Rule {
				rule := &cfg.Rule[i]
				if rule.act == toolwall.Allow || rule.Project != "" && rule.Project != in.Call.Project {
					continue
				}
				h := rule.m.match(in.Call, in.Script, false)
				if h == miss {
					continue
				}
				f := toolwall.Finding{Rule: rule.ID, Category: "policy", Action: rule.act, Score: score(rule.act),
					Reason: fmt.Sprintf("%s (rule %s, %s:%d)", strings.TrimSpace(rule.Reason), rule.ID, rule.Source, rule.Line)}
				if h == maybe && f.Action > toolwall.Ask {
					f.Action, f.Score = toolwall.Ask, score(toolwall.Ask)
					f.Reason = "A word only known at run time may make this call match: " + f.Reason
				}
				r.Add(f)
			}
		},
	}
}

// score is the risk a custom rule's finding carries for its action.
func score(a toolwall.Action) float64 {
	switch a {
	case toolwall.Deny:
		return 0.9
	case toolwall.Ask:
		return 0.6
	case toolwall.Warn:
		return 0.3
	}
	return 0
}

// selfApprove denies running `toolwall approve` from a tool call, and
// `toolwall hook`: a host event fed by the agent would forge what only
// the host reports — a user's prompt (a new turn, which ages the chain
// window and lowers the trajectory risk) or a call that ran (taken as the
// user's approval of an asked call). `toolwall resident`, which answers
// the hooks, is denied too: one a tool call starts runs under what that
// call set up. toolwall-hook, the hook client that runs toolwall's
// commands, is read as toolwall.
func selfApprove(in *analysis.Input, r *analysis.Report) {
	if in.Script == nil {
		return
	}
	for _, c := range in.Script.Commands {
		tw := c.Name == "toolwall" || c.Name == "toolwall-hook"
		if !tw && !(len(c.Args) > 0 && c.Args[0].Dynamic) {
			continue
		}
		for _, w := range c.Args[1:] {
			if w.Value == "approve" || w.Dynamic && tw {
				r.Add(toolwall.Finding{Rule: RuleSelfApprove, Category: "self", Score: 0.95, Action: toolwall.Deny,
					Reason: "Running `toolwall approve` from a tool call was refused: only the user approves an asked call, from their own terminal. Ask the user to approve it, or do the work another way."})
				return
			}
		}
		switch sub := subcommand(c.Args[1:]); {
		case tw && sub == "hook":
			r.Add(toolwall.Finding{Rule: RuleSelfApprove, Category: "self", Score: 0.95, Action: toolwall.Deny,
				Reason: "Running `toolwall hook` from a tool call was refused: its events come from the agent host only (a prompt, a call that ran), and one fed by a tool call would forge them. Do the work another way; to test the hook, ask the user."})
			return
		case tw && sub == "resident":
			r.Add(toolwall.Finding{Rule: RuleSelfApprove, Category: "self", Score: 0.95, Action: toolwall.Deny,
				Reason: "Running `toolwall resident` from a tool call was refused: the resident process answers the agent host's hooks, and one started by a tool call runs under whatever that call set up. toolwall-hook starts it by itself; leave it alone."})
			return
		}
	}
}

// subcommand is the first word of args that is neither an option nor
// the value of the global --config option.
func subcommand(args []shell.Word) string {
	for i := 0; i < len(args); i++ {
		switch v := args[i].Value; {
		case v == "--config":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			return v
		}
	}
	return ""
}

// waivable says whether an ask of rule may be waived by the allowlist:
// never toolwall's own safety rules.
func waivable(rule string) bool {
	return !slices.ContainsFunc(reserved, func(p string) bool { return strings.HasPrefix(rule, p) })
}

// Apply finishes the gate's verdict v on call with the call's project
// layer: thresholds set by the project file re-band the score (only ever
// stricter), then the operator's allowlist and allow rules for this
// project turn an ask into an allow (see Allow); a deny is never waived.
// The verdict's findings are kept and a note says what allowed the call.
func (p *Policy) Apply(call toolwall.Call, v toolwall.Verdict) toolwall.Verdict {
	cfg, err := p.For(call.Project)
	if err != nil {
		return v // the analyzer denied the call already
	}
	th := cfg.ThresholdsOr(toolwall.DefaultThresholds())
	if cfg != p.base && cfg.Thresholds != p.base.Thresholds {
		if b := th.Band(v.Score); toolwall.Stricter(v.Action, b.Action()) != v.Action {
			v.Band, v.Action = b, b.Action()
			v.Notes = append(v.Notes, "the project's thresholds ("+cfg.Layers[len(cfg.Layers)-1].Path+") make this call "+v.Action.String())
		}
	}
	if v.Action != toolwall.Ask || call.Project == "" {
		return v
	}
	// The findings that make the call stop: those with an ask (or
	// stricter) floor, or all of them when the score's band decided.
	stops := slices.DeleteFunc(slices.Clone(v.Findings), func(f toolwall.Finding) bool { return f.Action < toolwall.Ask })
	if len(stops) == 0 {
		stops = slices.Clone(v.Findings)
	}
	if slices.ContainsFunc(stops, func(f toolwall.Finding) bool { return !waivable(f.Rule) }) {
		return v
	}
	entries := slices.DeleteFunc(slices.Clone(cfg.Allow), func(a Allow) bool { return a.Project != path.Clean(call.Project) })
	var rules []*Rule
	for i := range cfg.Rule {
		if r := &cfg.Rule[i]; r.act == toolwall.Allow && r.Project == path.Clean(call.Project) {
			rules = append(rules, r)
		}
	}
	if len(entries) == 0 && len(rules) == 0 {
		return v
	}
	var script *shell.Script
	if cmd, ok := call.Command(); ok {
		s, err := shell.Read(cmd, shell.Options{Cwd: call.Cwd, Home: call.Home})
		if err != nil {
			return v
		}
		script = s
	}
	waived := map[string]string{} // rule id → what waived it
	for _, a := range entries {
		why := fmt.Sprintf("the operator's allowlist (%s:%d)", a.Source, a.Line)
		switch {
		case a.Command != "" && script != nil && sameArgv(script, a.argv):
			return allowed(v, why, a.Reason)
		case a.Rule != "" && targetsMatch(call, script, a.Path):
			waived[a.Rule] = why
		}
	}
	if len(rules) > 0 && allMatch(call, script, rules) {
		return allowed(v, fmt.Sprintf("allow rule %s (%s:%d)", rules[0].ID, rules[0].Source, rules[0].Line), rules[0].Reason)
	}
	var left []toolwall.Finding
	var why []string
	for _, f := range stops {
		if w, ok := waived[f.Rule]; ok {
			why = append(why, f.Rule+" by "+w)
			continue
		}
		left = append(left, f)
	}
	if len(stops) == 0 || len(left) > 0 {
		return v
	}
	// Every ask was waived: re-fuse what is left.
	v2 := v
	v2.Score = 0
	floor := toolwall.Allow
	for _, f := range v.Findings {
		if _, w := waived[f.Rule]; w {
			continue
		}
		v2.Score = max(v2.Score, min(1, max(0, nanToOne(f.Score))))
		floor = toolwall.Stricter(floor, f.Action)
	}
	v2.Band = th.Band(v2.Score)
	v2.Action = toolwall.Stricter(v2.Band.Action(), floor)
	if v2.Action >= toolwall.Ask {
		return v
	}
	v2.Notes = append(slices.Clone(v.Notes), "allowed: "+strings.Join(why, "; "))
	return v2
}

func nanToOne(x float64) float64 {
	if math.IsNaN(x) {
		return 1
	}
	return x
}

// allowed turns v into an allow noting why.
func allowed(v toolwall.Verdict, why, reason string) toolwall.Verdict {
	v.Action = toolwall.Allow
	note := "allowed by " + why
	if reason != "" {
		note += ": " + reason
	}
	v.Notes = append(slices.Clone(v.Notes), note)
	return v
}

// sameArgv reports whether the script runs exactly the commands argv.
func sameArgv(s *shell.Script, argv [][]string) bool {
	if len(s.Commands) != len(argv) {
		return false
	}
	for i, c := range s.Commands {
		if len(c.Args) != len(argv[i]) {
			return false
		}
		for j, w := range c.Args {
			if w.Dynamic || w.Value != argv[i][j] {
				return false
			}
		}
	}
	return true
}

// targetsMatch reports whether every path the call names matches one of
// patterns (and it names at least one).
func targetsMatch(call toolwall.Call, s *shell.Script, patterns []string) bool {
	var ps []string
	if s != nil {
		for _, c := range s.Commands {
			if c.Name == "cd" || c.Name == "pushd" || c.Name == "popd" {
				return false
			}
			for _, w := range operands(c) {
				if w.Dynamic {
					return false
				}
				ps = append(ps, paths.Abs(paths.Expand(w.Value, call.Home), call.Cwd))
			}
		}
	} else {
		for _, f := range []string{"file_path", "notebook_path", "path"} {
			if v, ok := call.Field(f); ok && v != "" {
				ps = append(ps, paths.Abs(paths.Expand(v, call.Home), call.Cwd))
				break
			}
		}
	}
	if len(ps) == 0 {
		return false
	}
	for _, p := range ps {
		if !matchPaths(patterns, p, call) {
			return false
		}
	}
	return true
}

// allMatch reports whether allow rules surely cover the whole call: for
// Bash, every command matches one of them.
func allMatch(call toolwall.Call, s *shell.Script, rules []*Rule) bool {
	if s == nil {
		return slices.ContainsFunc(rules, func(r *Rule) bool { return r.m.match(call, nil, true) == sure })
	}
	if len(s.Commands) == 0 || slices.ContainsFunc(s.Commands, func(c *shell.Command) bool { return c.Name == "cd" || c.Name == "pushd" || c.Name == "popd" }) {
		return false
	}
	for _, c := range s.Commands {
		one := &shell.Script{Source: s.Source, Commands: []*shell.Command{c}}
		if !slices.ContainsFunc(rules, func(r *Rule) bool { return r.m.match(call, one, true) == sure }) {
			return false
		}
	}
	return true
}
