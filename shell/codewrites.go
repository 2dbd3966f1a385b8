package shell

import (
	"slices"
	"strings"
)

// This file finds the files an inline program opens for writing, so that
// `python3 -c 'open("/home/u/.bashrc","a").write(…)'` is judged as
// `echo … >> /home/u/.bashrc` is: the command gets a Writes or Appends
// effect on the path, and every analyzer that judges writes (persistence
// places, toolwall's own files, keys) sees it. Like the rest of the code
// reading it is a reading of tokens: a path built at run time beyond the
// forms below is not seen.

// MaxCodeWrites bounds the distinct files one inline program may be
// seen to write; a program past it is refused as too large to check
// (shell.limit) rather than judged on some of its writes.
const MaxCodeWrites = 64

// codeWrite is a file a program writes: its path as a literal
// (runtimeHole for what is only known at run time), below the home
// directory when home is set (then path is "" or starts with "/"), and
// whether it appends.
type codeWrite struct {
	path    lit
	home    bool
	appends bool
	// argv: the path is one of the program's own arguments
	// (sys.argv[1], ARGV[0], process.argv[2], $ARGV[0]): each argument
	// the command gives the program is written.
	argv bool
}

// writes returns the files the program opens for writing, creates or
// copies onto, with a path whose start is known: open calls with a
// writing mode or flags (Python open/io.open/os.open and pathlib's
// write_text, write_bytes, open, rename, symlink_to; Node fs writeFile,
// appendFile, createWriteStream, openSync; Ruby File.write, File.open,
// Kernel#open; Perl open and sysopen; PHP file_put_contents, fopen,
// SplFileObject) and the destinations of copies and moves (shutil,
// os.rename, fs.copyFileSync, FileUtils, File::Copy, PHP copy). A path
// is read by pathOf: literals, names bound to expressions, joins, the
// home through expanduser and its kin, the program's own arguments.
// testdata/codewrites.tsv holds the cases.
func (p *program) writes() []codeWrite {
	var out []codeWrite
	t := p.toks
	p.bindings()
	for i := 0; i+1 < len(t); i++ {
		if t[i].kind != tokIdent || !writer(strings.ToLower(t[i].text)) {
			continue
		}
		var args [][]token
		switch {
		case t[i+1].text == "(" && t[i+1].kind == tokPunct:
			args = splitArgs(t[i+2 : closeOf(t, i+1)])
		case p.l == langPerl && t[i].text == "open":
			// open my $fh, '>>', $path or die: the arguments up to the
			// end of the statement or an or/||.
			end := i + 1
			for end < len(t) && !bareEnd(t[end]) && t[end].text != "|" {
				end = closeOf(t, end) + 1
			}
			args = splitArgs(t[i+1 : min(end, len(t))])
		default:
			continue
		}
		name := t[i].text
		method := i > 0 && t[i-1].kind == tokPunct && (t[i-1].text == "." || t[i-1].text == ":" || t[i-1].text == ">")
		switch p.l {
		case langPython:
			switch {
			case name == "open" && method && p.qualifier(i) == "os":
				// os.open(path, os.O_WRONLY | os.O_APPEND | …)
				if len(args) > 1 {
					if m, ok := flagMode(args[1]); ok {
						out = p.addWrite(out, args[0], m, "wa")
					}
				}
			case name == "open" && !method || (name == "open" || name == "FileIO") && (p.qualifier(i) == "io" || p.qualifier(i) == "codecs" || p.qualifier(i) == "builtins"):
				if path, ok := p.arg(args, 0, "file"); ok {
					if m, ok := p.mode(args, 1, "mode"); ok {
						out = p.addWrite(out, path, m, "wax+")
					}
				}
			case method && (name == "write_text" || name == "write_bytes" || name == "open"):
				if v, home, ok := p.pathlibOf(i - 1); ok {
					m := "w"
					if name == "open" {
						if m, ok = p.mode(args, 0, "mode"); !ok {
							continue
						}
					}
					if strings.ContainsAny(m, "wax+") {
						out = append(out, codeWrite{path: v, home: home, appends: strings.Contains(m, "a")})
					}
				}
			case name == "copy" || name == "copy2" || name == "copyfile" || name == "move" || name == "rename" || name == "replace" || name == "symlink" || name == "link":
				// shutil.copy(src, dst), os.rename(src, dst), …: dst (a
				// directory: dst/<src's name>); pathlib's
				// Path(src).rename(dst): dst.
				switch q := p.qualifier(i); {
				case (q == "shutil" || q == "os") && len(args) > 1:
					out = p.intoDir(out, args[0], args[1])
				case method && (name == "rename" || name == "replace") && len(args) == 1:
					out = p.addWrite(out, args[0], "w", "w")
				}
			case method && (name == "symlink_to" || name == "hardlink_to"):
				if v, home, ok := p.pathlibOf(i - 1); ok {
					out = append(out, codeWrite{path: v, home: home})
				}
			}
		case langNode:
			switch name {
			case "writeFile", "writeFileSync", "createWriteStream":
				if len(args) > 0 {
					out = p.addWrite(out, args[0], "w", "w")
				}
			case "appendFile", "appendFileSync":
				if len(args) > 0 {
					out = p.addWrite(out, args[0], "a", "a")
				}
			case "open", "openSync":
				// fs.openSync(path, 'a' | 'w' | 'r+' …)
				if method && len(args) > 1 {
					if m, ok := p.mode(args, 1, ""); ok {
						out = p.addWrite(out, args[0], m, "wa+")
					}
				}
			case "copyFile", "copyFileSync", "rename", "renameSync", "cp", "cpSync", "symlink", "symlinkSync":
				if method && len(args) > 1 {
					out = p.addWrite(out, args[1], "w", "w")
				}
			}
		case langRuby:
			q := p.qualifier(i)
			switch {
			case !method && name == "open" && len(args) > 1:
				// Kernel#open(path, mode)
				if m, ok := p.mode(args, 1, "mode"); ok {
					out = p.addWrite(out, args[0], m, "wa+")
				}
			case !method:
			case (q == "File" || q == "IO") && (name == "write" || name == "binwrite"):
				if len(args) > 0 {
					out = p.addWrite(out, args[0], "w", "w")
				}
			case (q == "File" || q == "IO") && (name == "open" || name == "new"):
				if len(args) > 1 {
					if m, ok := p.mode(args, 1, "mode"); ok {
						out = p.addWrite(out, args[0], m, "wa+")
					} else if m, ok := flagMode(args[1]); ok {
						out = p.addWrite(out, args[0], m, "wa") // File::WRONLY | File::APPEND
					}
				}
			case q == "FileUtils" && (name == "cp" || name == "copy" || name == "mv" || name == "move" || name == "ln_s" || name == "install"):
				if len(args) > 1 {
					out = p.addWrite(out, args[1], "w", "w")
				}
			}
		case langPerl:
			if method {
				continue
			}
			if name == "copy" || name == "move" {
				// File::Copy's copy($src, $dst) and move.
				if len(args) > 1 {
					out = p.addWrite(out, args[1], "w", "w")
				}
				continue
			}
			if name == "sysopen" {
				// sysopen(FH, path, O_WRONLY | O_APPEND …)
				if len(args) > 2 {
					if m, ok := flagMode(args[2]); ok {
						out = p.addWrite(out, args[1], m, "wa")
					}
				}
				continue
			}
			if name != "open" || len(args) < 2 {
				continue
			}
			m := p.expr(args[1])
			switch {
			case len(args) >= 3 && !m.dyn:
				mode := strings.TrimSpace(m.text)
				if strings.HasPrefix(mode, ">") || strings.HasPrefix(mode, "+") {
					out = p.addWrite(out, args[2], mode, ">+")
				}
			case len(args) == 2 && strings.HasPrefix(strings.TrimSpace(m.text), ">"):
				// Two-argument open: the mode leads the path.
				mode := ">"
				rest := strings.TrimSpace(m.text)[1:]
				if strings.HasPrefix(rest, ">") {
					mode, rest = ">>", rest[1:]
				}
				out = append(out, codeWrite{path: lit{strings.TrimSpace(rest), m.dyn}, appends: mode == ">>"})
			}
		case langPHP:
			switch strings.ToLower(name) {
			case "file_put_contents":
				if len(args) > 0 {
					m := "w"
					if len(args) > 2 && containsIdent(args[2], "FILE_APPEND") {
						m = "a"
					}
					out = p.addWrite(out, args[0], m, "wa")
				}
			case "fopen":
				if len(args) > 1 {
					if m, ok := p.mode(args, 1, ""); ok {
						out = p.addWrite(out, args[0], m, "waxc+")
					}
				}
			case "copy", "rename", "symlink":
				if len(args) > 1 {
					out = p.addWrite(out, args[1], "w", "w")
				}
			case "splfileobject":
				// new SplFileObject(path, mode)
				if len(args) > 1 {
					if m, ok := p.mode(args, 1, ""); ok {
						out = p.addWrite(out, args[0], m, "waxc+")
					}
				}
			}
		}
	}
	return distinct(out)
}

// distinct drops repeated writes (the same path, place and mode).
func distinct(ws []codeWrite) []codeWrite {
	var out []codeWrite
	for _, w := range ws {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
		if len(out) > MaxCodeWrites {
			break
		}
	}
	return out
}

// writer reports the names writes looks at (lower case), so that it
// splits the arguments of no other call. A switch, not a map: nothing is
// built when the hook starts.
func writer(name string) bool {
	switch name {
	case "open", "write_text", "write_bytes", "writefile", "writefilesync",
		"createwritestream", "appendfile", "appendfilesync", "write", "binwrite",
		"new", "file_put_contents", "fopen", "opensync",
		"copy", "copy2", "copyfile", "move", "rename", "replace", "symlink",
		"copyfilesync", "renamesync", "cp", "cpsync", "symlinksync",
		"mv", "ln_s", "install", "fileio", "link", "symlink_to", "hardlink_to",
		"sysopen", "splfileobject":
		return true
	}
	return false
}

// bindings fills p.binds from the program's assignments to a name:
// Python, Ruby and JavaScript name = … (also after const, let, var),
// Perl my $name = … and PHP $name = …, each bound expression read as far
// as an expression goes (operands joined by + / % . and calls, indexes
// and attributes after them): the tokens carry no line ends.
func (p *program) bindings() {
	t := p.toks
	for i := 0; i+2 < len(t); i++ {
		if t[i].kind != tokIdent || t[i+1].kind != tokPunct || t[i+1].text != "=" || t[i+2].kind == tokPunct && t[i+2].text == "=" {
			continue
		}
		if i > 0 && t[i-1].kind == tokPunct && (t[i-1].text == "." || t[i-1].text == "=" || t[i-1].text == "!" || t[i-1].text == "<" || t[i-1].text == ">") {
			continue // an attribute (a.b = …) or a comparison
		}
		end := exprEnd(t, i+2)
		if end == i+2 {
			continue
		}
		if p.binds == nil {
			p.binds = map[string][][2]int{}
		}
		p.binds[t[i].text] = append(p.binds[t[i].text], [2]int{i + 2, end})
	}
}

// exprEnd returns the index just past the expression that starts at
// t[start]: operands (names, literals, bracketed groups, each with the
// calls, indexes and attributes after it) joined by + - * / % and .
func exprEnd(t []token, start int) int {
	j := start
	for j < len(t) {
		switch {
		case t[j].kind == tokString || t[j].kind == tokIdent || t[j].kind == tokTmpl:
			j++
		case t[j].span > 0:
			j = closeOf(t, j) + 1
		default:
			return j
		}
		for j < len(t) {
			switch {
			case t[j].span > 0 && (t[j].text == "(" || t[j].text == "["):
				j = closeOf(t, j) + 1
			case t[j].kind == tokPunct && (t[j].text == "." || t[j].text == ">") && j+1 < len(t) && t[j+1].kind == tokIdent:
				j += 2 // a.b, $x->y
			case t[j].kind == tokString && t[j-1].kind == tokString:
				j++ // Python's adjacent literals
			default:
				goto operator
			}
		}
	operator:
		if j < len(t) && t[j].kind == tokPunct && len(t[j].text) == 1 && strings.Contains("+-*/%.", t[j].text) {
			j++
			continue
		}
		return j
	}
	return j
}

// bound resolves a name used as a path: what its bindings evaluate to
// (pathOf), one value when they agree, else their common start.
func (p *program) bound(name string) (lit, bool, bool) {
	bs := p.binds[name]
	if len(bs) == 0 || p.resolving > 8 {
		return lit{}, false, false
	}
	p.resolving++
	defer func() { p.resolving-- }()
	var v lit
	var home bool
	for k, b := range bs {
		bv, bh := p.pathOf(p.toks[b[0]:b[1]])
		if k == 0 {
			v, home = bv, bh
			continue
		}
		if bv != v || bh != home {
			v = lit{commonPrefix(v.text, bv.text) + runtimeHole, true}
			home = home && bh
		}
	}
	return v, home, true
}

// arg returns the argument at positional index at, else the keyword
// argument kw (Python file=, path=).
func (p *program) arg(args [][]token, at int, kw string) ([]token, bool) {
	pos := 0
	for _, a := range args {
		if len(a) >= 3 && a[0].kind == tokIdent && (a[1].text == "=" || a[1].text == ":") && a[2].text != "=" {
			if a[0].text == kw {
				return a[2:], true
			}
			continue
		}
		if pos == at {
			return a, true
		}
		pos++
	}
	return nil, false
}

// mode returns the mode argument of a call: the positional argument at
// index at, else the keyword argument kw (Python mode=, Ruby mode:); ok
// is false when it is absent (the default mode reads) or not a literal.
func (p *program) mode(args [][]token, at int, kw string) (string, bool) {
	for _, a := range args {
		if kw != "" && len(a) >= 3 && a[0].kind == tokIdent && a[0].text == kw && (a[1].text == "=" || a[1].text == ":") {
			m := p.expr(a[2:])
			return m.text, !m.dyn
		}
	}
	pos := 0
	for _, a := range args {
		if len(a) >= 2 && a[0].kind == tokIdent && (a[1].text == "=" || a[1].text == ":") {
			continue // a keyword argument
		}
		if pos == at {
			if name, ok := varName(a); ok && len(p.binds[name]) == 1 {
				b := p.binds[name][0] // m = "a"; open(p, m)
				a = p.toks[b[0]:b[1]]
			}
			m := p.expr(a)
			return m.text, !m.dyn
		}
		pos++
	}
	return "", false
}

// intoDir appends the write of a copy or move of src to dst: dst, or
// dst/<src's name> when dst names a directory (ends in "/").
func (p *program) intoDir(out []codeWrite, src, dst []token) []codeWrite {
	v, home := p.pathOf(dst)
	if strings.HasSuffix(v.text, "/") {
		sv, _ := p.pathOf(src)
		base := sv.text[strings.LastIndexByte(sv.text, '/')+1:]
		v.text, v.dyn = v.text+base, v.dyn || sv.dyn
	}
	return append(out, codeWrite{path: v, home: home})
}

// addWrite appends the write of path (argument tokens) when mode holds
// one of the letters of writing.
func (p *program) addWrite(out []codeWrite, path []token, mode, writing string) []codeWrite {
	if !strings.ContainsAny(mode, writing) {
		return out
	}
	v, home := p.pathOf(path)
	argv := containsIdent(path, "argv") || containsIdent(path, "ARGV")
	return append(out, codeWrite{path: v, home: home, argv: argv, appends: strings.Contains(mode, "a") || strings.HasPrefix(mode, ">>")})
}

// pathOf evaluates a path argument: a string expression; home is set
// when it starts at the home directory (then v is what follows it).
// Python, Node, Ruby, Perl and PHP open "~/x" as written, a directory
// named "~": only the forms below reach the home.
func (p *program) pathOf(a []token) (v lit, home bool) {
	n := len(a)
	if n >= 3 && a[n-1].text == ")" {
		for j := 0; j+1 < n; j++ {
			if a[j].span > 0 {
				j = closeOf(a, j) // only the argument's own level: linear in all
				continue
			}
			if a[j].kind != tokIdent || a[j+1].text != "(" || closeOf(a, j+1) != n-1 {
				continue
			}
			switch a[j].text {
			case "expanduser", "expand_path":
				// os.path.expanduser("~/x"), File.expand_path("~/x").
				return tilde(p.expr(a[j+2 : n-1]))
			case "expandvars":
				// os.path.expandvars("$HOME/x"), "${HOME}/x".
				v := p.expr(a[j+2 : n-1])
				for _, h := range []string{"$HOME", "${HOME}"} {
					if rest, ok := strings.CutPrefix(v.text, h); ok && (rest == "" || rest[0] == '/') {
						return lit{rest, v.dyn}, true
					}
				}
				return lit{runtimeHole, true}, false
			case "join", "resolve":
				// os.path.join(os.path.expanduser("~"), ".bashrc"),
				// path.join(os.homedir(), ".bashrc"), path.resolve(…).
				if j == 0 || a[j-1].text != "." {
					continue
				}
				var parts []string
				for k, arg := range splitArgs(a[j+2 : n-1]) {
					part, h := p.pathOf(arg)
					switch {
					case k == 0 && h:
						home = true
					case k == 0 && homeStart(arg):
						home, part = true, lit{"", false}
					}
					if k > 0 || part.text != "" {
						parts = append(parts, part.text)
					}
					v.dyn = v.dyn || part.dyn
				}
				v.text = strings.Join(parts, "/")
				if home && v.text != "" && !strings.HasPrefix(v.text, "/") {
					v.text = "/" + v.text
				}
				return v, home
			}
		}
	}
	if n >= 2 && a[0].text == "(" && closeOf(a, 0) == n-1 {
		return p.pathOf(a[1 : n-1]) // ("/x")
	}
	if p.l == langPython {
		if v, home, ok := p.slashJoin(a); ok {
			return v, home
		}
	}
	if name, ok := varName(a); ok {
		if v, home, ok := p.bound(name); ok {
			return v, home
		}
	}
	if n > 0 && a[n-1].text == ")" && p.l == langPython {
		// Path("~/.bashrc").expanduser(), Path("/x").joinpath("y"): a
		// pathlib path as the argument.
		if at, ok := p.offset(a); ok {
			if v, home, ok := p.pathlibOf(at + n); ok {
				return v, home
			}
		}
	}
	v = p.expr(a)
	if homeStart(a) && strings.HasPrefix(v.text, runtimeHole) {
		// os.environ["HOME"] + "/.bashrc", os.homedir() + "/.bashrc".
		v.text = strings.TrimPrefix(v.text, runtimeHole)
		return lit{v.text, strings.Contains(v.text, runtimeHole)}, true
	}
	return v, false
}

// slashJoin reads pathlib's / operator: Path.home() / ".bashrc",
// Path("/home/u") / ".bashrc", h / ".bashrc" with h bound to a path; the
// first operand as a path, the others as names below it.
func (p *program) slashJoin(a []token) (lit, bool, bool) {
	var parts [][]token
	start := 0
	for j := 0; j < len(a); j++ {
		if a[j].span > 0 {
			j = closeOf(a, j)
			continue
		}
		if a[j].kind == tokPunct && a[j].text == "/" {
			parts, start = append(parts, a[start:j]), j+1
		}
	}
	if len(parts) == 0 {
		return lit{}, false, false
	}
	parts = append(parts, a[start:])
	first := parts[0]
	var v lit
	home := false
	switch m := len(first); {
	case m >= 3 && first[m-1].text == ")" && first[m-2].text == "(" && first[m-3].text == "home":
		home = true // Path.home()
	case m >= 2 && first[m-1].text == ")" && first[0].kind == tokIdent && (first[0].text == "Path" || first[0].text == "pathlib" || first[0].text == "PosixPath"):
		open := m - 1
		for open > 0 && !(first[open].text == "(" && closeOf(first, open) == m-1) {
			open--
		}
		v, home = p.pathOf(first[open+1 : m-1]) // Path(x)
	default:
		v, home = p.pathOf(first)
	}
	for _, part := range parts[1:] {
		pv := p.expr(part)
		v.text, v.dyn = strings.TrimSuffix(v.text, "/")+"/"+pv.text, v.dyn || pv.dyn
	}
	return v, home, true
}

// offset returns where a, a part of the program's tokens, starts in them.
func (p *program) offset(a []token) (int, bool) {
	at := cap(p.toks) - cap(a)
	if len(a) == 0 || at < 0 || at+len(a) > len(p.toks) || &p.toks[at] != &a[0] {
		return 0, false
	}
	return at, true
}

// varName returns the name an argument is when it is one variable: a
// name, or Perl's and PHP's $name.
func varName(a []token) (string, bool) {
	switch {
	case len(a) == 1 && a[0].kind == tokIdent:
		return a[0].text, true
	case len(a) == 2 && a[0].kind == tokPunct && a[0].text == "$" && a[1].kind == tokIdent:
		return a[1].text, true
	}
	return "", false
}

// tilde reads a literal the way expanduser does: "~" and "~/…" are the
// home directory.
func tilde(v lit) (lit, bool) {
	if v.text == "~" || strings.HasPrefix(v.text, "~/") {
		return lit{v.text[1:], v.dyn}, true
	}
	return v, false
}

// homeStart reports an expression whose first operand is the home
// directory: os.homedir(), Path.home(), os.environ["HOME"],
// os.getenv("HOME"), $ENV{HOME}, getenv('HOME').
func homeStart(a []token) bool {
	for j := 0; j < len(a); j++ {
		x := a[j]
		switch {
		case x.kind == tokIdent && (x.text == "homedir" || x.text == "home" || x.text == "HOME" || x.text == "getenv" || x.text == "environ" || x.text == "ENV"):
			if x.text == "homedir" || x.text == "home" || x.text == "HOME" {
				return true
			}
			// getenv("HOME"), environ["HOME"], $ENV{HOME}: the name
			// inside the brackets that follow.
			if j+2 < len(a) && a[j+1].span > 0 {
				inner := a[j+2 : closeOf(a, j+1)]
				return len(inner) == 1 && inner[0].text == "HOME"
			}
		case x.kind == tokString:
			return false // a literal came first
		case x.kind == tokPunct && x.text == "+":
			return false // the first operand ended
		case x.span > 0:
			j = closeOf(a, j) // a call's arguments (require('os')) are not the operand
		}
	}
	return false
}

// maxPathTokens bounds how far back pathlibOf looks for the start of
// the path a method is called on (a path is a few tokens; the bound keeps
// a program of many calls linear).
const maxPathTokens = 64

// pathlibOf returns the path of a pathlib path whose method is called at
// the "." token dot: Path("x").write_text(…), also
// Path("~/x").expanduser().write_text(…) and (Path.home() / "x").
func (p *program) pathlibOf(dot int) (v lit, home, ok bool) {
	t := p.toks
	j := dot - 1    // the ")" closing what the method is called on
	expand := false // .expanduser() was called on the path
	var suffix lit  // what .joinpath(…) calls add, in order
	for j >= 0 {
		if t[j].text != ")" {
			// p.write_text(…): the path bound to the name p.
			if t[j].kind != tokIdent || j > 0 && t[j-1].text == "." || len(p.binds[t[j].text]) == 0 || p.resolving > 8 {
				return lit{}, false, false
			}
			bs := p.binds[t[j].text]
			b := bs[len(bs)-1]
			v, home, ok := lit{}, false, false
			if len(bs) == 1 && p.toks[b[1]-1].text == ")" {
				p.resolving++
				v, home, ok = p.pathlibOf(b[1])
				p.resolving--
			}
			if !ok {
				v, home, _ = p.bound(t[j].text)
			}
			if suffix.text != "" {
				v.text, v.dyn = strings.TrimSuffix(v.text, "/")+suffix.text, v.dyn || suffix.dyn
			}
			if expand && !home {
				v, home = tilde(v)
			}
			return v, home, true
		}
		open := -1
		for k := j - 1; k >= max(0, j-maxPathTokens); k-- {
			if t[k].text == "(" && closeOf(t, k) == j {
				open = k
				break
			}
		}
		if open < 0 {
			return lit{}, false, false
		}
		join := func(v lit) lit {
			if suffix.text != "" {
				v.text, v.dyn = strings.TrimSuffix(v.text, "/")+suffix.text, v.dyn || suffix.dyn
			}
			return v
		}
		switch {
		case open == 0 || t[open-1].kind != tokIdent:
			// A parenthesized expression: (Path.home() / "x").
			inner := t[open+1 : j]
			if len(inner) > 0 && inner[0].kind == tokIdent && (inner[0].text == "Path" || inner[0].text == "pathlib") {
				v, home := p.pathOf(inner)
				return join(v), home, true
			}
			return lit{}, false, false
		case t[open-1].text == "joinpath":
			// Path(…).joinpath("a", "b"): the parts below the path.
			var add lit
			for _, part := range splitArgs(t[open+1 : j]) {
				pv, _ := p.pathOf(part)
				add.text, add.dyn = add.text+"/"+pv.text, add.dyn || pv.dyn
			}
			suffix = lit{add.text + suffix.text, add.dyn || suffix.dyn}
			if open < 2 || t[open-2].text != "." {
				return lit{}, false, false
			}
			j = open - 3
		case t[open-1].text == "home" && open >= 3 && t[open-2].text == "." && t[open-3].text == "Path" && open+1 == j:
			// Path.home()
			return join(lit{}), true, true
		case t[open-1].text == "expanduser" || t[open-1].text == "resolve" || t[open-1].text == "absolute":
			expand = expand || t[open-1].text == "expanduser"
			if open < 2 || t[open-2].text != "." {
				return lit{}, false, false
			}
			j = open - 3
		case t[open-1].text == "Path" || t[open-1].text == "PosixPath" || t[open-1].text == "PurePath":
			v, h := p.pathOf(t[open+1 : j])
			if expand && !h {
				// expanduser() on the path: "~/x" is the home's x.
				v, h = tilde(v)
			}
			return join(v), h, true
		default:
			return lit{}, false, false
		}
	}
	return lit{}, false, false
}

// flagMode reads open(2)-style flags (os.O_WRONLY | os.O_APPEND, Perl's
// O_WRONLY|O_APPEND, Ruby's File::WRONLY|File::APPEND): "a" when they
// append, "w" when they otherwise write; ok is false for flags that only
// read.
func flagMode(a []token) (mode string, ok bool) {
	for _, x := range a {
		if x.kind != tokIdent {
			continue
		}
		switch strings.TrimPrefix(x.text, "O_") {
		case "APPEND":
			return "a", true
		case "WRONLY", "RDWR", "CREAT", "TRUNC":
			mode, ok = "w", true
		}
	}
	return mode, ok
}

// containsIdent reports whether a holds the name id.
func containsIdent(a []token, id string) bool {
	for _, x := range a {
		if x.kind == tokIdent && x.text == id {
			return true
		}
	}
	return false
}

// commonPrefix is the longest start a and b share, cut before a
// runtimeHole.
func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	out, _, _ := strings.Cut(a[:n], runtimeHole)
	return out
}
