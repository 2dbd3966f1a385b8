package shell

import (
	"strings"
)

// form says how a call's arguments make a command.
type form uint8

const (
	// formCmd: a string is shell text, a list is an argv (a list's first
	// item is shell text under shell=True); Perl and Ruby take several
	// string arguments as an argv (system("rm", "-rf", $d)).
	formCmd form = iota + 1
	// formExecv: Python os.exec*/os.spawn*/os.posix_spawn: the program is
	// the path argument (callSpec.path), its arguments the list after it
	// (execv) or the arguments after argv[0] (execl).
	formExecv
	// formArgvAll: every positional argument is one argv item
	// (asyncio.create_subprocess_exec).
	formArgvAll
	// formProgList: a program and a list of arguments (spawn("rm", […]),
	// execFile, pcntl_exec, new Deno.Command); a lone list or an object
	// holding one ({cmd: […]}) is the whole argv.
	formProgList
	// formPerlOpen: Perl open(FH, "cmd |"), open(FH, "-|", "cmd", …).
	formPerlOpen
	// formEval: the argument is program text of the program's own
	// language (Python exec, JavaScript eval, Perl string eval): a
	// literal is read for the commands it runs; text that starts a
	// statement only known at run time (exec(input())) is a command
	// built at run time.
	formEval
)

// A call table entry: the form, and whether the name needs a qualifier
// that names the module (Python run/call: subprocess.run) or the module
// to appear in the program (Node exec: child_process).
type callSpec struct {
	form form
	// module names the module that must qualify the call or be imported
	// in the program ("" when the name alone is enough).
	module string
	// bare allows a Perl/Ruby call without parentheses.
	bare bool
	// path is the index of the program path for formExecv (1 for
	// os.spawn*, after the mode).
	path int
}

// calls are the functions that run a command, per language, from each
// language's documentation: Python os, subprocess, pty, asyncio; Node.js
// child_process, Bun.spawn, Deno.Command; Perl perlfunc system, exec,
// readpipe, open; Ruby Kernel, IO.popen, Open3; PHP program execution
// functions (PHP names are case-insensitive).
var calls = [...]map[string]callSpec{
	langPython: {
		"system": {form: formCmd}, "popen": {form: formCmd}, "popen2": {form: formCmd},
		"popen3": {form: formCmd}, "popen4": {form: formCmd}, "getoutput": {form: formCmd},
		"getstatusoutput": {form: formCmd}, "check_output": {form: formCmd},
		"check_call": {form: formCmd}, "Popen": {form: formCmd}, "spawn": {form: formCmd},
		"create_subprocess_shell": {form: formCmd},
		"run":                     {form: formCmd, module: "subprocess"},
		"call":                    {form: formCmd, module: "subprocess"},
		"create_subprocess_exec":  {form: formArgvAll},
		"execl":                   {form: formExecv}, "execle": {form: formExecv}, "execlp": {form: formExecv},
		"execlpe": {form: formExecv}, "execv": {form: formExecv}, "execve": {form: formExecv},
		"execvp": {form: formExecv}, "execvpe": {form: formExecv}, "spawnl": {form: formExecv, path: 1},
		"spawnle": {form: formExecv, path: 1}, "spawnlp": {form: formExecv, path: 1}, "spawnlpe": {form: formExecv, path: 1},
		"spawnv": {form: formExecv, path: 1}, "spawnve": {form: formExecv, path: 1}, "spawnvp": {form: formExecv, path: 1},
		"spawnvpe": {form: formExecv, path: 1}, "posix_spawn": {form: formExecv}, "posix_spawnp": {form: formExecv},
		"exec": {form: formEval}, "eval": {form: formEval},
	},
	langNode: {
		"exec": {form: formCmd, module: "child_process"}, "execSync": {form: formCmd, module: "child_process"},
		"execFile": {form: formProgList, module: "child_process"}, "execFileSync": {form: formProgList, module: "child_process"},
		"spawn": {form: formProgList, module: "child_process"}, "spawnSync": {form: formProgList, module: "child_process"},
		"Command": {form: formProgList, module: "Deno"}, "run": {form: formProgList, module: "Deno"},
		"eval": {form: formEval}, "Function": {form: formEval},
		"runInThisContext": {form: formEval, module: "vm"}, "runInNewContext": {form: formEval, module: "vm"},
	},
	langPerl: {
		"system": {form: formCmd, bare: true}, "exec": {form: formCmd, bare: true},
		"readpipe": {form: formCmd, bare: true}, "open": {form: formPerlOpen},
		"eval": {form: formEval, bare: true},
	},
	langRuby: {
		"system": {form: formCmd, bare: true}, "exec": {form: formCmd, bare: true},
		"spawn": {form: formCmd, bare: true}, "popen": {form: formCmd}, "capture2": {form: formCmd},
		"capture2e": {form: formCmd}, "capture3": {form: formCmd}, "popen2": {form: formCmd},
		"popen2e": {form: formCmd}, "popen3": {form: formCmd}, "pipeline": {form: formCmd},
		"eval": {form: formEval, bare: true},
	},
	langLua: {
		"execute": {form: formCmd}, "popen": {form: formCmd},
	},
	langR: {
		"system": {form: formCmd}, "shell": {form: formCmd}, "system2": {form: formProgList},
	},
	langJulia: {},
	langAppleScript: {
		"script": {form: formCmd, bare: true}, // do shell script "…"
	},
	langPHP: {
		"system": {form: formCmd}, "exec": {form: formCmd}, "shell_exec": {form: formCmd},
		"passthru": {form: formCmd}, "popen": {form: formCmd}, "proc_open": {form: formCmd},
		"pcntl_exec": {form: formProgList},
		"eval":       {form: formEval},
	},
}

// program is the token stream of one inline program and what the reader
// learned about its imports.
type program struct {
	l    lang
	toks []token
	// binds are the expressions the program binds to each name
	// (p = "/home/u/.bashrc", rc = os.path.expanduser("~/.bashrc"),
	// p = Path.home() / ".bashrc"), in order, as token ranges of toks,
	// for the paths writes reads.
	binds map[string][][2]int
	// resolving counts the names being resolved, bounding a chain of
	// names (a = b; b = a).
	resolving int
	// modules holds the names that stand for a module ("subprocess", "sp"
	// after `import subprocess as sp`) and, for a bare name imported from
	// it, that name ("run" after `from subprocess import run`).
	modules map[string]string
	// budget is how many more tokens the reading may look at.
	budget int
	// childProcess is set when the program names Node's child_process
	// module in a string ("child_process", "node:child_process").
	childProcess bool
}

// commandsOf returns the shell text of every command the program hands to
// a shell or runs, in order, and the files it writes (see writes). Parts
// only known at run time are runtimeHole. budget bounds the tokens looked
// at (arguments of nested calls are looked at once per call); used is
// what the reading took, ok false when it ran out.
func commandsOf(l lang, src string, budget int) (out []string, writes []codeWrite, used int, ok bool) {
	p := &program{l: l, toks: lex(l, src), modules: map[string]string{}, budget: budget}
	p.budget -= len(p.toks)
	p.imports()
	for i := 0; i < len(p.toks) && p.budget >= 0; i++ {
		t := p.toks[i]
		switch {
		case t.kind == tokExec:
			out = append(out, t.text)
		case t.kind == tokIdent && l == langNode && t.text == "$" && i+1 < len(p.toks) && p.toks[i+1].kind == tokTmpl:
			// zx / Bun Shell: $`cmd` (interpolations are quoted as one word)
			out = append(out, strings.ReplaceAll(p.toks[i+1].text, runtimeHole, `"`+runtimeHole+`"`))
		case t.kind == tokIdent:
			if text, ok := p.call(i); ok {
				out = append(out, text)
			}
		}
	}
	if p.budget >= 0 {
		writes = p.writes()
	}
	return out, writes, budget - p.budget, p.budget >= 0
}

// imports records Python import aliases and whether a Node program
// names child_process.
func (p *program) imports() {
	t := p.toks
	for i := range t {
		switch t[i].kind {
		case tokString:
			if strings.TrimPrefix(t[i].text, "node:") == "child_process" {
				p.childProcess = true
			}
			continue
		case tokIdent:
		default:
			continue
		}
		switch t[i].text {
		case "import":
			if p.l != langPython || i+1 >= len(t) || i >= 2 && t[i-2].text == "from" {
				continue
			}
			for j := i + 1; j < len(t) && t[j].kind == tokIdent; {
				mod := t[j].text
				j++
				if j+1 < len(t) && t[j].text == "as" && t[j+1].kind == tokIdent {
					p.modules[t[j+1].text] = mod
					j += 2
				} else {
					p.modules[mod] = mod
				}
				if j >= len(t) || t[j].text != "," {
					break
				}
				j++
			}
		case "from":
			if p.l != langPython || i+2 >= len(t) || t[i+2].text != "import" {
				continue
			}
			mod := t[i+1].text
			for j := i + 3; j < len(t); j++ {
				switch {
				case t[j].text == "(" || t[j].text == "," || t[j].text == ")":
				case t[j].kind == tokIdent && t[j].text == "as" && j+1 < len(t):
					p.modules[t[j+1].text] = mod + "." + t[j-1].text
					j++
				case t[j].kind == tokIdent:
					p.modules[t[j].text] = mod + "." + t[j].text
				default:
					j = len(t)
				}
				if j < len(t) && t[j].kind == tokIdent && j+1 < len(t) && t[j+1].kind == tokIdent && t[j+1].text != "as" {
					break
				}
			}
		}
	}
}

// qualifier returns the module a call at i is made on: the name before
// ".", "::" or "->" resolved through the imports, "subprocess" for
// __import__('subprocess').run, or for a bare name imported from a module
// that module; "" when unqualified.
func (p *program) qualifier(i int) string {
	t := p.toks
	if i >= 2 && (t[i-1].text == "." || t[i-1].text == ":" || t[i-1].text == ">") {
		q := t[i-2]
		if q.kind == tokIdent {
			if m, ok := p.modules[q.text]; ok {
				return m
			}
			return q.text
		}
		if q.text == ")" {
			for k := i - 3; k >= 0; k-- {
				if t[k].text == "(" && k+t[k].span == i-2 {
					if k+1 < i-2 && t[k+1].kind == tokString {
						return strings.TrimPrefix(t[k+1].text, "node:")
					}
					break
				}
			}
		}
		return "?"
	}
	if m, ok := p.modules[t[i].text]; ok {
		mod, _, _ := strings.Cut(m, ".")
		return mod
	}
	return ""
}

// call returns the command of a run call at token i.
func (p *program) call(i int) (string, bool) {
	t := p.toks
	name := t[i].text
	if p.l == langPHP {
		name = strings.ToLower(name)
	}
	if p.l == langPython {
		if m, ok := p.modules[name]; ok {
			if _, fn, ok := strings.Cut(m, "."); ok {
				name = fn // from os import system as sh; sh(…)
			}
		}
	}
	spec, ok := calls[p.l][name]
	if !ok {
		return "", false
	}
	if i > 0 && t[i-1].kind == tokIdent {
		switch t[i-1].text {
		case "def", "function", "sub", "fn":
			return "", false // a definition, not a call
		}
	}
	if p.l == langAppleScript && (i < 2 || t[i-1].text != "shell" || t[i-2].text != "do") {
		return "", false // run script "…" runs AppleScript, not a shell
	}
	if spec.form == formEval && spec.module == "" && p.qualifier(i) != "" {
		return "", false // model.eval(), df.eval(…): a method, not the language's eval
	}
	if spec.module != "" {
		q := p.qualifier(i)
		switch {
		case q == spec.module:
		case p.l == langNode && spec.module == "child_process" && (q == "Bun" || p.childProcess):
		case p.l == langNode && spec.module == "Deno" && q != "Deno":
			return "", false
		default:
			return "", false
		}
	}
	var args [][]token
	switch {
	case i+1 < len(t) && t[i+1].text == "(" && t[i+1].kind == tokPunct:
		args = splitArgs(t[i+2 : closeOf(t, i+1)])
		p.budget -= closeOf(t, i+1) - i
	case spec.bare && i+1 < len(t) && (t[i+1].kind == tokString || t[i+1].kind == tokExec ||
		t[i+1].kind == tokIdent && strings.HasPrefix(t[i+1].text, "$") || t[i+1].text == "[" ||
		p.readsStdin(t[i+1:bareArgsEnd(t, i+1)])):
		end := bareArgsEnd(t, i+1)
		args = splitArgs(t[i+1 : end])
		p.budget -= end - i
	default:
		return "", false
	}
	return p.command(spec, args)
}

// bareArgsEnd returns the index after the arguments of a call written
// without parentheses whose first argument is t[i].
func bareArgsEnd(t []token, i int) int {
	for i < len(t) && !bareEnd(t[i]) {
		i = closeOf(t, i) + 1
	}
	return min(i, len(t))
}

// bareEnd reports whether t ends the arguments of a call written without
// parentheses.
func bareEnd(t token) bool {
	if t.kind == tokIdent {
		switch t.text {
		case "or", "and", "if", "unless", "while", "until", "for", "foreach", "do", "then", "end":
			return true
		}
		return false
	}
	return t.kind == tokPunct && strings.Contains(";})]|&\n", t.text)
}

// splitArgs splits tokens at top-level commas.
func splitArgs(toks []token) [][]token {
	var out [][]token
	start := 0
	for j := 0; j < len(toks); j++ {
		if toks[j].span > 0 {
			j = closeOf(toks, j)
			continue
		}
		if toks[j].kind == tokPunct && toks[j].text == "," {
			out = append(out, toks[start:j])
			start = j + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// positional drops keyword arguments (Python name=value, Ruby name:
// value), Ruby and Perl env hashes, and Node option objects, and reports
// whether one of them asked for a shell (shell=True, shell: true).
func (p *program) positional(args [][]token) (pos [][]token, shell bool) {
	for _, a := range args {
		if len(a) == 0 {
			continue
		}
		kw := len(a) >= 2 && a[0].kind == tokIdent && (a[1].text == "=" && (len(a) < 3 || a[2].text != "=") ||
			a[1].text == ":" && p.l == langRuby)
		obj := a[0].text == "{" && a[0].kind == tokPunct
		if kw || obj {
			for j := 0; j+2 < len(a); j++ {
				if a[j].kind == tokIdent && a[j].text == "shell" && (a[j+1].text == "=" || a[j+1].text == ":") {
					v := a[j+2]
					shell = v.kind == tokString || v.text == "True" || v.text == "true" || v.text == "1"
				}
			}
			if obj && p.l == langNode {
				pos = append(pos, a) // {cmd: […]} of Bun.spawn / Deno.run
			}
			continue
		}
		pos = append(pos, a)
	}
	return pos, shell
}

// command builds the shell text of one call.
func (p *program) command(spec callSpec, args [][]token) (string, bool) {
	pos, shell := p.positional(args)
	if len(pos) == 0 {
		return "", false
	}
	switch spec.form {
	case formCmd:
		if items, ok := p.list(pos[0]); ok {
			if shell && len(items) > 0 {
				return items[0].text, true
			}
			return argv(items), len(items) > 0
		}
		if len(pos) > 1 && (p.l == langPerl || p.l == langRuby) {
			return argv(p.items(pos)), true
		}
		return p.expr(pos[0]).text, true
	case formExecv:
		if len(pos) <= spec.path {
			return "", false
		}
		items := []lit{p.expr(pos[spec.path])}
		rest := pos[spec.path+1:]
		if len(rest) > 0 {
			if l, ok := p.list(rest[0]); ok {
				if len(l) > 0 {
					items = append(items, l[1:]...)
				}
				return argv(items), true
			}
			items = append(items, p.items(rest[1:])...)
		}
		return argv(items), true
	case formArgvAll:
		return argv(p.items(pos)), true
	case formProgList:
		if items, ok := p.list(pos[0]); ok {
			return argv(items), len(items) > 0
		}
		if pos[0][0].text == "{" {
			if items, ok := p.innerList(pos[0]); ok {
				return argv(items), len(items) > 0
			}
			return runtimeHole, true
		}
		items := []lit{p.expr(pos[0])}
		for _, a := range pos[1:] {
			if more, ok := p.innerList(a); ok {
				items = append(items, more...)
				break
			}
		}
		if shell {
			var parts []string
			for _, it := range items {
				parts = append(parts, it.text)
			}
			return strings.Join(parts, " "), true
		}
		return argv(items), true
	case formEval:
		code := p.expr(pos[0])
		if code.text == stdinHole {
			return evalStdin, true
		}
		if code.dyn && holeStartsStatement(code.text) {
			return runtimeHole, true
		}
		if p.resolving > 0 || p.budget <= 0 {
			return "", false
		}
		p.resolving++
		inner, _, used, _ := commandsOf(p.l, code.text, p.budget)
		p.resolving--
		p.budget -= used
		return strings.Join(inner, "\n"), len(inner) > 0
	case formPerlOpen:
		if len(pos) == 2 {
			m := p.expr(pos[1])
			v := strings.TrimSpace(m.text)
			switch {
			case strings.HasPrefix(v, "|"):
				return strings.TrimSpace(v[1:]), true
			case strings.HasSuffix(v, "|"):
				return strings.TrimSpace(v[:len(v)-1]), true
			}
			return "", false
		}
		if len(pos) >= 3 {
			if m := p.expr(pos[1]); !m.dyn && (m.text == "-|" || m.text == "|-") {
				if len(pos) == 3 {
					return p.expr(pos[2]).text, true
				}
				return argv(p.items(pos[2:])), true
			}
		}
	}
	return "", false
}

// innerList reads a list literal, or the first list literal inside an
// object literal ({cmd: […]}, {args: […]}).
func (p *program) innerList(a []token) ([]lit, bool) {
	if items, ok := p.list(a); ok || len(a) == 0 || a[0].text != "{" {
		return items, ok
	}
	for j, tk := range a {
		if tk.text == "[" && tk.kind == tokPunct {
			return p.list(a[j:min(closeOf(a, j)+1, len(a))])
		}
	}
	return nil, false
}

// list reads a list literal ([…], Python (…, …), PHP array(…)) as items.
func (p *program) list(a []token) ([]lit, bool) {
	if len(a) == 0 {
		return nil, false
	}
	inner := []token(nil)
	switch {
	case a[0].kind == tokPunct && (a[0].text == "[" || a[0].text == "(" && p.l == langPython) && a[0].span == len(a)-1:
		inner = a[1 : len(a)-1]
		if a[0].text == "(" && !hasTopComma(inner) {
			return nil, false
		}
	case p.l == langPHP && len(a) >= 3 && a[0].kind == tokIdent && strings.EqualFold(a[0].text, "array") &&
		a[1].text == "(" && a[1].span == len(a)-2:
		inner = a[2 : len(a)-1]
	default:
		return nil, false
	}
	return p.items(splitArgs(inner)), true
}

func hasTopComma(toks []token) bool {
	return len(splitArgs(toks)) > 1 || len(toks) > 0 && toks[len(toks)-1].text == ","
}

// items evaluates each argument as one argv item.
func (p *program) items(args [][]token) []lit {
	out := make([]lit, 0, len(args))
	for _, a := range args {
		if len(a) > 0 {
			out = append(out, p.expr(a))
		}
	}
	return out
}

// concatOp is the string concatenation operator of the language.
func (p *program) concatOp() string {
	if p.l == langPerl || p.l == langPHP {
		return "."
	}
	return "+"
}

// expr evaluates a string expression: literals joined by the language's
// concatenation (and Python's adjacent literals), a literal's .split() /
// .strip() kept, .format(…) and % formatting cut at the first field; every
// other operand (a name, a call, a subscript, another method, an f-string
// field) becomes runtimeHole.
func (p *program) expr(a []token) lit {
	var buf []byte
	dyn := false
	hole := func() {
		if !strings.HasSuffix(string(buf), runtimeHole) {
			buf = append(buf, runtimeHole...)
		}
		dyn = true
	}
	// keepTo keeps the operand written since start up to its first sep.
	keepTo := func(start int, sep string) {
		if k := strings.Index(string(buf[start:]), sep); k >= 0 {
			buf = buf[:start+k]
		}
		hole()
	}
	op := p.concatOp()
	isOp := func(t token) bool { return t.kind == tokPunct && t.text == op }
	for j := 0; j < len(a); j++ {
		start := len(buf)
		n := 0
		for j < len(a) && (a[j].kind == tokString || a[j].kind == tokTmpl) && (n == 0 || p.l == langPython) {
			buf = append(buf, a[j].text...)
			dyn = dyn || a[j].dyn
			j++
			n++
		}
		switch {
		case n == 0 && p.readsStdin(a[j:p.operandEnd(a, j, isOp)]):
			buf = append(buf, stdinHole...)
			dyn = true
			j = p.operandEnd(a, j, isOp)
			continue
		case n == 0:
			hole()
		case j >= len(a) || isOp(a[j]):
		case a[j].text == "." && a[j].kind == tokPunct && j+2 < len(a) && a[j+1].kind == tokIdent && a[j+2].text == "(":
			switch a[j+1].text {
			case "split", "strip", "rstrip", "lstrip", "trim", "chomp", "encode", "decode":
			case "format":
				keepTo(start, "{")
			default:
				buf = buf[:start]
				hole()
			}
			j = closeOf(a, j+2) + 1
		case a[j].text == "%" && p.l == langPython:
			keepTo(start, "%")
		default:
			buf = buf[:start]
			hole()
		}
		if j < len(a) && !isOp(a[j]) {
			hole()
			for j < len(a) && !isOp(a[j]) {
				j = closeOf(a, j) + 1
			}
		}
	}
	return lit{string(buf), dyn}
}

// argv renders items as shell words: static ones single-quoted, dynamic
// ones double-quoted with runtimeHole left to expand.
func argv(items []lit) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !it.dyn {
			b.WriteString(shellQuote(it.text))
			continue
		}
		b.WriteByte('"')
		for k, part := range strings.Split(it.text, runtimeHole) {
			if k > 0 {
				b.WriteString(runtimeHole)
			}
			for _, c := range []byte(part) {
				if strings.IndexByte("$`\"\\", c) >= 0 {
					b.WriteByte('\\')
				}
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
	}
	return b.String()
}

// shellQuote single-quotes s for the shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// stdinHole stands, in a command taken out of program text, for what the
// program read from its standard input (sys.stdin.read(), STDIN.read,
// <STDIN>, readFileSync(0)): the caller puts the text there when it knows
// what the command line feeds in, and a runtimeHole otherwise.
const stdinHole = "$TOOLWALL_STDIN"

// evalStdin is the command text of an eval of the program's standard
// input (exec(sys.stdin.read()), eval STDIN.read): code of the program's
// own language, read by the caller from what the command line feeds in.
const evalStdin = "$TOOLWALL_STDIN_CODE"

// operandEnd returns the index after the operand that starts at a[j]:
// the tokens up to the next concatenation operator.
func (p *program) operandEnd(a []token, j int, isOp func(token) bool) int {
	for j < len(a) && !isOp(a[j]) {
		j = closeOf(a, j) + 1
	}
	return min(j, len(a))
}

// stdinName reports a name that stands for standard input in one of the
// languages read (Python sys.stdin, Ruby STDIN/$stdin/ARGF, Perl STDIN,
// PHP STDIN).
func stdinName(s string) bool {
	switch s {
	case "stdin", "STDIN", "$stdin", "ARGF", "$<":
		return true
	}
	return false
}

// readsStdin reports whether an operand of a string expression is the
// text of the program's standard input: a read of sys.stdin, STDIN,
// $stdin, ARGF, <STDIN> or <>, input(), gets, readFileSync(0) or of
// /dev/stdin, php://stdin, or open(0).
func (p *program) readsStdin(a []token) bool {
	if len(a) == 0 {
		return false
	}
	for k, t := range a {
		switch t.kind {
		case tokIdent:
			switch {
			case stdinName(t.text):
				return true
			case t.text == "input" && p.l == langPython && k+1 < len(a) && a[k+1].text == "(" && (k == 0 || a[k-1].text != "."):
				return true
			case t.text == "gets" && p.l == langRuby && (k == 0 || a[k-1].text != "."):
				return true
			case (t.text == "readFileSync" || t.text == "open") && k+2 < len(a) && a[k+1].text == "(" && a[k+2].text == "0":
				return true
			}
		case tokString:
			switch t.text {
			case "/dev/stdin", "php://stdin", "/dev/fd/0", "/proc/self/fd/0":
				return true
			}
		case tokPunct:
			if p.l == langPerl && t.text == "<" && k+1 < len(a) && a[k+1].text == ">" {
				return true // <>: the files named, else stdin
			}
		}
	}
	return false
}
