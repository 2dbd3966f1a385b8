package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// fd checks fd (fd-find, also installed as fdfind) running a deleter or a
// permission changer on what it finds (-x/--exec, -X/--exec-batch: every
// word after the option is the command), like find -exec: from /, home or
// a system root it is denied whatever the filter; elsewhere a search
// whose pattern matches everything is judged as a recursive delete of its
// search paths.
//
// fd has no catalog entry yet: its -x takes the rest of the command line,
// which the catalog's option forms cannot say without a grammar of its
// own (see testdata/README.md). It is read as a program not in the
// catalog is: every word that is not an option an operand, the first of
// them before -x the pattern, the others the search paths. An option
// value (-e pyc, -t f) is then read as the pattern, which makes the
// search look selective: from /, home or a system root that does not
// matter, since any operand naming one is denied.
func (a *run) fd(c *shell.Command) {
	v := c.Inv
	x := -1
	for _, o := range v.Opts {
		switch o.Spelling {
		case "-x", "--exec", "-X", "--exec-batch":
			x = o.Word
		}
		if x >= 0 {
			break
		}
	}
	if x < 0 || x+1 >= len(v.Args) || v.Args[x+1].Dynamic {
		return
	}
	del, perm := handedTo(v.Args[x+1].Value)
	if !del && !perm {
		return
	}
	var ops []shell.Word
	for _, op := range v.Operands {
		if op.Word < x {
			ops = append(ops, v.Args[op.Word])
		}
	}
	selective := false
	var paths []shell.Word
	if len(ops) > 0 {
		paths = ops[1:]
		switch p := ops[0]; {
		case p.Dynamic:
			selective = true
		default:
			switch p.Value {
			case "", ".", "^", ".*", "^.*", "^.*$", "*":
			default:
				selective = true
			}
		}
	}
	if len(paths) == 0 {
		paths = []shell.Word{{Raw: ".", Value: ".", Prefix: "."}}
	}
	e := &a.env
	if c.Remote {
		e = &a.remote
	}
	// The pattern is judged as a path too when it names a broad root: an
	// option that takes a value may have made a search path look like
	// the pattern (fd --search-path ~ -e log -x rm).
	for k, s := range append(paths, ops[:min(1, len(ops))]...) {
		misread := k == len(paths)
		t := e.resolve(s, c.Cwd)
		cls := clsOther
		if !t.dynamic {
			cls = e.classify(t)
		}
		broad := cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
		if misread && (t.dynamic || !broad) {
			continue
		}
		if del {
			a.tagDelete(e, t)
		}
		switch {
		case t.dynamic:
			if del && !selective {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: it deletes under "+s.Raw+
					", a path only known at run time. Write the literal path.")
			}
		case del && broad:
			a.deny("find.delete-broad-root", quote(c)+" was refused: it deletes files under "+e.describe(t, cls)+
				", where no name filter makes a mistake recoverable. Search from the directory you mean (inside the project or a temp directory).")
		case del && !selective:
			a.judgeDelete(c, e, t, quote(c))
		case perm && (!selective || misread) && (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base):
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes ownership or permissions of every file under "+
				e.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. Change only the files you mean.")
		}
	}
}

// handedTo reports what the program a runner hands its results to does
// with them, by its catalog entry: deletes them or destroys their
// contents (its default operands are deleted, or it is shred or
// truncate), or changes their permissions or owner.
func handedTo(word string) (del, perm bool) {
	if ownScript(word) {
		return false, false
	}
	p := programs.Lookup(path.Base(word))
	if p == nil {
		return false, false
	}
	switch p.Name {
	case "shred", "truncate":
		return true, false
	case "rmdir":
		return false, false // it removes only empty directories
	}
	for _, r := range defaultOperands(p) {
		switch r {
		case programs.Delete:
			del = true
		case programs.Chmod, programs.Chown:
			perm = true
		}
	}
	return del, perm
}

// defaultOperands returns the roles of a program's operand rule that
// holds without options: its last rule without a condition.
func defaultOperands(p *programs.Program) []programs.Role {
	for k := len(p.Operands) - 1; k >= 0; k-- {
		if len(p.Operands[k].Cond) == 0 {
			return p.Operands[k].Roles
		}
	}
	return nil
}

// destructiveName reports whether a program name, as an argument of a
// command whose own program is only known at run time, makes that
// command look destructive: by its catalog entry it deletes what it is
// given or destroys its contents, or it is a disk tool (catalog
// disk.txt, dd and its kin).
func destructiveName(n string) bool {
	n = strings.ToLower(n)
	if del, _ := handedTo(n); del {
		return true
	}
	p := programs.Lookup(n)
	return p != nil && (p.File == "disk.txt" || p.Grammar == "dd")
}
