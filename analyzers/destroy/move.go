package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// moves judges the Moves effects of a command (mv's sources, trash): a
// protected tree moved onto /dev/null is thrown away (mv.to-devnull,
// c150–c152); / or a system directory moved anywhere breaks the machine
// (mv.dangerous-source).
func (a *run) moves(c *shell.Command, prog string) {
	devnull := false
	if d, ok := destOf(c.Inv); ok && !d.Dynamic {
		devnull = paths.Abs(d.Value, "/") == "/dev/null"
	}
	for _, x := range c.Effects {
		if x.Kind != shell.Moves {
			continue
		}
		t, e := a.target(c, x, prog)
		if t.dynamic {
			continue
		}
		cls := e.classify(t)
		if devnull {
			a.tagDelete(e, t)
			if cls <= clsProjectGit {
				a.deny("mv.to-devnull", quote(c)+" was refused: moving "+e.describe(t, cls)+
					" onto /dev/null throws it away with no way back. Move it to a named backup directory, or leave it in place.")
			}
			continue
		}
		if cls == clsRoot || cls == clsSystem {
			a.deny("mv.dangerous-source", quote(c)+" was refused: it moves "+e.describe(t, cls)+
				" away from where the system looks for it, which breaks the machine (the tools needed to move it back go with it). "+
				"Copy what you need instead, or move only the specific files you mean.")
		}
	}
}

// destOf returns the destination of a copy, move or link invocation: the
// value of its target-directory option, else its last operand of role
// dest or link.
func destOf(v *shell.Invocation) (shell.Word, bool) {
	if v == nil {
		return shell.Word{}, false
	}
	if ds := v.Values("target-directory"); len(ds) > 0 {
		return ds[len(ds)-1], true
	}
	if ds := v.OperandsOf(programs.Dest, programs.Link); len(ds) > 0 {
		return ds[len(ds)-1], true
	}
	return shell.Word{}, false
}

// stage tags the destination of cp, mv and install as staged (with its
// single static source, "from:/abs/src", so chain memory can follow a
// downloaded file through a rename or copy), as a system write under a
// system root, and as made executable when install -m grants execute.
func (a *run) stage(c *shell.Command, prog string) {
	if prog != "cp" && prog != "mv" && prog != "install" || c.Remote {
		return
	}
	v := c.Inv
	d, ok := destOf(v)
	srcs := v.OperandsOf(programs.Read, programs.Move)
	if !ok || d.Dynamic || len(srcs) == 0 {
		return
	}
	dest := a.env.abs(d.Value, c.Cwd)
	if dest == "" {
		return
	}
	from := ""
	if len(srcs) == 1 && !srcs[0].Dynamic && len(v.Values("target-directory")) == 0 {
		if s := a.env.abs(srcs[0].Value, c.Cwd); s != "" {
			from = "from:" + s
		}
	}
	a.r.Tag(toolwall.TagStage, dest, from)
	if a.env.systemWrite(dest) {
		a.r.Tag(toolwall.TagSystemWrite, dest, "")
	}
	if prog == "install" {
		for _, m := range v.Values("mode") {
			if !m.Dynamic && grantsExec(m.Value) {
				a.r.Tag(toolwall.TagMakeExecutable, dest, "")
			}
		}
	}
}

// recordLinks remembers the renames (mv) and symbolic links (ln -s) of c,
// so later commands of the script are judged by what their paths really
// name. When it cannot tell whether the destination is a directory, both
// readings are recorded.
func (a *run) recordLinks(c *shell.Command, prog string) {
	v := c.Inv
	if prog != "mv" && prog != "ln" || c.Remote || v == nil {
		return
	}
	if prog == "ln" && !v.Has("symbolic") {
		return
	}
	var srcs []shell.Word
	last, hasLast := shell.Word{}, false
	for _, op := range v.Operands {
		w := v.Args[op.Word]
		switch op.Role {
		case programs.Move, programs.Read:
			srcs = append(srcs, w)
		case programs.Dest, programs.Link:
			last, hasLast = w, true
		}
	}
	noTarget := v.Has("no-target-directory", "T")
	var dests []string
	dir := ""
	switch ds := v.Values("target-directory"); {
	case len(ds) > 0:
		if ds[len(ds)-1].Dynamic {
			return
		}
		dir = a.env.abs(ds[len(ds)-1].Value, c.Cwd)
	case prog == "ln" && len(srcs)+btoi(hasLast) == 1:
		// ln -s TARGET makes the link in the working directory
		if hasLast {
			srcs = []shell.Word{last}
		}
		dir = c.Cwd
	case hasLast && !last.Dynamic && len(srcs) > 0:
		dest := a.env.abs(last.Value, c.Cwd)
		if len(srcs) == 1 && !strings.HasSuffix(last.Value, "/") && !noTarget {
			dests = append(dests, dest)
		}
		if !noTarget {
			dir = dest
		}
		if noTarget {
			dests = append(dests, dest)
		}
	default:
		return
	}
	for _, w := range srcs {
		if w.Dynamic || w.Glob {
			continue
		}
		// Each reading: the new name, and the directory a relative
		// symlink target is read from.
		type reading struct{ from, linkDir string }
		var rs []reading
		for _, d := range dests {
			rs = append(rs, reading{d, path.Dir(d)})
		}
		if dir != "" && path.Base(w.Value) != "/" {
			rs = append(rs, reading{path.Join(dir, path.Base(w.Value)), dir})
		}
		for _, r := range rs {
			var to string
			if prog == "mv" || strings.HasPrefix(w.Value, "/") || v.Has("relative", "r") {
				t := a.env.resolve(w, c.Cwd)
				if t.dynamic {
					continue
				}
				to = t.abs
			} else {
				to = path.Join(r.linkDir, w.Value)
			}
			if r.from != "" && r.from != to && len(a.env.links) < maxLinks {
				a.env.links = append(a.env.links, link{from: r.from, to: to, sym: prog == "ln"})
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// abs makes a static path absolute against cwd; "" when cwd is unknown.
func (e *env) abs(v, cwd string) string {
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(cwd, "/") {
		return ""
	}
	return paths.Abs(v, cwd)
}

// systemWrite reports whether writing p writes the system: under a system
// root, except temp roots and device nodes (/dev/null is not a file).
func (e *env) systemWrite(p string) bool {
	return p != "" && e.underSystem(p) && !under(p, "/dev")
}
