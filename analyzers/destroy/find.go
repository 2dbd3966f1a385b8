package destroy

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// findNode is what one find sub-expression does. sel: whenever it is true,
// a selective test passed. del, perm, exec: it can run that kind of action
// on a path no selective test picked. anyDel: it holds a delete action at
// all. gitSel: a positive name or path test matches ".git"; gitDel: a
// delete runs on what such a test picked ("find . -name .git -exec rm -rf
// {} +").
type findNode struct{ sel, del, perm, exec, anyDel, gitSel, gitDel bool }

// findTok is one token of a find expression: an operator ("(", ")", "!",
// ",", "-a", "-o", …) or a primary as the catalog read it.
type findTok struct {
	op  string
	opt *programs.Opt
}

// findExpr is a recursive-descent reader of a find expression (or: and
// ("-o" and)*; and: unary ("-a"? unary)*; unary: "!" unary | "(" or ")" |
// primary) over the primaries the catalog's find grammar read. starts are
// the start paths as written, for matching -path patterns; tails are the
// commands of the -exec primaries, in order.
type findExpr struct {
	v               *shell.Invocation
	toks            []findTok
	starts          []string
	tails           []*shell.Command
	a               *run
	i, depth, execs int
	hasDel, hasPerm bool
}

func (f *findExpr) peek() string {
	if f.i < len(f.toks) {
		return f.toks[f.i].op
	}
	return ""
}

func (f *findExpr) or() findNode {
	n := f.and()
	for p := f.peek(); p == "-o" || p == "-or" || p == ","; p = f.peek() {
		f.i++
		m := f.and()
		n = findNode{sel: n.sel && m.sel, del: n.del || m.del, perm: n.perm || m.perm, exec: n.exec || m.exec,
			anyDel: n.anyDel || m.anyDel, gitSel: n.gitSel || m.gitSel, gitDel: n.gitDel || m.gitDel}
	}
	return n
}

func (f *findExpr) and() findNode {
	n := f.unary()
	for f.i < len(f.toks) {
		p := f.peek()
		if p == "-o" || p == "-or" || p == "," || p == ")" {
			break
		}
		if p == "-a" || p == "-and" {
			f.i++
			continue
		}
		m := f.unary()
		n = findNode{
			sel:  n.sel || m.sel,
			del:  n.del || (m.del && !n.sel),
			perm: n.perm || (m.perm && !n.sel),
			exec: n.exec || (m.exec && !n.sel),
			// A test after the action does not narrow it.
			anyDel: n.anyDel || m.anyDel,
			gitSel: n.gitSel || (m.gitSel && !n.anyDel),
			gitDel: n.gitDel || m.gitDel || (n.gitSel && m.anyDel),
		}
	}
	return n
}

func (f *findExpr) unary() findNode {
	if f.i >= len(f.toks) {
		return findNode{}
	}
	t := f.toks[f.i]
	f.i++
	switch t.op {
	case "":
	case "!", "-not":
		m := f.unary()
		return findNode{del: m.del, perm: m.perm, exec: m.exec, anyDel: m.anyDel, gitDel: m.gitDel}
	case "(":
		f.depth++
		if f.depth > 64 {
			f.i = len(f.toks)
			return findNode{del: true, perm: true, exec: true, anyDel: true}
		}
		n := f.or()
		if f.peek() == ")" {
			f.i++
		}
		f.depth--
		return n
	default:
		return findNode{}
	}
	o := t.opt
	switch {
	case o.Name == "delete":
		f.hasDel = true
		return findNode{del: true, anyDel: true}
	case o.Name == "exec":
		return f.exec(o)
	case findPattern(o.Name):
		if !o.HasValue {
			return findNode{sel: true}
		}
		return f.pattern(o.Name, f.v.Value(*o))
	case findSelective(o.Name):
		return findNode{sel: true}
	}
	return findNode{}
}

// findSelective reports whether a find test (by its catalog name) picks
// files by what they are, so that an action behind it is a cleanup
// rather than a wipe. -type, -maxdepth and -mindepth are not: "find .
// -type f -delete" still deletes every file.
func findSelective(name string) bool {
	switch name {
	case "mtime", "mmin", "atime", "amin", "ctime", "cmin", "newer", "size", "user", "group", "uid", "gid",
		"perm", "links", "inum", "used", "empty", "nouser", "nogroup":
		return true
	}
	return strings.HasPrefix(name, "newer")
}

// findPattern reports whether a find test matches a name, path or regular
// expression pattern.
func findPattern(name string) bool {
	switch name {
	case "name", "iname", "path", "ipath", "wholename", "iwholename", "regex", "iregex", "lname", "ilname":
		return true
	}
	return false
}

// exec reads an -exec/-execdir/-ok/-okdir primary: what its command
// (the reader's tail command, with what that runs in turn) does to the
// files find hands it.
func (f *findExpr) exec(o *programs.Opt) findNode {
	n := findNode{exec: true}
	if !o.HasValue {
		return n
	}
	k := f.execs
	f.execs++
	if k >= len(f.tails) {
		return n
	}
	del, perm := f.a.handles(f.tails[k])
	if del {
		n.del, n.anyDel, f.hasDel = true, true, true
	}
	if perm {
		n.perm, f.hasPerm = true, true
	}
	return n
}

// pattern reads a test with one argument. A name, path or regex pattern
// that matches every probe name selects nothing ("-name '*'", "-regex
// '.*'"); one that matches .git (under a start path, for -path and
// -regex) sets gitSel. A dynamic pattern counts as selective.
func (f *findExpr) pattern(test string, w shell.Word) findNode {
	n := findNode{sel: true}
	if w.Dynamic || test == "lname" || test == "ilname" {
		return n
	}
	fold := strings.HasPrefix(test, "i")
	pat := w.Value
	if fold {
		pat = strings.ToLower(pat)
	}
	var match func(name string) bool
	switch test {
	case "name", "iname":
		match = func(p string) bool { ok, err := path.Match(pat, path.Base(p)); return ok && err == nil }
	case "regex", "iregex":
		if len(pat) > 1024 {
			return n
		}
		re, err := regexp.Compile("^(?:" + pat + ")$")
		if err != nil {
			return n
		}
		match = re.MatchString
	default:
		// find matches -path like fnmatch without FNM_PATHNAME: "*"
		// also matches "/".
		slashless := strings.ReplaceAll(pat, "/", "\x00")
		match = func(p string) bool {
			ok, err := path.Match(slashless, strings.ReplaceAll(p, "/", "\x00"))
			return ok && err == nil
		}
	}
	starts := f.starts
	if len(starts) == 0 {
		starts = []string{"."}
	}
	all := true
	for _, s := range starts {
		s = strings.TrimRight(s, "/")
		if s == "" {
			s = "/"
		}
		if fold {
			s = strings.ToLower(s)
		}
		for _, probe := range [...]string{"x", ".x", "x.y", "X-1", "x/y", ".x/y.z"} {
			if !all {
				break // one probe it does not match decides
			}
			if fold {
				probe = strings.ToLower(probe)
			}
			if !match(strings.TrimSuffix(s, "/") + "/" + probe) {
				all = false
			}
		}
		if match(strings.TrimSuffix(s, "/") + "/.git") {
			n.gitSel = true
		}
	}
	n.sel = !all
	return n
}

// handles reports what command d does to the files it is handed:
// deletes them or destroys their contents (rm, unlink, shred, truncate,
// …), or changes their permissions or owner (chmod, chown, setfacl, …),
// counting the commands it runs in turn (find -exec sh -c 'rm "$1"'). A
// program named by a relative path ("./truncate") is the project's own
// script, not the tool.
func (a *run) handles(d *shell.Command) (del, perm bool) {
	a.within(d, func(x *shell.Command) {
		if !ownScript(x.Arg(0)) {
			xd, xp := effectsOn(x)
			del, perm = del || xd, perm || xp
		}
	})
	return del, perm
}

// effectsOn reports whether command x deletes or destroys the contents of
// files (del: it deletes or changes them and that is what its program
// does by default, see handedTo; not rmdir, nor an archiver that deletes
// what it has archived), or changes their permissions or owner (perm).
func effectsOn(x *shell.Command) (del, perm bool) {
	changes := false
	for _, e := range x.Effects {
		switch e.Kind {
		case shell.Deletes, shell.Modifies:
			changes = true
		case shell.Chmods, shell.Chowns:
			perm = true
		}
	}
	if changes && len(x.Args) > 0 && !x.Args[0].Dynamic {
		del, _ = handedTo(x.Args[0].Value)
	}
	return del, perm
}

// ownScript reports whether a program word is a relative path ("./x",
// "bin/x"): a script of the project, not the system tool of that name.
func ownScript(v string) bool { return strings.Contains(v, "/") && !strings.HasPrefix(v, "/") }

// find checks a find command: what it deletes or re-permissions, from
// where, and whether a selective test narrows it (the shell guardrail extended to
// find; spec c106–c115, c135–c136, c278–c282). Its start paths,
// primaries and -exec commands come from the catalog's find grammar and
// the reader; the expression's logic is judged here.
func (a *run) find(c *shell.Command) {
	v := c.Inv
	fedDel, fedPerm, piped, pipedPerm := a.fedFrom(c)
	if !fedDel && !fedPerm && !piped && !pipedPerm && !slices.ContainsFunc(v.Opts, func(o programs.Opt) bool { return o.Name == "delete" || o.Name == "exec" }) {
		return // nothing deletes or re-permissions what it finds: no expression to read
	}
	f := &findExpr{v: v, a: a}
	for _, op := range v.Operands {
		if w := v.Args[op.Word]; !w.Dynamic {
			f.starts = append(f.starts, w.Value)
		}
	}
	// The grammar's options and operands are in word order: walk both
	// with the words, once.
	k, j := 0, 0
	for i := 1; i < len(v.Args); i++ {
		for k < len(v.Opts) && v.Opts[k].Word < i {
			k++
		}
		for j < len(v.Operands) && v.Operands[j].Word < i {
			j++
		}
		if j < len(v.Operands) && v.Operands[j].Word == i {
			continue
		}
		if k < len(v.Opts) && v.Opts[k].Word == i {
			f.toks = append(f.toks, findTok{opt: &v.Opts[k]})
			i = max(i, v.Opts[k].End-1)
			continue
		}
		switch w := v.Args[i]; w.Value {
		case "(", ")", "!", ",", "-a", "-o", "-not", "-and", "-or":
			if !w.Dynamic {
				f.toks = append(f.toks, findTok{op: w.Value})
			}
		}
	}
	for _, d := range a.children(c) {
		if d.Via == "find -exec" {
			f.tails = append(f.tails, d)
		}
	}
	var root findNode
	for f.i < len(f.toks) {
		n := f.or()
		root = findNode{sel: root.sel || n.sel, del: root.del || n.del, perm: root.perm || n.perm, exec: root.exec || n.exec,
			gitDel: root.gitDel || n.gitDel}
		if f.i < len(f.toks) {
			f.i++ // a stray ")"
		}
	}
	deleting := f.hasDel || fedDel || piped
	broadDel := (f.hasDel && root.del) || (fedDel && root.exec) || (piped && !root.sel)
	perming := f.hasPerm || fedPerm || pipedPerm
	broadPerm := (f.hasPerm && root.perm) || (fedPerm && root.exec) || (pipedPerm && !root.sel)
	if !deleting && !perming {
		return
	}
	for _, x := range findStarts(c) {
		t, e := a.target(c, x, "find")
		s := x.Word
		if deleting {
			a.tagDelete(e, t)
		}
		if a.env.root {
			if deleting && broadDel {
				a.rootDelete(c, e, t, "")
			}
			continue
		}
		if t.dynamic {
			if deleting && broadDel && !e.pinned(s, c.Cwd) {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: it deletes under "+s.Raw+
					", a path only known at run time. Write the literal path.")
			}
			continue
		}
		cls := e.classify(t)
		broad := cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
		switch {
		case deleting && broad:
			a.deny("find.delete-broad-root", quote(c)+" was refused: it deletes files under "+e.describe(t, cls)+
				", where no name filter makes a mistake recoverable. Start find from the directory you mean (inside the project or a temp directory).")
		case deleting && broadDel:
			a.judgeDelete(c, e, t, quote(c))
		case root.gitDel && cls == clsProject:
			a.deny("rm.project-folder", quote(c)+" was refused: its name test picks the project's .git directory ("+
				e.project+"/.git) and deletes it, and no commit can be restored after that. "+
				"Exclude .git (-path ./.git -prune -o …) or start find in the subdirectory you mean.")
		}
		if perming && broadPerm && (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base) {
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes ownership or permissions of every file under "+
				e.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. Change only the files you mean.")
		}
	}
}

// findStarts returns the effects of find's start paths (deleted with
// -delete, read otherwise); "." when none is given.
func findStarts(c *shell.Command) []shell.Effect {
	var out []shell.Effect
	for _, x := range c.Effects {
		if x.From == "operand" && (x.Kind == shell.Deletes || x.Kind == shell.Reads) {
			out = append(out, x)
		}
	}
	if len(out) == 0 && len(c.Inv.Operands) == 0 {
		dot := shell.Word{Raw: ".", Value: ".", Prefix: "."}
		out = append(out, shell.Effect{Kind: shell.Reads, Word: dot, Path: c.Cwd, Remote: c.Remote})
	}
	return out
}

// fedFrom reports whether commands in the script delete or re-permission
// what find c yields: through its -exec tails (also inside sh -c bodies),
// or through "find … | xargs rm" (piped) and "find … | xargs chmod"
// (pipedPerm).
func (a *run) fedFrom(c *shell.Command) (del, perm, piped, pipedPerm bool) {
	for _, k := range a.children(c) {
		if k != c {
			kd, kp := a.handles(k)
			del, perm = del || kd, perm || kp
		}
	}
	for _, x := range a.fed[c] {
		xd, xp := a.handles(x)
		piped, pipedPerm = piped || xd, pipedPerm || xp
	}
	return del, perm, piped, pipedPerm
}
