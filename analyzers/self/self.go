package self

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids.
const (
	// RuleTamper (deny): a call would change toolwall's own files.
	RuleTamper = "self.tamper"
	// RuleSettings (ask): a call would change Claude Code's settings, where
	// the toolwall hook is configured.
	RuleSettings = "self.settings"
	// RulePolicy (ask): a call would change or remove the project's own
	// toolwall policy file (.toolwall.toml in the project root).
	RulePolicy = "self.policy"
)

// PolicyFile is the name of a project's own toolwall policy, in the
// project root (the policy package's project layer).
const PolicyFile = ".toolwall.toml"

// Files are toolwall's own files.
type Files struct {
	// Own are absolute paths (configuration, state database, binary);
	// relative ones are ignored.
	Own []string
	// Home are paths relative to the home directory of each call (where
	// an install puts them: "go/bin/toolwall", ".config/toolwall/…").
	Home []string
	// Settings are other agent hosts' settings files where toolwall's
	// hook is configured (Claude Code's are always included), relative to
	// both the home directory and the project of each call; a change is
	// asked about (RuleSettings). A "*" in the last element matches any
	// file name there.
	Settings []Setting
	// Hooks are the user's settings files, relative to the home
	// directory, where `toolwall install` registers the hook: emptying,
	// removing or stripping one of them is refused (RuleUnhook) unless
	// Hooked says it holds no hook.
	Hooks []string
	// Hooked are the settings files (absolute) found holding toolwall's
	// hook; nil when nobody looked, and then every file of Hooks is
	// presumed to hold it.
	Hooked []string
	// HookedIn, when set, lists a project's settings files found holding
	// toolwall's hook (`toolwall install --project`); it is called only
	// when a call changes one of a host's settings files.
	HookedIn func(project string) []string
}

// Setting is one agent host's settings file.
type Setting struct {
	// Path is relative to the home directory and to the project
	// (".codex/hooks.json").
	Path string
	// Host names the host in reasons ("Codex").
	Host string
}

// New returns the analyzer for toolwall's own files. Claude Code's
// settings files are derived per call from its home and project.
//
// A shell command touches a protected file through its effects (package
// shell): a write, append, in-place change, delete, move, link or
// permission change of the file itself, or of a directory holding it when
// the effect reaches a whole tree (rm -r, mv of a parent, chmod -R, an
// archive extracted into it, a recursive copy into it, find -delete and
// find -exec of a changing command, filtered by find's -name). A
// permission change counts only when it can take the owner's read (or,
// for the binary, execute) permission away. Reads, listings and copies of
// a protected file elsewhere touch nothing. A program not in the catalog
// touches a protected file when one of its operands names it exactly.
// Commands on another host or in a container touch nothing here.
//
// A change that leaves a host's settings file where the hook is
// registered gone, empty or without toolwall's name (empties,
// dropsHooks, unhooks) is refused as RuleUnhook, other changes of it
// asked as RuleSettings; a change of the project's .toolwall.toml is
// asked as RulePolicy; a signal to toolwall's processes is judged by
// signalled, toolwall's own uninstall and install by toolwallCommand.
func New(files Files) *analysis.Analyzer {
	var clean []string
	for _, p := range files.Own {
		if path.IsAbs(p) {
			clean = append(clean, path.Clean(p))
		}
	}
	rel := slices.Clone(files.Home)
	// The files under a home, and Claude Code's settings files, for the
	// home and project of the last call (a process judges calls of one
	// home and project; a server's tenants may differ).
	type homed struct {
		home, project string
		own, ask      []string
		policy        []string
		at            []hostPath
		hooks         hooks
	}
	var last atomic.Pointer[homed]
	sets := hostSettings{list: slices.Clone(files.Settings), first: map[string]bool{}}
	for _, s := range sets.list {
		first, _, _ := strings.Cut(s.Path, "/")
		sets.first[first] = true
	}
	return &analysis.Analyzer{
		Name:  "self",
		Rules: rules,
		Doc:   "refuses changes to toolwall's own configuration, state and binaries, stopping its processes and taking its hook out of a host's settings; asks before other changes to the hosts' settings and to the project's .toolwall.toml",
		Tools: []string{toolwall.ToolBash, toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit, toolwall.ToolNotebookEdit},
		Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
			h, p := in.Call.Home, in.Call.Project
			l := last.Load()
			if l == nil || l.home != h || l.project != p {
				l = &homed{home: h, project: p, own: clean, ask: settings(in.Call), policy: policyFiles(in.Call), at: sets.under(h, p),
					hooks: hooks{known: files.Hooked, in: files.HookedIn, project: p}}
				if h != "" {
					for _, f := range files.Hooks {
						l.hooks.presumed = append(l.hooks.presumed, path.Join(h, f))
					}
				}
				if h != "" && len(rel) > 0 {
					l.own = slices.Clone(clean)
					for _, f := range rel {
						l.own = append(l.own, path.Join(h, f))
					}
				}
				last.Store(l)
			}
			here := sets
			here.at = l.at
			run(protected{own: l.own, ask: l.ask, policy: l.policy, hooks: l.hooks}, here, in, r)
		},
	}
}

// protected are the files of one call, by how a change is judged.
type protected struct {
	// own are toolwall's own files (RuleTamper), ask Claude Code's
	// settings (RuleSettings), policy the project's policy file
	// (RulePolicy).
	own, ask, policy []string
	// hooks say which settings files hold toolwall's hook.
	hooks hooks
}

// policyFiles lists the project's own toolwall policy file for a call.
func policyFiles(call toolwall.Call) []string {
	if call.Project == "" || !path.IsAbs(call.Project) {
		return nil
	}
	return []string{path.Join(call.Project, PolicyFile)}
}

// settings lists Claude Code's settings files for a call.
func settings(call toolwall.Call) []string {
	var out []string
	for _, base := range []string{call.Home, call.Project} {
		if base != "" {
			out = append(out, base+"/.claude/settings.json", base+"/.claude/settings.local.json")
		}
	}
	if call.Home != "" {
		out = append(out, call.Home+"/.claude.json")
	}
	return out
}

// target is one place a call changes.
type target struct {
	path string
	// tree: everything under path changes.
	tree bool
	// names are find's -name patterns; one must match a protected file's
	// name for a tree change to reach it.
	names []string
	// mode is a permission change's mode ("" for other changes).
	mode  string
	chmod bool
	// unnamed: a tree of entries the command does not name (an archive
	// extracted): it counts for toolwall's own files only.
	unnamed bool
	// depth bounds how deep below path a tree change reaches: find
	// -maxdepth N gives N+1; 0 is no bound.
	depth int
	// empties: the file is left gone or empty (empties).
	empties bool
}

// touches returns the first protected file t reaches.
func (t target) touches(protected []string) (string, bool) {
	glob := strings.ContainsAny(t.path, "*?[")
	for _, f := range protected {
		if len(t.names) > 0 && !slices.ContainsFunc(t.names, func(n string) bool {
			ok, _ := path.Match(n, strings.ToLower(path.Base(f)))
			return ok
		}) {
			continue
		}
		if t.chmod && !weakens(t.mode, f) {
			continue
		}
		if t.path == f || t.tree && paths.Under(f, t.path) && t.within(f) {
			return f, true
		}
		if strings.Contains(path.Base(f), "*") {
			if ok, _ := path.Match(f, t.path); ok {
				return t.path, true
			}
			if t.tree && paths.Under(path.Dir(f), t.path) && t.within(path.Dir(f)) {
				return f, true
			}
		}
		if glob && globMatch(t.path, f, t.tree) {
			return f, true
		}
	}
	return "", false
}

// within reports whether f is within t.depth below t.path.
func (t target) within(f string) bool {
	if t.depth <= 0 {
		return true
	}
	if f == t.path {
		return true
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(f, t.path), "/")
	return strings.Count(rel, "/")+1 < t.depth
}

// selective reports whether a find expression picks files by something
// other than their name or type (owner, group, permissions, size, times,
// inode, links, a regular expression on the path): such a find is not
// aimed at toolwall's files.
func selective(v *shell.Invocation) bool {
	for _, o := range v.Opts {
		switch o.Name {
		case "user", "group", "uid", "gid", "nouser", "nogroup", "perm", "size", "mtime", "atime", "ctime",
			"mmin", "amin", "cmin", "newer", "inum", "links", "regex", "iregex", "samefile", "empty", "used":
			return true
		}
	}
	return false
}

// globMatch matches a path pattern the way the shell expands it: element
// by element, and a name starting with "." only by a pattern element that
// starts with "." too (no dotglob). With tree, the pattern may match a
// directory holding name. Patterns longer than 512 bytes match nothing
// (no user text of unbounded size as a pattern).
func globMatch(pattern, name string, tree bool) bool {
	if len(pattern) > 512 {
		return false
	}
	for {
		pe, prest, pmore := strings.Cut(pattern, "/")
		ne, nrest, nmore := strings.Cut(name, "/")
		if strings.HasPrefix(ne, ".") && !strings.HasPrefix(pe, ".") {
			return false
		}
		if ok, err := path.Match(pe, ne); err != nil || !ok {
			return false
		}
		switch {
		case !pmore && !nmore:
			return true
		case !pmore:
			return tree // name goes on below what the pattern matched
		case !nmore:
			return false // the pattern goes deeper than name
		}
		pattern, name = prest, nrest
	}
}

// weakens reports whether chmod mode can take away what toolwall needs of
// file f: the owner's read permission, or execute for the binary (a file
// without an extension). Adding permissions weakens nothing.
func weakens(mode, f string) bool {
	binary := !strings.Contains(path.Base(f), ".")
	if n, err := strconv.ParseUint(mode, 8, 32); err == nil && len(mode) <= 4 {
		owner := (n >> 6) & 7
		return owner&4 == 0 || binary && owner&1 == 0
	}
	for _, clause := range strings.Split(mode, ",") {
		who := strings.TrimLeft(clause, "ugoa")
		users := clause[:len(clause)-len(who)]
		if users != "" && !strings.ContainsAny(users, "ua") {
			continue
		}
		for i := 0; i < len(who); i++ {
			op := who[i]
			if op != '-' && op != '=' {
				continue
			}
			perms := who[i+1:]
			if j := strings.IndexAny(perms, "+-="); j >= 0 {
				perms = perms[:j]
			}
			if op == '=' {
				return !strings.Contains(perms, "r") || binary && !strings.ContainsAny(perms, "xX")
			}
			if strings.Contains(perms, "r") || binary && strings.ContainsAny(perms, "xX") {
				return true
			}
		}
	}
	return false
}

// hostSettings are other hosts' settings files, with the first element of
// each path for a quick miss.
type hostSettings struct {
	list  []Setting
	first map[string]bool
	// at are the files of list under a call's home and project, in the
	// order touchesHosts tries them (each file, under the home, then the
	// project).
	at []hostPath
}

// hostPath is one host's settings file under a base directory.
type hostPath struct {
	path, host, base string
}

// under lists the files of sets under home and project.
func (sets hostSettings) under(home, project string) []hostPath {
	var out []hostPath
	for _, s := range sets.list {
		for _, base := range [2]string{home, project} {
			if base != "" {
				out = append(out, hostPath{path: path.Join(base, s.Path), host: s.Host, base: base})
			}
		}
	}
	return out
}

// inside returns p's path below dir, and whether p is below dir.
func inside(p, dir string) (string, bool) {
	if len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir) {
		return p[len(dir)+1:], true
	}
	return "", false
}

func run(files protected, sets hostSettings, in *analysis.Input, r *analysis.Report) {
	own, ask := files.own, files.ask
	call := in.Call
	report := func(what func() string, target, owner string, deny bool) {
		if owner == PolicyFile {
			r.Add(toolwall.Finding{Rule: RulePolicy, Category: "self", Score: 0.6, Action: toolwall.Ask,
				Reason: fmt.Sprintf("%s needs confirmation: it would change or remove %s, this project's toolwall policy, whose rules guard this agent's tool calls here (a project's policy can only tighten them, so editing it away loosens the checks). Change toolwall's rules only when the user asked for it, and let them confirm this edit; to get past a refusal, ask the user instead of editing the rules.", what(), target)})
			return
		}
		if deny {
			r.Add(toolwall.Finding{Rule: RuleTamper, Category: "self", Score: 0.95, Action: toolwall.Deny,
				Reason: fmt.Sprintf("%s was refused: it would change %s, one of toolwall's own files, which would switch off or weaken the checks on this agent's tool calls. Ask the user to make this change themselves.", what(), target)})
			return
		}
		r.Add(toolwall.Finding{Rule: RuleSettings, Category: "self", Score: 0.6, Action: toolwall.Ask,
			Reason: fmt.Sprintf("%s needs confirmation: it would change %s, %s's settings, where toolwall's hook is configured. Ask the user to confirm the change.", what(), target, owner)})
	}
	// unhook: the call takes hooks out (code that drops them, a file
	// tool's new content without toolwall's name).
	settingsChange := func(what func() string, f, owner string, t target, unhook bool) {
		if (t.empties || unhook) && files.hooks.holds(f) {
			reportUnhook(r, what(), f, owner)
			return
		}
		report(what, f, owner, false)
	}
	// what is the command as a reason shows it, made only for a finding.
	judge := func(what func() string, t target, unhook bool) bool {
		if f, ok := t.touches(own); ok {
			report(what, f, "", true)
			return true
		}
		if t.unnamed {
			return false // an archive unpacked in the project names no settings file
		}
		if f, ok := t.touchesSettings(ask, call.Home); ok {
			settingsChange(what, f, "Claude Code", t, unhook)
			return true
		}
		if f, h, ok := t.touchesHosts(sets, call); ok {
			settingsChange(what, f, h, t, unhook)
			return true
		}
		// Work over the whole project (a formatter, a recursive copy)
		// passes over the policy file without aiming at it: only a tree
		// change that picks it by name counts.
		if f, ok := t.touchesSettings(files.policy, call.Home); ok && (!t.tree || len(t.names) > 0 || f == t.path) {
			report(what, f, PolicyFile, false)
			return true
		}
		return false
	}
	// A PowerShell call is read into the same commands as a Bash call.
	if call.Tool != toolwall.ToolBash && call.Tool != toolwall.ToolPowerShell {
		field := "file_path"
		if call.Tool == toolwall.ToolNotebookEdit {
			field = "notebook_path"
		}
		p, ok := call.Field(field)
		if !ok {
			return
		}
		p = paths.Abs(paths.Expand(p, call.Home), call.Cwd)
		judge(func() string { return call.Tool + " of " + p }, target{path: p}, unhooks(call))
		return
	}
	if in.Script == nil {
		return
	}
	tails := map[*shell.Command][]*shell.Command{}
	for _, c := range in.Script.Commands {
		if c.Parent != nil && c.Via == "find -exec" {
			tails[c.Parent] = append(tails[c.Parent], c)
		}
	}
	dropping := slices.ContainsFunc(in.Script.Commands, dropsHooks)
	for _, c := range in.Script.Commands {
		what := c.Shown
		if toolwallCommand(c, own, r) {
			continue
		}
		if sig, ok := signalled(c, in.Script.Commands, own); ok {
			reportSignal(r, what(), sig)
			continue
		}
		if f, deny, ok := indirect(c, own, ask, call.Home); ok && !c.Remote {
			if deny {
				report(what, f, "", true)
			} else {
				settingsChange(what, f, "Claude Code", target{path: f}, dropping)
			}
			continue
		}
		// Inline code names the policy file relative to where it runs.
		if f, _, ok := indirect(c, nil, files.policy, c.Cwd); ok && !c.Remote && c.Name != "claude" {
			report(what, f, PolicyFile, false)
			continue
		}
		for _, t := range targets(c, tails[c]) {
			if judge(what, t, dropping) {
				break
			}
		}
	}
}

// touchesSettings returns the first settings file of list t changes.
// Work over a whole tree (sed -i, chown -R, find -exec across the
// project) is ordinary: only a tree inside the settings' own directory
// (.claude), or a find that picks the file by name, counts.
//
// A pattern that names nothing in particular (*, *.*, .[^.]*: work on
// every file of a directory, such as rename foo bar * in the project) is
// not aimed at a settings file either, unless the directory is the
// settings' own (.claude/*); toolwall's own files are judged stricter
// (touches).
func (t target) touchesSettings(list []string, home string) (string, bool) {
	if dir := path.Dir(t.path); strings.ContainsAny(t.path, "*?[") && !aimed(path.Base(t.path)) &&
		!slices.ContainsFunc(list, func(f string) bool { return path.Dir(f) == dir && dedicated(dir) }) {
		return "", false
	}
	if t.tree && len(t.names) == 0 {
		if !slices.ContainsFunc(list, func(f string) bool { return paths.Under(t.path, path.Dir(f)) && path.Dir(f) != home }) {
			return "", false
		}
	}
	return t.touches(list)
}

// dedicated reports whether dir is a directory of configuration of its
// own (.claude, .cursor, .gemini, .codex, ~/.config/…): its name starts
// with a dot, or it is under one.
func dedicated(dir string) bool {
	for _, e := range strings.Split(dir, "/") {
		if strings.HasPrefix(e, ".") && e != "." && e != ".." {
			return true
		}
	}
	return false
}

// aimed reports whether a file name pattern has a literal part beyond
// wildcards and dots (*.json, settings*), so that it picks some files
// over others.
func aimed(pattern string) bool {
	in := false // inside [...]
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case c == '[':
			in = true
		case c == ']':
			in = false
		case in, c == '*', c == '?', c == '.':
		default:
			return true
		}
	}
	return false
}

// touchesHosts returns the first of other hosts' settings files t
// changes (sets are relative to the call's home and project) and the
// host's name. A plain file is looked up directly; a tree or a pattern
// is matched against every file.
func (t target) touchesHosts(sets hostSettings, call toolwall.Call) (string, string, bool) {
	if !t.tree && !strings.ContainsAny(t.path, "*?[") {
		for _, base := range [2]string{call.Home, call.Project} {
			rel, ok := inside(t.path, base)
			if base == "" || !ok {
				continue
			}
			if first, _, _ := strings.Cut(rel, "/"); !sets.first[first] {
				continue
			}
			for _, s := range sets.list {
				if ok, _ := path.Match(s.Path, rel); ok {
					if f, ok := t.touches([]string{t.path}); ok {
						return f, s.Host, true
					}
				}
			}
		}
		return "", "", false
	}
	for _, h := range sets.at {
		if t.tree && len(t.names) == 0 {
			// Only a tree inside a settings file's own directory
			// counts (touchesSettings): it lies under the base.
			rel, ok := inside(t.path, h.base)
			if first, _, _ := strings.Cut(rel, "/"); !ok || !sets.first[first] {
				continue
			}
		}
		if f, ok := t.touchesSettings([]string{h.path}, call.Home); ok {
			return f, h.host, true
		}
	}
	return "", "", false
}

// targets lists what command c changes, from its effects; tails are the
// commands its find -exec runs.
func targets(c *shell.Command, tails []*shell.Command) []target {
	var out []target
	var names []string
	depth := 0
	if v := c.Inv; v != nil && v.Program() != nil && v.Program().Root().Name == "find" {
		for _, n := range v.Values("name", "iname") {
			if aimed(n.Value) { // -name '*' picks nothing out
				names = append(names, strings.ToLower(n.Value))
			}
		}
		if selective(v) {
			return nil // find picks by owner, size, time, …: not toolwall's files by name
		}
		for _, d := range v.Values("maxdepth") {
			if n, err := strconv.Atoi(d.Value); err == nil && n >= 0 {
				depth = n + 1
			}
		}
	}
	for _, e := range c.Effects {
		if e.Path == "" || e.Remote {
			continue
		}
		switch e.Kind {
		case shell.Writes, shell.Appends, shell.Modifies, shell.Links:
			out = append(out, target{path: e.Path, tree: e.Recursive, names: names, unnamed: e.From == "tree", empties: empties(c, e)})
		case shell.Deletes, shell.Moves:
			out = append(out, target{path: e.Path, tree: e.Recursive || e.Kind == shell.Moves, names: names, empties: empties(c, e)})
		case shell.Chmods:
			out = append(out, target{path: e.Path, tree: e.Recursive, names: names, chmod: true, mode: e.Mode})
		}
	}
	// find -exec CMD {}: what CMD does to {} it does to every match.
	for _, t := range tails {
		for _, e := range t.Effects {
			if !strings.Contains(e.Word.Raw, "{}") {
				continue
			}
			switch e.Kind {
			case shell.Writes, shell.Appends, shell.Modifies, shell.Deletes, shell.Moves, shell.Chmods, shell.Links:
				for _, start := range c.Effects {
					if start.Path != "" && (start.Kind == shell.Reads || start.Kind == shell.Deletes) && start.From == "operand" {
						out = append(out, target{path: start.Path, tree: true, names: names, chmod: e.Kind == shell.Chmods, mode: e.Mode, depth: depth})
					}
				}
			}
		}
		if t.Inv == nil || t.Inv.Program() == nil {
			for _, start := range c.Effects {
				if start.Path != "" && start.From == "operand" {
					out = append(out, target{path: start.Path, tree: true, names: names, depth: depth})
				}
			}
		}
	}
	// git rm and git mv take files out of the work tree, or move them,
	// as rm and mv do (the catalog reads their operands as pathspecs).
	if v := c.Inv; v != nil && v.Program() != nil && v.Program().Root().Name == "git" && (v.Sub("rm") || v.Sub("mv")) && !v.Has("cached", "dry-run") && !c.Remote {
		ops := v.OperandsOf(programs.None)
		for i, w := range ops {
			if !w.Dynamic && w.Value != "" {
				// git mv's last operand is where the files go.
				out = append(out, target{path: paths.Abs(w.Value, c.Cwd), empties: v.Sub("rm") || i < len(ops)-1})
			}
		}
	}
	// A program not in the catalog: an operand naming the file exactly
	// (a pattern such as /usr/bin/* names every program there, toolwall's
	// among them, without aiming at any).
	if c.Inv != nil && c.Inv.Program() == nil && !readOnly[c.Name] && !readOnlyCmdlet(c.Name) && !c.Remote {
		for _, w := range c.Args[1:] {
			if !w.Dynamic && w.Value != "" && !strings.HasPrefix(w.Value, "-") && !strings.ContainsAny(w.Value, "*?[") {
				out = append(out, target{path: paths.Abs(w.Value, c.Cwd)})
			}
		}
	}
	return out
}

// readOnly are programs outside the catalog that only read what they
// name.
var readOnly = map[string]bool{"toolwall": true, "which": true, "type": true, "hash": true}

// readOnlyCmdlet reports a PowerShell cmdlet kept by its own name (not
// read as a program of the catalog) whose verb only looks: Get-Item,
// Test-Path, Resolve-Path, Get-FileHash.
func readOnlyCmdlet(name string) bool {
	verb, _, ok := strings.Cut(name, "-")
	if !ok {
		return false
	}
	switch verb {
	case "get", "test", "resolve", "find", "search", "show", "measure", "compare", "select", "read", "format", "split", "join", "convertfrom", "convertto":
		return true
	}
	return false
}

// interpreters run code given on their command line.
var interpreters = map[string]bool{
	"python": true, "node": true, "bun": true, "deno": true, "perl": true, "ruby": true, "php": true,
	"lua": true, "osascript": true, "pwsh": true, "powershell": true,
}

// indirect finds changes to protected files that name them indirectly:
// a Go build whose output is toolwall's binary (go install of a package
// of the same name, go build -o), inline interpreter code that mentions a
// protected file (os.remove, writeFileSync, open(…, 'w')), and Claude
// Code's own "claude config" changes. It returns the file, whether the
// change is denied (toolwall's own) or asked (Claude's settings).
func indirect(c *shell.Command, own, ask []string, home string) (string, bool, bool) {
	v := c.Inv
	p := v.Program()
	switch {
	case p != nil && p.Root().Name == "go" && (v.Sub("install") || v.Sub("build")):
		for _, out := range goOutputs(c, v) {
			for _, f := range own {
				if out == f || path.Base(out) == path.Base(f) && v.Sub("install") && !strings.Contains(path.Base(f), ".") {
					return f, true, true
				}
			}
		}
	case p != nil && interpreters[p.Root().Name]:
		code := strings.Join(argValues(c), " ")
		for _, f := range own {
			if mentions(code, f, home) {
				return f, true, true
			}
		}
		for _, f := range ask {
			if mentions(code, f, home) {
				return f, false, true
			}
		}
	case c.Name == "claude" && c.Arg(1) == "config" && slices.Contains([]string{"set", "add", "remove", "reset"}, c.Arg(2)):
		if len(ask) > 0 {
			return ask[0], false, true
		}
	}
	return "", false, false
}

// argValues returns the values of c's arguments.
func argValues(c *shell.Command) []string {
	var out []string
	for _, w := range c.Args[1:] {
		out = append(out, w.Value)
	}
	return out
}

// mentions reports whether code names file f: its absolute path, or its
// path below home (as in os.path.expanduser("~/…") or HOME + "/…").
func mentions(code, f, home string) bool {
	if strings.Contains(code, f) {
		return true
	}
	if home != "" && paths.StrictlyUnder(f, home) {
		return strings.Contains(code, strings.TrimPrefix(f, home+"/"))
	}
	return false
}

// goOutputs lists the files a go install or go build command writes, as
// far as they are known: go build -o FILE (or DIR/ plus the package's
// last element), and for go install the last element of each package
// (where it lands depends on GOBIN, so only its name is known; the caller
// compares names).
func goOutputs(c *shell.Command, v *shell.Invocation) []string {
	var out []string
	o := ""
	for _, w := range v.Values("output") {
		o = paths.Abs(w.Value, c.Cwd)
		if strings.HasSuffix(w.Value, "/") {
			o += "/"
		}
	}
	var pkgs []string
	for _, op := range v.OperandsOf(programs.None) {
		pkgs = append(pkgs, op.Value)
	}
	if len(pkgs) == 0 {
		pkgs = []string{c.Cwd}
	}
	for _, p := range pkgs {
		p, _, _ = strings.Cut(p, "@")
		name := path.Base(paths.Abs(p, c.Cwd))
		switch {
		case o != "" && strings.HasSuffix(o, "/"):
			out = append(out, path.Join(o, name))
		case o != "":
			out = append(out, o)
		default:
			out = append(out, "/"+name)
		}
	}
	return out
}
