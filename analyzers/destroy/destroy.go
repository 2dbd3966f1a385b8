package destroy

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Options configure the analyzer. The zero value is the default: the git
// recoverability check is on with a 2 s timeout.
type Options struct {
	// SkipGit turns off the git recoverability check: a recursive delete of
	// a project subtree that is not build output is then always held for
	// a human (rm.project-subtree). Tests and hosts without git set it.
	SkipGit bool
	// GitTimeout bounds each git run of the check; 0 means 2 s. A check
	// that times out or fails counts as "git cannot restore it".
	GitTimeout time.Duration
}

// Analyzer is the destruction analyzer with default [Options].
var Analyzer = New(Options{})

// New returns a destruction analyzer named "destroy" for the Bash tool.
func New(opts Options) *analysis.Analyzer {
	if opts.GitTimeout <= 0 {
		opts.GitTimeout = 2 * time.Second
	}
	return &analysis.Analyzer{
		Name:  "destroy",
		Rules: rules,
		Doc: "destroy reports commands that delete, overwrite or lock away data beyond recovery: " +
			"recursive rm or find -delete of /, home, system directories or the project, " +
			"chmod/chown -R on them, setuid bits, mv to /dev/null, fork bombs, and writes, formats or " +
			"partitioning of block devices. A project subtree that git can restore, build " +
			"output, caches, temp files and paths that do not exist may be deleted.",
		Tools: []string{toolwall.ToolBash},
		Run: func(ctx context.Context, in *analysis.Input, r *analysis.Report) {
			if in == nil || in.Script == nil {
				return
			}
			project := in.Call.Project
			if project == "" {
				project = in.Call.Cwd
			}
			root := in.Call.IsRoot()
			a := &run{
				ctx:    ctx,
				opts:   opts,
				env:    env{home: in.Call.Home, project: project, root: root},
				remote: env{root: root},
				script: in.Script,
				exists: in.Exists,
				r:      r,
			}
			a.script1()
		},
	}
}

// run is one analysis of one script.
type run struct {
	ctx  context.Context
	opts Options
	// env holds this machine's places; remote is the env of commands on
	// another host or in a container (no home, no project: their paths
	// are not this machine's).
	env, remote env
	script      *shell.Script
	exists      func(string) (bool, bool)
	r           *analysis.Report
	// cur is the index in script.Commands of the command being judged.
	cur int
	// asked counts the questions put to exists (at most maxAsked);
	// reread the commands read again without a package version (at most
	// maxReread).
	asked, reread int
	// kids maps a command to the commands it runs (by Parent), built on
	// first use; fed maps a find to the xargs tails its output feeds.
	kids, fed map[*shell.Command][]*shell.Command
	// said lists the rules reported for the command being judged: one
	// finding per rule and command is enough (rm -rf a b c … asks once).
	said []string
}

// Bounds on the existence check: how many paths one call may ask about,
// and how many commands before a delete are read to trust an answer
// (beyond either, existence counts as unknown).
const (
	maxAsked      = 64
	maxUnderstood = 256
	maxReread     = 64
)

// children returns the commands d runs directly (their Parent is d).
func (a *run) children(d *shell.Command) []*shell.Command {
	if a.kids == nil {
		a.kids = map[*shell.Command][]*shell.Command{}
		a.fed = map[*shell.Command][]*shell.Command{}
		for _, x := range a.script.Commands {
			if x.Parent != nil {
				a.kids[x.Parent] = append(a.kids[x.Parent], x)
			}
			if f := a.fedByFind(x); f != nil {
				a.fed[f] = append(a.fed[f], x)
			}
		}
	}
	return a.kids[d]
}

// within calls f for d and every command it runs in turn, depth first.
func (a *run) within(d *shell.Command, f func(*shell.Command)) {
	f(d)
	for _, k := range a.children(d) {
		if k != d {
			a.within(k, f)
		}
	}
}

// script1 checks every command of the script, then the script as a whole.
func (a *run) script1() {
	for i, c := range a.script.Commands {
		if a.ctx.Err() != nil {
			return
		}
		a.cur = i
		a.said = a.said[:0]
		a.command(c)
	}
	a.said = a.said[:0]
	if !a.env.root {
		a.forkBomb()
		a.unbounded()
	}
}

// command dispatches one command to its rules. Every program is read
// through its catalog entry (c.Inv) and judged by what it does
// (c.Effects); a command whose program is only known at run time is
// judged by its words (dynamicCommand).
func (a *run) command(c *shell.Command) {
	prog := progName(c)
	if prog == "" && a.versioned(c) {
		return
	}
	defer a.recordLinks(c, prog)
	if a.env.root {
		if prog == "find" {
			a.find(c)
		} else {
			a.deletes(c, prog)
		}
		return
	}
	switch {
	case c.Inv == nil:
		// a word with candidate values is judged as each of them, by the
		// commands the reader emits for them
		if len(c.Args) > 0 && len(c.Candidates) == 0 {
			a.dynamicCommand(c)
		}
	case prog == "find":
		a.find(c)
	case c.Name == "fd" || c.Name == "fdfind":
		a.fd(c)
	default:
		a.deletes(c, prog)
		a.moves(c, prog)
		a.perms(c, prog)
		a.consumes(c, prog)
		a.stage(c, prog)
		a.disk(c, prog)
		a.fill(a.script.Commands, a.cur, c, prog)
	}
	a.writes(c, prog)
}

// versioned judges a package that a package runner names with its
// version (npx rimraf@5 ~, pnpm dlx shx@0.3 rm -rf ~): the reader takes
// "rimraf@5" for a program not in the catalog; read again without the
// version, the command is judged as the program it is. It reports
// whether c was such a command.
func (a *run) versioned(c *shell.Command) bool {
	if c.Inv == nil || c.Parent == nil || c.Remote || len(c.Args) == 0 || c.Args[0].Dynamic {
		return false
	}
	switch progName(c.Parent) {
	case "npx", "npm", "pnpm", "yarn", "bunx", "bun":
	default:
		return false
	}
	name := path.Base(c.Args[0].Value)
	at := strings.LastIndexByte(name, '@')
	if at <= 0 || programs.Lookup(name[:at]) == nil {
		return false
	}
	if a.reread >= maxReread {
		if del, _ := handedTo(name[:at]); del {
			a.ask("rm.dynamic-command", quote(c)+" needs confirmation: it deletes with "+name[:at]+
				", in one call with too many other versioned packages to check each. Run it on its own, or without the version.")
		}
		return true
	}
	a.reread++
	var b strings.Builder
	for i, w := range c.Args {
		v := w.Value
		if i == 0 {
			v = name[:at]
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Dynamic {
			b.WriteString(`"$__toolwall_runtime"`)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
	}
	s, err := shell.Read(b.String(), shell.Options{Cwd: c.Cwd, Home: a.env.home})
	if err != nil {
		return false
	}
	sub := *a
	sub.script, sub.kids, sub.fed, sub.said = s, nil, nil, nil
	for i, d := range s.Commands {
		sub.cur = i
		sub.said = sub.said[:0]
		sub.command(d)
	}
	a.asked, a.reread = sub.asked, sub.reread
	return true
}

// progName returns the canonical name of the program c runs (its catalog
// entry's first name; a subcommand's program), or "" when it is not in
// the catalog.
func progName(c *shell.Command) string {
	if p := c.Inv.Program(); p != nil {
		return p.Root().Name
	}
	return ""
}

// category of every finding.
const category = "destructive"

// deny adds an irreversible finding.
func (a *run) deny(rule, reason string) {
	if a.first(rule) {
		a.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: 0.95, Action: toolwall.Deny, Reason: reason})
	}
}

// ask adds a finding a human must decide.
func (a *run) ask(rule, reason string) {
	if a.first(rule) {
		a.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: 0.6, Action: toolwall.Ask, Reason: reason})
	}
}

// first reports whether rule has not been reported for the command being
// judged yet, and notes it.
func (a *run) first(rule string) bool {
	if a.reported(rule) {
		return false
	}
	a.said = append(a.said, rule)
	return true
}

// reported reports whether rule was reported for the command being
// judged already (a later finding of it would add nothing).
func (a *run) reported(rule string) bool {
	for _, r := range a.said {
		if r == rule {
			return true
		}
	}
	return false
}

// quote shows c in a reason as the model wrote it, and as it runs when
// that reads differently ([shell.Command.Shown]).
func quote(c *shell.Command) string { return c.Shown() }

// tagDelete records a delete effect of this machine; a dynamic target has
// no path.
func (a *run) tagDelete(e *env, t target) {
	if e != &a.env {
		return
	}
	p := t.abs
	if t.dynamic {
		p = ""
	}
	detail := ""
	if a.env.protected(t.base) {
		detail = "protected"
	}
	a.r.Tag(toolwall.TagDelete, p, detail)
	if p != "" && a.env.underSystem(t.base) {
		a.r.Tag(toolwall.TagSystemWrite, p, "")
	}
}

// target resolves the path of effect x of command c, and returns the
// places to judge it against: this machine's, or those of the host or
// container the command runs in. A container path under a mount is the
// host path mounted there (the reader maps it). Programs that expand glob
// patterns themselves (rimraf, del-cli) make a quoted pattern a glob.
func (a *run) target(c *shell.Command, x shell.Effect, prog string) (target, *env) {
	w := x.Word
	if globbing(c, prog) && !w.Dynamic && hasMeta(w.Value) {
		w.Glob = true
	}
	switch {
	case x.Remote:
		return a.remote.resolve(w, c.Cwd), &a.remote
	case c.Remote:
		if x.Path == "" {
			return target{word: w, dynamic: true}, &a.env
		}
		hw := shell.Word{Raw: w.Raw, Value: x.Path, Prefix: x.Path, Glob: w.Glob}
		return a.env.resolve(hw, "/"), &a.env
	}
	return a.env.resolve(w, c.Cwd), &a.env
}

// globbing reports whether the program expands glob patterns in its
// operands itself: rimraf (unless --no-glob) and del-cli.
func globbing(c *shell.Command, prog string) bool {
	switch prog {
	case "rimraf":
		return !c.Inv.Has("no-glob")
	case "del-cli":
		return true
	}
	return false
}

// absent reports whether target t of this machine does not exist, so a
// delete of it loses nothing: the existence oracle says so,
// and every command before it in the script is understood not to have
// moved data there. Not understood: a command known only at run time, a
// program not in the catalog (but for shell builtins that touch no
// file), a subcommand the catalog does not describe, a tree written from
// nothing the call names (git stash pop; tar -x copies its archive), a
// program running code or a script whose file operations are not seen
// (python x.py, make, sh < x.sh), a move into it, an operand the
// catalog has no role for naming a path under it. Copies and new files
// may go there: their sources stay, or they are new. Without an oracle
// (toolwall eval) it is false.
func (a *run) absent(e *env, t target) bool {
	if a.exists == nil || e != &a.env || t.dynamic || t.base == "" || a.asked >= maxAsked || a.cur > maxUnderstood {
		return false
	}
	a.asked++
	if ok, known := a.exists(t.base); ok || !known {
		return false
	}
	for _, l := range a.env.links {
		if !l.sym && under(l.from, t.base) {
			return false
		}
	}
	for _, d := range a.script.Commands[:min(a.cur, len(a.script.Commands))] {
		if !a.understood(d, t.base) {
			return false
		}
	}
	return true
}

// understood reports whether command d is known not to have moved data
// under base (see absent).
func (a *run) understood(d *shell.Command, base string) bool {
	if d.Inv == nil {
		return len(d.Args) == 0
	}
	p := d.Inv.Program()
	if p == nil {
		return quietBuiltin(d.Name)
	}
	if len(p.Root().Subs) > 0 && len(d.Inv.Subs) == 0 || p.Root().Lang != "" {
		return false
	}
	if d.Inv.Stdin == programs.Code && d.Stdin.Kind == shell.StdinFile {
		return false
	}
	for _, o := range d.Inv.Opts {
		switch o.Role {
		case programs.Code, programs.Exec, programs.Source:
			return false
		}
	}
	// A tree written from an archive copies it (tar -x, unzip); one
	// written from nothing the call names (git stash pop) may be the only
	// copy of what it brings.
	moves, archive := false, false
	for _, x := range d.Effects {
		moves = moves || x.Kind == shell.Moves
		archive = archive || x.Role == programs.Archive
	}
	for _, x := range d.Effects {
		if (moves || x.From == "tree" && !archive) && (x.Kind == shell.Writes || x.Kind == shell.Links) && (x.Path == "" || under(base, x.Path) || under(x.Path, base)) {
			return false
		}
	}
	for _, op := range d.Inv.Operands {
		switch op.Role {
		case programs.Code, programs.Exec, programs.Source:
			return false
		case programs.Unknown, programs.None:
		default:
			continue
		}
		w := d.Inv.Args[op.Word]
		if w.Dynamic {
			continue
		}
		if p := a.env.abs(w.Value, d.Cwd); p == "" || under(p, base) {
			return false
		}
	}
	return true
}

// quietBuiltin reports whether a shell builtin the catalog does not list
// changes no file.
func quietBuiltin(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "export", "set", "unset", "local", "shift", "exit", "return", "wait", "read",
		"declare", "typeset", "readonly", "alias", "unalias", "shopt", "umask", "hash", "type", ":":
		return true
	}
	return false
}
