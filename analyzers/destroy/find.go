package destroy

import (
	"path"
	"regexp"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// findSelective are find tests that pick files by what they are, so an
// action behind them is a cleanup rather than a wipe, with the number of
// arguments each takes (-newerXY is handled by prefix). -type, -maxdepth
// and -mindepth are deliberately absent: "find . -type f -delete" still
// deletes every file.
var findSelective = map[string]int{
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1,
	"-iwholename": 1, "-regex": 1, "-iregex": 1, "-lname": 1, "-ilname": 1,
	"-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1,
	"-newer": 1, "-anewer": 1, "-cnewer": 1, "-size": 1, "-user": 1,
	"-group": 1, "-uid": 1, "-gid": 1, "-perm": 1, "-links": 1, "-inum": 1,
	"-samefile": 1, "-used": 1, "-empty": 0, "-nouser": 0, "-nogroup": 0,
}

// findArg1 are find primaries that take one argument.
var findArg1 = map[string]bool{
	"-type": true, "-xtype": true, "-maxdepth": true, "-mindepth": true,
	"-fstype": true, "-printf": true, "-fprint": true, "-fprint0": true,
	"-fls": true, "-regextype": true, "-context": true,
}

// deleters are programs that destroy the files they are given; truncate
// destroys their contents ("find ~ -exec truncate -s0 {} +").
var deleters = map[string]bool{"rm": true, "unlink": true, "shred": true, "srm": true, "truncate": true, "rimraf": true}

// permChangers are programs that change ownership or mode.
var permChangers = map[string]bool{"chmod": true, "chown": true, "chgrp": true}

// findNode is what one find sub-expression does. sel: whenever it is true,
// a selective test passed. del, perm, exec: it can run that kind of action
// on a path no selective test picked. anyDel: it holds a delete action at
// all. gitSel: a positive name or path test matches ".git"; gitDel: a
// delete runs on what such a test picked ("find . -name .git -exec rm -rf
// {} +").
type findNode struct{ sel, del, perm, exec, anyDel, gitSel, gitDel bool }

// findExpr is a recursive-descent reader of a find expression
// (or: and ("-o" and)*; and: unary ("-a"? unary)*; unary: "!" unary |
// "(" or ")" | primary). starts are the start paths as written, for
// matching -path patterns.
type findExpr struct {
	toks            []shell.Word
	starts          []string
	i, depth        int
	hasDel, hasPerm bool
}

func (f *findExpr) peek() string {
	if f.i < len(f.toks) && !f.toks[f.i].Dynamic {
		return f.toks[f.i].Value
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
	p := f.peek()
	f.i++
	switch p {
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
	case "-delete":
		f.hasDel = true
		return findNode{del: true, anyDel: true}
	case "-exec", "-execdir", "-ok", "-okdir":
		return f.exec()
	}
	if nargs, ok := findSelective[p]; ok || strings.HasPrefix(p, "-newer") {
		if !ok {
			nargs = 1
		}
		var n findNode
		if nargs == 1 && f.i < len(f.toks) {
			n = f.pattern(p, f.toks[f.i])
		} else {
			n.sel = true
		}
		f.i += nargs
		return n
	}
	switch {
	case findArg1[p]:
		f.i++
	case p == "-fprintf":
		f.i += 2
	}
	return findNode{}
}

// exec reads "-exec cmd args… ;" (or "{} +") after the keyword.
func (f *findExpr) exec() findNode {
	n := findNode{exec: true}
	// A relative program path ("./truncate") is the user's own script.
	if f.i < len(f.toks) && !f.toks[f.i].Dynamic && !ownScript(f.toks[f.i].Value) {
		prog := strings.ToLower(path.Base(f.toks[f.i].Value))
		if deleters[prog] {
			n.del, n.anyDel, f.hasDel = true, true, true
		}
		if permChangers[prog] {
			n.perm, f.hasPerm = true, true
		}
	}
	for ; f.i < len(f.toks); f.i++ {
		v := f.toks[f.i].Value
		if v == ";" || (v == "+" && f.i > 0 && strings.Contains(f.toks[f.i-1].Raw, "{}")) {
			f.i++
			break
		}
	}
	return n
}

// ownScript reports whether a program word is a relative path ("./x",
// "bin/x"): a script of the project, not the system tool of that name.
func ownScript(v string) bool { return strings.Contains(v, "/") && !strings.HasPrefix(v, "/") }

// Name and path tests whose pattern can pick everything or .git.
var (
	findNameTests = map[string]bool{"-name": true, "-iname": true}
	findPathTests = map[string]bool{"-path": true, "-ipath": true, "-wholename": true, "-iwholename": true}
	findRegexTest = map[string]bool{"-regex": true, "-iregex": true}
)

// pattern reads a test with one argument. A name, path or regex pattern
// that matches every probe name selects nothing ("-name '*'", "-regex
// '.*'"); one that matches .git (under a start path, for -path and
// -regex) sets gitSel. A dynamic pattern counts as selective.
func (f *findExpr) pattern(test string, w shell.Word) findNode {
	n := findNode{sel: true}
	if w.Dynamic || !(findNameTests[test] || findPathTests[test] || findRegexTest[test]) {
		return n
	}
	fold := strings.HasPrefix(test, "-i")
	pat := w.Value
	if fold {
		pat = strings.ToLower(pat)
	}
	var match func(name string) bool
	switch {
	case findNameTests[test]:
		match = func(p string) bool { ok, err := path.Match(pat, path.Base(p)); return ok && err == nil }
	case findPathTests[test]:
		// find matches -path like fnmatch without FNM_PATHNAME: "*"
		// also matches "/".
		slashless := strings.ReplaceAll(pat, "/", "\x00")
		match = func(p string) bool {
			ok, err := path.Match(slashless, strings.ReplaceAll(p, "/", "\x00"))
			return ok && err == nil
		}
	default:
		re, err := regexp.Compile("^(?:" + pat + ")$")
		if err != nil {
			return n
		}
		match = re.MatchString
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
		for _, probe := range []string{"x", ".x", "x.y", "X-1", "x/y", ".x/y.z"} {
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

// splitFind returns find's start paths and expression tokens, skipping the
// leading options -H -L -P -D x -Ox (GNU) and -E -X -d -s -x, -f path (BSD).
func splitFind(args []shell.Word) (starts, expr []shell.Word) {
	i := 0
	for opts := true; opts && i < len(args) && !args[i].Dynamic; {
		v := args[i].Value
		switch {
		case v == "-H" || v == "-L" || v == "-P" || v == "-E" || v == "-X" || v == "-d" || v == "-s" || v == "-x" || v == "--":
			i++
		case v == "-D" || v == "-O":
			i += 2
		case strings.HasPrefix(v, "-O") || strings.HasPrefix(v, "-D"):
			i++
		case v == "-f" && i+1 < len(args):
			starts = append(starts, args[i+1])
			i += 2
		default:
			opts = false
		}
	}
	for i < len(args) {
		w := args[i]
		if !w.Dynamic && (strings.HasPrefix(w.Value, "-") || w.Value == "(" || w.Value == "!" || w.Value == ",") {
			break
		}
		starts = append(starts, w)
		i++
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Raw: ".", Value: ".", Prefix: "."}}
	}
	return starts, args[min(i, len(args)):]
}

// find checks a find command: what it deletes or re-permissions, from
// where, and whether a selective test narrows it (seed 004 extended to
// find; spec c106–c115, c135–c136, c278–c282).
func (a *run) find(c *shell.Command, args []shell.Word) {
	starts, toks := splitFind(args[1:])
	f := &findExpr{toks: toks}
	for _, s := range starts {
		if !s.Dynamic {
			f.starts = append(f.starts, s.Value)
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
	fedDel, fedPerm, piped, pipedPerm := a.fedFrom(c)
	deleting := f.hasDel || fedDel || piped
	broadDel := (f.hasDel && root.del) || (fedDel && root.exec) || (piped && !root.sel)
	perming := f.hasPerm || fedPerm || pipedPerm
	broadPerm := (f.hasPerm && root.perm) || (fedPerm && root.exec) || (pipedPerm && !root.sel)
	if !deleting && !perming {
		return
	}
	for _, s := range starts {
		t := a.env.resolve(s, c.Cwd)
		if deleting {
			a.tagDelete(t)
		}
		if a.env.root {
			if deleting && broadDel {
				a.rootDelete(c, t, "")
			}
			continue
		}
		if t.dynamic {
			if deleting && broadDel && !a.env.pinned(s, c.Cwd) {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: it deletes under "+s.Raw+
					", a path only known at run time. Write the literal path.")
			}
			continue
		}
		cls := a.env.classify(t)
		broad := cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
		switch {
		case deleting && broad:
			a.deny("find.delete-broad-root", quote(c)+" was refused: it deletes files under "+a.env.describe(t, cls)+
				", where no name filter makes a mistake recoverable. Start find from the directory you mean (inside the project or a temp directory).")
		case deleting && broadDel:
			a.judgeDelete(c, t, quote(c))
		case root.gitDel && cls == clsProject:
			a.deny("rm.project-folder", quote(c)+" was refused: its name test picks the project's .git directory ("+
				a.env.project+"/.git) and deletes it, and no commit can be restored after that. "+
				"Exclude .git (-path ./.git -prune -o …) or start find in the subdirectory you mean.")
		}
		if perming && broadPerm && (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base) {
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes ownership or permissions of every file under "+
				a.env.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. Change only the files you mean.")
		}
	}
}

// fedFrom reports whether commands in the script delete or re-permission
// what find c yields: through its -exec tail (also inside sh -c bodies), or
// through "find … | xargs rm" (piped) and "find … | xargs chmod"
// (pipedPerm).
func (a *run) fedFrom(c *shell.Command) (del, perm, piped, pipedPerm bool) {
	for _, d := range a.script.Commands {
		n, _ := name(d)
		if !deleters[n] && !permChangers[n] || ownScript(d.Arg(0)) {
			continue
		}
		for p := d.Parent; p != nil; p = p.Parent {
			if p == c {
				del = del || deleters[n]
				perm = perm || permChangers[n]
			}
		}
		if a.fedByFind(d) == c {
			piped = piped || deleters[n]
			pipedPerm = pipedPerm || permChangers[n]
		}
	}
	return del, perm, piped, pipedPerm
}
