package policy

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/gobwas/glob"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// RuleSelfApprove is the built-in rule that denies a tool call running
// `toolwall approve` (only a human approves, from a terminal) or
// `toolwall hook` (only the host sends its events). It cannot be
// disabled.
const RuleSelfApprove = "policy.self-approve"

// Rule is one [[rule]]: when a call of a tool matching Tool matches the
// patterns, the rule's finding imposes Action with Reason.
//
// Patterns (each list matches when any of its patterns does; the kinds
// given must all match, in the same shell command for a Bash call):
//
//   - Command: word patterns over the argv the shell reader resolved
//     (quotes removed, wrappers like sudo/env unwrapped, sh -c bodies
//     read), not the raw text. Words are separated by spaces; each word
//     is a glob (* ? [..] {a,b}, * matching any characters); the word **
//     matches any number of words. The first word matches the program's
//     base name ("git" matches /usr/bin/git). "git push ** --force **".
//   - Path: doublestar globs over absolute paths (** crosses
//     directories): "/etc/**", "~/.aws/**", or relative to the project
//     root ("secrets/**"). Matched against a file tool's file_path (or
//     notebook_path, path) and a Bash command's operands.
//   - URL: globs over WebFetch's url and a Bash command's URL operands
//     ("https://*.internal/**").
//
// A word the reader cannot resolve ($VAR, $(…)) may match anything: a
// warn, ask or deny rule then fires, capped at ask ("may match"); an
// allow rule never counts it as a match.
type Rule struct {
	// ID is the rule id ("area.name"); reserved prefixes (gate., input.,
	// shell., self., chain., config., policy.) are refused.
	ID string `toml:"id"`
	// Tool is a glob over tool names (default "Bash" when Command is
	// given): "Bash", "Write", "mcp__github__*".
	Tool string `toml:"tool"`
	// Command lists word patterns over the argv the shell reader
	// resolved ("git push ** --force **"; ** matches any number of
	// words).
	Command []string `toml:"command"`
	// Path lists doublestar globs over the paths a call names ("~/.aws/**",
	// or relative to the project root).
	Path []string `toml:"path"`
	// URL lists globs over the URLs a call fetches
	// ("https://*.internal/**").
	URL []string `toml:"url"`
	// Action is "allow", "warn", "ask" or "deny". allow is only for an
	// operator file, with Project set: it waives asks (see Allow).
	Action string `toml:"action"`
	// Reason is written for the model (required for warn, ask, deny).
	Reason string `toml:"reason"`
	// Project limits the rule to calls whose project root is exactly
	// this absolute path.
	Project string `toml:"project"`
	// Match and NotMatch are self-test examples, verified at load: a
	// string is a Bash command; a table {tool = "Write", file_path = …}
	// is a tool call whose other keys are its input. Examples run with the
	// project (Project, else /project) as working directory and home
	// /home/user. At least one Match is required.
	Match []Example `toml:"match"`
	// NotMatch lists calls the rule must not match, verified at load
	// like Match.
	NotMatch []Example `toml:"not_match"`

	// Source and Line say where the rule is defined.
	Source string `toml:"-"`
	Line   int    `toml:"-"`

	act toolwall.Action
	m   *matcher
}

// Example is one self-test call of a rule.
type Example struct {
	Tool  string
	Input json.RawMessage
}

// UnmarshalTOML decodes a string (a Bash command) or a table with "tool"
// and the input's keys.
func (e *Example) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		*e = Example{Tool: toolwall.ToolBash, Input: toolwall.NewBashCall(x).Input}
		return nil
	case map[string]any:
		tool, _ := x["tool"].(string)
		if tool == "" {
			return fmt.Errorf("an example table needs tool = \"Name\"")
		}
		in := map[string]any{}
		for k, v := range x {
			if k != "tool" {
				in[k] = v
			}
		}
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		*e = Example{Tool: tool, Input: b}
		return nil
	}
	return fmt.Errorf("an example is a command string or a table with tool, got %T", v)
}

func (e Example) String() string {
	if cmd, ok := e.call().Command(); ok {
		return fmt.Sprintf("%q", cmd)
	}
	return e.Tool + " " + string(e.Input)
}

func (e Example) call() toolwall.Call { return toolwall.Call{Tool: e.Tool, Input: e.Input} }

// Allow is one [[allow]] entry of the operator allowlist, for one project
// (exact root path). It turns an ask into an allow — never a deny, and
// never an ask of toolwall's own safety rules (gate., input., shell.,
// self., chain., config., policy.) — when:
//
//   - Command is set and the call is that command: the same commands with
//     the same argv as the reader resolves them (quoting aside);
//   - Rule is set: the asks left are that rule's, and every path the call
//     names (a file tool's path, a Bash command's operands) matches one of
//     Path (doublestar globs, relative to the project; required with Rule).
type Allow struct {
	// Project is the project root the entry applies to, exactly (an
	// absolute path; required).
	Project string `toml:"project"`
	// Command allows exactly this command (the same argv as the reader
	// resolves it, quoting aside).
	Command string `toml:"command"`
	// Rule allows this rule's asks when every path the call names matches
	// Path.
	Rule string `toml:"rule"`
	// Path lists doublestar globs relative to the project (required with
	// Rule).
	Path []string `toml:"path"`
	// Reason says why the entry exists (for the people who read the
	// file).
	Reason string `toml:"reason"`

	Source string `toml:"-"`
	Line   int    `toml:"-"`

	argv [][]string
}

// reserved rule id prefixes belong to built-in rules.
var reserved = []string{"gate.", "input.", "shell.", "self.", "chain.", "config.", "policy."}

// Tools are the tool names a rule's tool glob is matched against when it
// has pattern characters (a literal name is taken as given): Claude
// Code's built-in tools.
var Tools = []string{toolwall.ToolBash, toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit, toolwall.ToolNotebookEdit,
	toolwall.ToolRead, toolwall.ToolWebFetch, toolwall.ToolGrep, "Glob", "WebSearch", "Agent", "Task"}

// matcher is a compiled rule.
type matcher struct {
	tool  glob.Glob
	cmds  [][]wordPat
	paths []string
	urls  []glob.Glob
}

type wordPat struct {
	any   bool // the word **
	slash bool // the pattern holds a "/": match the whole first word
	g     glob.Glob
}

// hit is how well a call matches: not, maybe (through a word only known
// at run time), or surely.
type hit uint8

const (
	miss hit = iota
	maybe
	sure
)

func (e *Error) at(line int) *Error { e.Line = line; return e }

// compileRules checks and compiles c's rules and allowlist, and runs the
// rules' self-tests.
func (c *Config) compileRules() error {
	ids := map[string]int{}
	for i := range c.Rule {
		r := &c.Rule[i]
		fail := func(format string, a ...any) error {
			return (&Error{Path: r.Source, Msg: fmt.Sprintf("rule %q: ", r.ID) + fmt.Sprintf(format, a...)}).at(r.Line)
		}
		if !ruleID.MatchString(r.ID) {
			return fail("id must be a rule id like \"team.no-prod-deploy\"")
		}
		if slices.ContainsFunc(reserved, func(p string) bool { return strings.HasPrefix(r.ID, p) }) {
			return fail("ids starting with %s are toolwall's own", strings.Join(reserved, ", "))
		}
		if j, dup := ids[r.ID]; dup && c.Rule[j].Source == r.Source {
			return fail("defined twice in this file (line %d)", c.Rule[j].Line)
		}
		ids[r.ID] = i
		act, err := toolwall.ParseAction(r.Action)
		if err != nil || r.Action == "" {
			return fail("action must be allow, warn, ask or deny")
		}
		r.act = act
		if act > toolwall.Allow && strings.TrimSpace(r.Reason) == "" {
			return fail("a %s rule needs a reason written for the model (what was refused, why, what to do instead)", act)
		}
		if r.Project != "" && (!path.IsAbs(r.Project) || path.Clean(r.Project) != r.Project) {
			return fail("project %q must be a clean absolute path", r.Project)
		}
		if act == toolwall.Allow && r.Project == "" {
			return fail("an allow rule loosens toolwall, so it must name the exact project it is for (project = \"/abs/path\")")
		}
		if r.Tool == "" && len(r.Command) > 0 {
			r.Tool = toolwall.ToolBash
		}
		if r.Tool == "" {
			return fail("tool is required (a glob over tool names) unless command is given")
		}
		if r.m, err = compileMatcher(r); err != nil {
			return fail("%v", err)
		}
		if len(r.Match) == 0 {
			return fail("needs at least one match example (a self-test verified at load)")
		}
		for _, ex := range r.Match {
			if got := r.test(ex); got != sure {
				return fail("match example %s does not match", ex)
			}
		}
		for _, ex := range r.NotMatch {
			if got := r.test(ex); got != miss {
				return fail("not_match example %s matches", ex)
			}
		}
	}
	// Operator layers: a later rule with the same id replaces the earlier.
	kept := c.Rule[:0]
	for i, r := range c.Rule {
		if ids[r.ID] == i {
			kept = append(kept, r)
		}
	}
	c.Rule = kept
	for i := range c.Allow {
		a := &c.Allow[i]
		fail := func(format string, a2 ...any) error {
			return (&Error{Path: a.Source, Msg: fmt.Sprintf(format, a2...)}).at(a.Line)
		}
		if a.Project == "" || !path.IsAbs(a.Project) || path.Clean(a.Project) != a.Project {
			return fail("allow: project must be the exact clean absolute project root the entry is for")
		}
		switch {
		case a.Command != "" && a.Rule == "":
			if len(a.Path) > 0 {
				return fail("allow: path goes with rule, not with command")
			}
			s, err := shell.Read(a.Command, shell.Options{Cwd: a.Project, Home: "/home/user"})
			if err != nil || len(s.Commands) == 0 {
				return fail("allow: command %q does not read as a shell command: %v", a.Command, err)
			}
			for _, cmd := range s.Commands {
				var words []string
				for _, w := range cmd.Args {
					if w.Dynamic {
						return fail("allow: command %q holds a word only known at run time; allow exact commands", a.Command)
					}
					words = append(words, w.Value)
				}
				a.argv = append(a.argv, words)
			}
		case a.Rule != "" && a.Command == "":
			if !ruleID.MatchString(a.Rule) || slices.ContainsFunc(reserved, func(p string) bool { return strings.HasPrefix(a.Rule, p) }) {
				return fail("allow: rule %q is not a rule id an operator may waive", a.Rule)
			}
			if len(a.Path) == 0 {
				return fail("allow: rule %q needs path patterns (where it is allowed)", a.Rule)
			}
			for _, p := range a.Path {
				if !doublestar.ValidatePattern(p) {
					return fail("allow: bad path pattern %q", p)
				}
			}
		default:
			return fail("allow: give either command, or rule with path")
		}
	}
	return nil
}

func compileMatcher(r *Rule) (*matcher, error) {
	m := &matcher{}
	var err error
	if m.tool, err = glob.Compile(r.Tool); err != nil {
		return nil, fmt.Errorf("bad tool glob %q: %v", r.Tool, err)
	}
	if strings.ContainsAny(r.Tool, "*?[{") && !slices.ContainsFunc(Tools, m.tool.Match) {
		return nil, fmt.Errorf("tool glob %q matches none of %s; name another tool exactly", r.Tool, strings.Join(Tools, ", "))
	}
	if len(r.Command) > 0 && !m.tool.Match(toolwall.ToolBash) {
		return nil, fmt.Errorf("command patterns apply to Bash calls, but tool %q does not match Bash", r.Tool)
	}
	for _, c := range r.Command {
		var pat []wordPat
		for _, w := range strings.Fields(c) {
			if w == "**" {
				pat = append(pat, wordPat{any: true})
				continue
			}
			g, err := glob.Compile(w)
			if err != nil {
				return nil, fmt.Errorf("bad command pattern %q: %v", c, err)
			}
			pat = append(pat, wordPat{g: g, slash: strings.Contains(w, "/")})
		}
		if len(pat) == 0 || pat[0].any {
			return nil, fmt.Errorf("command pattern %q must start with a program name", c)
		}
		m.cmds = append(m.cmds, pat)
	}
	for _, p := range r.Path {
		if !doublestar.ValidatePattern(p) {
			return nil, fmt.Errorf("bad path pattern %q", p)
		}
		m.paths = append(m.paths, p)
	}
	for _, u := range r.URL {
		g, err := glob.Compile(u)
		if err != nil {
			return nil, fmt.Errorf("bad url pattern %q: %v", u, err)
		}
		m.urls = append(m.urls, g)
	}
	return m, nil
}

// exampleHome is the home directory examples run with.
const exampleHome = "/home/user"

// test runs one example through the rule's matcher.
func (r *Rule) test(ex Example) hit {
	project := r.Project
	if project == "" {
		project = "/project"
	}
	call := ex.call()
	call.Cwd, call.Project, call.Home = project, project, exampleHome
	var script *shell.Script
	if cmd, ok := call.Command(); ok {
		s, err := shell.Read(cmd, shell.Options{Cwd: project, Home: exampleHome})
		if err != nil {
			return miss
		}
		script = s
	}
	if r.act == toolwall.Allow {
		// An allow rule covers a call when it surely matches every command.
		if allMatch(call, script, []*Rule{r}) {
			return sure
		}
		return miss
	}
	return r.m.match(call, script, false)
}

// match reports how well call (with its shell reading for Bash) matches.
// strict (allow rules) counts a maybe as a miss.
func (m *matcher) match(call toolwall.Call, script *shell.Script, strict bool) hit {
	if !m.tool.Match(call.Tool) {
		return miss
	}
	var h hit
	if call.Tool == toolwall.ToolBash && script != nil {
		moved := slices.ContainsFunc(script.Commands, func(c *shell.Command) bool { return c.Name == "cd" || c.Name == "pushd" || c.Name == "popd" })
		for _, c := range script.Commands {
			h = max(h, m.command(c, call, moved))
		}
	} else if len(m.cmds) == 0 {
		h = m.fields(call)
	}
	if strict && h == maybe {
		return miss
	}
	return h
}

// fields matches a non-shell call's path and URL fields.
func (m *matcher) fields(call toolwall.Call) hit {
	h := sure
	if len(m.paths) > 0 {
		p := ""
		for _, f := range []string{"file_path", "notebook_path", "path"} {
			if v, ok := call.Field(f); ok && v != "" {
				p = paths.Abs(paths.Expand(v, call.Home), call.Cwd)
				break
			}
		}
		if p == "" || !m.path(p, call) {
			return miss
		}
	}
	if len(m.urls) > 0 {
		u, _ := call.Field("url")
		if u == "" || !slices.ContainsFunc(m.urls, func(g glob.Glob) bool { return g.Match(u) }) {
			return miss
		}
	}
	return h
}

// command matches one shell command; moved says the script changes
// directory, so relative operands are not known.
func (m *matcher) command(c *shell.Command, call toolwall.Call, moved bool) hit {
	h := sure
	if len(m.cmds) > 0 {
		best := miss
		for _, p := range m.cmds {
			best = max(best, words(p, c.Args))
		}
		h = min(h, best)
	}
	if len(m.paths) > 0 && h > miss {
		best := miss
		for _, w := range operands(c) {
			switch {
			case w.Dynamic:
				best = max(best, maybe)
			case moved && !path.IsAbs(w.Value) && !strings.HasPrefix(w.Value, "~"):
				best = max(best, maybe)
			case m.path(paths.Abs(paths.Expand(w.Value, call.Home), call.Cwd), call):
				best = sure
			}
		}
		h = min(h, best)
	}
	if len(m.urls) > 0 && h > miss {
		best := miss
		for _, w := range c.Args[min(1, len(c.Args)):] {
			switch {
			case w.Dynamic:
				best = max(best, maybe)
			case strings.Contains(w.Value, "://") && slices.ContainsFunc(m.urls, func(g glob.Glob) bool { return g.Match(w.Value) }):
				best = sure
			}
		}
		h = min(h, best)
	}
	return h
}

// operands are a command's arguments that are not options.
func operands(c *shell.Command) []shell.Word {
	var out []shell.Word
	for _, w := range c.Args[min(1, len(c.Args)):] {
		if !strings.HasPrefix(w.Value, "-") || w.Dynamic {
			out = append(out, w)
		}
	}
	return out
}

// path reports whether absolute path p matches one of the patterns.
func (m *matcher) path(p string, call toolwall.Call) bool {
	return matchPaths(m.paths, p, call)
}

// matchPaths matches p against patterns: absolute, "~/" (the call's
// home) or relative to the call's project.
func matchPaths(patterns []string, p string, call toolwall.Call) bool {
	for _, pat := range patterns {
		switch {
		case strings.HasPrefix(pat, "~/"):
			if call.Home == "" {
				continue
			}
			pat = call.Home + pat[1:]
		case !path.IsAbs(pat):
			if call.Project == "" {
				continue
			}
			pat = path.Join(call.Project, pat)
		}
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// words matches an argv against a word pattern: dp[i][j] is how well
// ps[i:] matches ws[j:].
func words(ps []wordPat, ws []shell.Word) hit {
	n, k := len(ps), len(ws)
	dp := make([][]hit, n+1)
	for i := range dp {
		dp[i] = make([]hit, k+1)
	}
	dp[n][k] = sure
	for i := n - 1; i >= 0; i-- {
		for j := k; j >= 0; j-- {
			p := ps[i]
			if p.any {
				dp[i][j] = dp[i+1][j]
				if j < k {
					dp[i][j] = max(dp[i][j], dp[i][j+1])
				}
				continue
			}
			if j == k {
				continue
			}
			dp[i][j] = min(word(p, ws[j], j == 0), dp[i+1][j+1])
		}
	}
	return dp[0][0]
}

// word matches one word; the program word matches by its base name
// unless the pattern holds a "/".
func word(p wordPat, w shell.Word, program bool) hit {
	if w.Dynamic {
		return maybe
	}
	v := w.Value
	if program && !p.slash {
		v = path.Base(v)
	}
	if p.g.Match(v) {
		return sure
	}
	return miss
}
