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
		Name:  "destroy",
		Rules: rules,
		Doc: "destroy reports commands that delete, overwrite or lock away data beyond recovery: " +
			"recursive rm or find -delete of /, home, system directories or the project, " +
			"chmod/chown -R on them, mv to /dev/null, fork bombs, and writes, formats or " +
			"partitioning of block devices. A project subtree that git can restore, build " +
			"output, caches and temp files may be deleted.",
		Tools: []string{toolwall.ToolBash},
		Run: func(ctx context.Context, in *analysis.Input, r *analysis.Report) {
			if in == nil || in.Script == nil {
				return
			}
			project := in.Call.Project
			if project == "" {
				project = in.Call.Cwd
			}
			a := &run{
				ctx:    ctx,
				opts:   opts,
				env:    env{home: in.Call.Home, project: project, root: in.Call.IsRoot()},
				script: in.Script,
				r:      r,
			}
			a.script1()
		},
	}
}

// run is one analysis of one script.
type run struct {
	ctx    context.Context
	opts   Options
	env    env
	script *shell.Script
	r      *analysis.Report
}

// script1 checks every command of the script, then the script as a whole.
func (a *run) script1() {
	for _, c := range a.script.Commands {
		if a.ctx.Err() != nil {
			return
		}
		a.command(c)
	}
	if !a.env.root {
		a.forkBomb()
	}
}

// command dispatches one command to its rules.
func (a *run) command(c *shell.Command) {
	n, args := name(c)
	defer func() {
		if n == "mv" || n == "ln" {
			a.recordLinks(c, n, args)
		}
	}()
	if a.env.root {
		switch n {
		case "rm":
			a.rm(c, args)
		case "find":
			a.find(c, args)
		}
		return
	}
	a.redirects(c)
	switch {
	case n == "" && len(c.Args) > 0:
		a.dynamicCommand(c)
	case n == "rm":
		a.rm(c, args)
	case n == "unlink":
		a.tagDeletes(c, args[1:])
	case n == "find":
		a.find(c, args)
	case n == "chmod" || n == "chown" || n == "chgrp":
		a.perms(c, n, args)
	case n == "setfacl" || n == "chcon" || n == "chflags" || n == "chattr":
		a.attrs(c, n, args)
	case n == "mv" || n == "cp" || n == "install":
		a.copyMove(c, n, args)
	case n == "tee":
		a.tee(c, args)
	case n == "rsync":
		a.rsync(c, args)
	case n == "fd" || n == "fdfind":
		a.fd(c, args)
	case archiveInputs(n, args) != nil:
		a.consumed(c, archiveInputs(n, args))
	case a.nodeDelete(c, n, args):
	default:
		a.disk(c, n, args)
	}
}

// finding rules and their categories.
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

// tagDeletes tags every static operand as deleted.
func (a *run) tagDeletes(c *shell.Command, words []shell.Word) {
	for _, w := range words {
		if strings.HasPrefix(w.Value, "-") && !w.Dynamic {
			continue
		}
		a.tagDelete(a.env.resolve(w, c.Cwd))
	}
}

// tagDelete records a delete effect; a dynamic target has no path.
func (a *run) tagDelete(t target) {
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
