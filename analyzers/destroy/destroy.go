package destroy

import (
	"context"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
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
		Name: "destroy",
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
}

// script1 checks every command of the script, then the script as a whole.
func (a *run) script1() {
	for i, c := range a.script.Commands {
		if a.ctx.Err() != nil {
			return
		}
		a.cur = i
		a.command(c)
	}
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
		if len(c.Args) > 0 {
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
	}
	a.writes(c, prog)
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
	a.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: 0.95, Action: toolwall.Deny, Reason: reason})
}

// ask adds a finding a human must decide.
func (a *run) ask(rule, reason string) {
	a.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: 0.6, Action: toolwall.Ask, Reason: reason})
}

// quote renders a command for a reason, shortened to 120 bytes.
func quote(c *shell.Command) string {
	s := c.String()
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return "`" + s + "`"
}

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
// delete of it loses nothing (issue 7 §3): the existence oracle says so,
// and nothing earlier in the script could have put data there (a move
// into it, a program not in the catalog naming a path under it, a
// command known only at run time). Without an oracle (toolwall eval) it
// is false.
func (a *run) absent(e *env, t target) bool {
	if a.exists == nil || e != &a.env || t.dynamic || t.base == "" {
		return false
	}
	if ok, known := a.exists(t.base); ok || !known {
		return false
	}
	for _, l := range a.env.links {
		if !l.sym && under(l.from, t.base) {
			return false
		}
	}
	for _, d := range a.script.Commands[:min(a.cur, len(a.script.Commands))] {
		if d.Inv == nil && len(d.Args) > 0 {
			return false
		}
		moves := false
		for _, x := range d.Effects {
			moves = moves || x.Kind == shell.Moves
		}
		unknown := d.Inv != nil && d.Inv.Program() == nil
		if !moves && !unknown {
			continue
		}
		for _, x := range d.Effects {
			if (x.Kind == shell.Writes || x.Kind == shell.Links) && (x.Path == "" || under(x.Path, t.base)) {
				return false
			}
		}
		if unknown {
			for _, w := range d.Args[1:] {
				if w.Dynamic {
					return false
				}
				if strings.HasPrefix(w.Value, "-") {
					continue
				}
				if p := a.env.abs(w.Value, d.Cwd); p == "" || under(p, t.base) {
					return false
				}
			}
		}
	}
	return true
}
