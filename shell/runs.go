package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolwall/toolwall/programs"
)

// follow handles what a command runs in turn: the shell's own builtins
// that act on the running shell (cd, eval, alias, set, trap, source), a
// called function's body, and then, from the program's catalog entry,
// every operand, option value and standard input whose role is a command
// (runs.go).
func (w *walker) follow(cmd *Command, f frame, funcs bool) {
	if w.err != nil || cmd.Name == "" {
		return
	}
	if funcs && !strings.Contains(cmd.Args[0].Value, "/") && (len(cmd.Wrappers) == 0 || len(cmd.Wrappers) == 1 && cmd.Wrappers[0] == "time") {
		if w.callFunc(cmd, cmd.Args[0].Value, f) {
			return
		}
	}
	switch cmd.Name {
	case "cd", "pushd", "popd":
		if plain(cmd) {
			w.cd(cmd, f)
		}
		return
	case "eval":
		w.eval(cmd, f)
		return
	case "alias", "unalias", "hash":
		if plain(cmd) {
			w.defineAlias(cmd, f)
		}
		return
	case "set", "shift":
		if plain(cmd) {
			w.set(cmd, f)
		}
		return
	case "trap":
		w.trap(cmd, f)
		return
	case "source", ".":
		w.source(cmd, f)
		return
	}
	v := cmd.Inv
	p := v.Program()
	if p == nil {
		if w.writtenScript(cmd, f) {
			return
		}
		w.mayRun(cmd, f)
		return
	}
	w.runs(cmd, v, p, f)
}

// runs reads the commands an invocation hands on: option values, then
// operands, then standard input when nothing else gave the program its
// code.
func (w *walker) runs(cmd *Command, v *Invocation, p *programs.Program, f frame) {
	if p.Style&programs.Strict != 0 && slices.ContainsFunc(v.Opts, func(o programs.Opt) bool { return !o.Known }) {
		return // bash refuses an option it does not know: nothing runs
	}
	if p.Root().Grammar == "parallel" {
		w.parallel(cmd, v, f)
		return
	}
	if v.Stdin == programs.Items && v.firstRole(programs.Argv) < 0 {
		// xargs with no command runs echo (xargs(1))
		w.tail(cmd, []Word{{Raw: "echo", Value: "echo", Prefix: "echo"}, {Raw: "{}", Dynamic: true}}, p.Path(), cmd.Cwd, f, false, nil)
		return
	}
	w.envCommands(cmd, p, f)
	lang := p.Lang
	via := p.Path()
	gotCode := false
	for _, o := range v.Opts {
		if w.err != nil {
			return
		}
		if !o.HasValue {
			continue
		}
		val := v.Value(o)
		switch o.Role {
		case programs.Shell:
			w.body(val, cmd, f, "sh -c", nil)
			gotCode = true
		case programs.Code:
			w.code(cmd, val, lang, f, false)
			gotCode = true
		case programs.Bang:
			w.bangCode(cmd, val, f)
		case programs.Config:
			w.shellConfig(cmd, p, val, f)
		case programs.Argv:
			w.findExec(cmd, v, o, f)
		case programs.Exec:
			if !val.Dynamic && isStdinFile(val.Value) {
				w.stdinCode(cmd, lang, f)
				gotCode = true
			} else if lang == "awk" || lang == "make" {
				gotCode = true
				if text, ok := w.writtenText(val, cmd.Cwd); ok && lang == "make" && !val.Dynamic {
					w.code(cmd, Word{Raw: text, Value: text, Prefix: text}, lang, f, false)
				}
			}
		}
	}
	for k := 0; k < len(v.Operands) && w.err == nil; k++ {
		op := v.Operands[k]
		word := v.Args[op.Word]
		switch op.Role {
		case programs.Argv:
			w.runArgv(cmd, v, k, f, via)
			return
		case programs.Shell:
			zero, rest := cmd.Args[0], []Word(nil)
			if next := v.rest(k + 1); len(next) > 0 {
				zero, rest = next[0], next[1:]
			}
			w.body(word, cmd, f, "sh -c", newPositional(zero, rest))
			gotCode = true
			if p.Root().Name != "hyperfine" {
				return
			}
		case programs.ShellJoin:
			w.body(joinedCode(v.rest(k)), cmd, f, "sh -c", nil)
			return
		case programs.Command:
			rest := v.rest(k)
			if len(rest) == 1 && !rest[0].Dynamic {
				w.body(rest[0], cmd, f, "sh -c", nil)
			} else {
				w.body(Word{Value: argvText(rest), Prefix: argvText(rest)}, cmd, f, "sh -c", nil)
			}
			return
		case programs.Keys:
			var keys []Word
			for _, key := range v.rest(k) {
				switch key.Value {
				case "Enter", "C-m", "KPEnter", "C-j", "Space", "Tab":
					continue
				}
				keys = append(keys, key)
			}
			if len(keys) > 0 {
				w.body(joinedCode(keys), cmd, f, "sh -c", nil)
			}
			return
		case programs.Remote:
			w.remote(cmd, v, v.rest(k), f)
			return
		case programs.Config:
			w.shellConfig(cmd, p, word, f)
		case programs.Code:
			w.code(cmd, word, lang, f, false)
			gotCode = true
		case programs.Exec:
			gotCode = true
			if text, dyn, ok := w.procText(word, cmd.Cwd); ok && word.Dynamic {
				w.readCode(text, dyn, cmd, w.child(cmd, f, "stdin"))
			} else if ok {
				// a file the command wrote earlier: read as the program
				// runs it
				w.code(cmd, Word{Raw: text, Value: text, Prefix: text}, lang, f, false)
			} else if !word.Dynamic && isStdinFile(word.Value) {
				w.stdinCode(cmd, lang, f)
			}
		}
	}
	if w.err != nil || gotCode {
		return
	}
	if lang == "make" {
		// the makefile make finds itself, when this command line wrote it
		for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if text, ok := w.writtenText(Word{Value: name}, cmd.Cwd); ok {
				w.code(cmd, Word{Raw: text, Value: text, Prefix: text}, lang, f, false)
				return
			}
		}
	}
	switch v.Stdin {
	case programs.Code:
		w.stdinCode(cmd, lang, f)
	case programs.Bang:
		// commands of the program's own language, one a line (vim -es)
		if text, dyn, ok := w.stdinText(cmd, 0); ok && !dyn {
			for _, line := range strings.Split(text, "\n") {
				if w.err != nil {
					return
				}
				w.bangCode(cmd, Word{Raw: line, Value: line, Prefix: line}, f)
			}
		}
	case programs.Remote:
		if v.firstRole(programs.Host) >= 0 && v.firstRole(programs.Remote) < 0 {
			w.remote(cmd, v, nil, f)
		}
	}
}

// body re-reads a shell string run by cmd in a new shell process (Via
// via), with positional parameters pos when the shell was given them (sh
// -c BODY NAME ARGS). A string only partly known (sh -c "cd $d && make")
// is read with its unknown parts Dynamic: code built at run time (sh -c
// "$CMD") gives a command whose program is Dynamic. A body that is a lone
// positional parameter of the calling shell, unknown there, followed by
// the new shell's own parameters (sh -c "$1" _ 'rm -rf ~') is also read
// the way its writer meant it: as the text of that parameter of the new
// shell.
func (w *walker) body(text Word, cmd *Command, f frame, via string, pos *positional) {
	c := w.child(cmd, f, via)
	if pos != nil {
		c.pos = pos
	}
	if !text.Dynamic {
		w.runChild(text.Value, cmd, c)
		return
	}
	w.runProgram(text.codeText(), cmd.Cwd, c)
	if n, ok := lonePositional(text.Raw); ok && pos != nil {
		if v, ok := pos.lookup(n); ok && v.Raw != "" && w.err == nil {
			c := w.child(cmd, f, via)
			c.pos = pos
			w.readCode(v.codeText(), v.Dynamic, cmd, c)
		}
	}
}

// joinedCode is words joined by spaces as the shell text a program runs
// (watch ls -la): Dynamic, with its unknown parts marked, when a word is.
func joinedCode(words []Word) Word {
	if body, ok := joinStatic(words); ok {
		return Word{Raw: body, Value: body, Prefix: body}
	}
	code := codeJoin(words)
	k := strings.Index(code, runtimeHole)
	return Word{Raw: rawJoin(words), Value: strings.ReplaceAll(code, runtimeHole, ""), Prefix: code[:max(k, 0)], Dynamic: true, code: code}
}

// lonePositional returns N when raw is a lone positional parameter: $N,
// ${N}, "$N", "${N}", $@, "$@", $*, "$*".
func lonePositional(raw string) (string, bool) {
	if len(raw) > 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	if len(raw) > 3 && raw[1] == '{' && raw[len(raw)-1] == '}' {
		raw = "$" + raw[2:len(raw)-1]
	}
	if len(raw) < 2 || raw[0] != '$' {
		return "", false
	}
	n := raw[1:]
	if n == "@" || n == "*" {
		return n, true
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return "", false
		}
	}
	return n, true
}

// code reads program text of lang that cmd runs: shell text is re-read,
// the inline programs of python, node, perl, ruby and php and awk
// programs for the commands they run. Text of other languages (tcl, lua,
// sed, make, …) is not read.
func (w *walker) code(cmd *Command, text Word, lang string, f frame, fromStdin bool) {
	if text.Dynamic {
		w.dynamicCode(cmd, text, lang, f, fromStdin)
		return
	}
	switch lang {
	case "sh":
		c := w.child(cmd, f, "sh -c")
		if fromStdin {
			c = w.child(cmd, f, "stdin")
			c.stdin = Stdin{}
			c.redirs = outputRedirects(cmd.Redirects)
		}
		w.runChild(text.Value, cmd, c)
	case "sed":
		if cmd.Inv.Has("sandbox") {
			return // --sandbox refuses e, r and w
		}
		for _, t := range sedCommands(text.Value) {
			if w.err != nil {
				return
			}
			w.runProgram(t, cmd.Cwd, w.child(cmd, f, "sed"))
		}
	case "make":
		for _, t := range makeCommands(text.Value) {
			if w.err != nil {
				return
			}
			ch := w.child(cmd, f, "make")
			if fromStdin {
				ch.stdin = Stdin{}
				ch.redirs = outputRedirects(cmd.Redirects)
			}
			w.runProgram(t, cmd.Cwd, ch)
		}
	case "awk":
		for _, t := range awkCommands(text.Value) {
			if w.err != nil || strings.TrimSpace(t) == "" {
				return
			}
			w.runProgram(t, cmd.Cwd, w.child(cmd, f, "awk"))
		}
	default:
		l := langByName(lang)
		if l == langNone {
			return
		}
		texts, writes, used, ok := commandsOf(l, text.Value, w.opt.MaxNodes-w.nodes)
		w.nodes += used
		if !ok {
			w.fail(&LimitError{Limit: "nodes", Max: w.opt.MaxNodes})
			return
		}
		if len(writes) > MaxCodeWrites {
			w.fail(&LimitError{Limit: "code writes", Max: MaxCodeWrites})
			return
		}
		for _, cw := range writes {
			w.codeEffect(cmd, cw)
		}
		for _, t := range texts {
			if w.err != nil {
				return
			}
			if t == evalStdin || strings.Contains(t, stdinHole) {
				if w.stdinRun(cmd, t, lang, f, fromStdin) {
					continue
				}
				t = strings.ReplaceAll(t, stdinHole, runtimeHole)
				if t == evalStdin {
					t = runtimeHole
				}
			}
			ch := w.child(cmd, f, viaOf[l])
			if fromStdin {
				ch.stdin = Stdin{}
				ch.redirs = outputRedirects(cmd.Redirects)
			}
			w.runProgram(t, cmd.Cwd, ch)
		}
	}
}

// codeEffect adds to cmd the effect of a file cw its program writes: a
// Writes or Appends of its path, resolved as an operand is (a path below
// an unknown home, or known only from its start, is a dynamic word with
// that start).
func (w *walker) codeEffect(cmd *Command, cw codeWrite) {
	kind := Writes
	if cw.appends {
		kind = Appends
	}
	if cw.argv && cmd.Inv != nil {
		// open(sys.argv[1], "a") with ~/.bashrc after the program: the
		// command's operands are what it writes.
		for _, op := range cmd.Inv.Operands {
			effectsOf{c: cmd, out: &cmd.Effects}.add(kind, cmd.Inv.Args[op.Word], programs.Write, "code", nil)
		}
		return
	}
	text := cw.path.text
	dyn := cw.path.dyn || strings.Contains(text, runtimeHole)
	if cw.home {
		if w.opt.Home == "" {
			text, dyn = runtimeHole+text, true
		} else {
			text = w.opt.Home + text
		}
	}
	word := Word{Raw: text, Value: text, Prefix: text, Dynamic: dyn}
	if dyn {
		word.Prefix, _, _ = strings.Cut(text, runtimeHole)
	}
	effectsOf{c: cmd, out: &cmd.Effects}.add(kind, word, programs.Write, "code", nil)
}

// stdinCode reads the text cmd reads on standard input, when the reader
// knows it, as its program.
func (w *walker) stdinCode(cmd *Command, lang string, f frame) {
	text, dyn, ok := w.stdinText(cmd, 0)
	if !ok {
		if cmd.Stdin.Kind == StdinPipe && w.composesCode(cmd.Stdin.From) && programLang(lang) {
			// python3 -c 'print(…)' | sh, awk '{print "mv " $1}' f | sh:
			// code a program composes as it runs
			c := w.child(cmd, f, "stdin")
			c.stdin = Stdin{}
			x := w.command([]Word{{Raw: cmd.Stdin.From.String(), Dynamic: true}}, c)
			x.built = true
			w.finish(x, nil, c)
			w.emit(x, c.feeds)
		}
		return
	}
	word := Word{Raw: text, Value: text, Prefix: text}
	if dyn {
		k := strings.Index(text, runtimeHole)
		word = Word{Raw: text, Value: strings.ReplaceAll(text, runtimeHole, ""), Prefix: text[:max(k, 0)], Dynamic: true, code: text}
	}
	w.code(cmd, word, lang, f, true)
}

// stdinRun reads what an inline program runs from its standard input
// (os.system(sys.stdin.read()), exec STDIN.read, eval of <STDIN>) when
// the command line feeds it known text (a here-string, a heredoc, echo
// piped in): a command text that is the whole input is read as shell
// code, an eval of it as code of the program's language. It reports
// false when the input is not known (or the program itself came on
// stdin), leaving the caller to read the command as built at run time.
func (w *walker) stdinRun(cmd *Command, t, lang string, f frame, fromStdin bool) bool {
	if fromStdin || t != evalStdin && t != stdinHole {
		return false
	}
	text, dyn, ok := w.stdinText(cmd, 0)
	if !ok {
		return false
	}
	word := Word{Raw: text, Value: text, Prefix: text}
	if dyn {
		k := strings.Index(text, runtimeHole)
		word = Word{Raw: text, Value: strings.ReplaceAll(text, runtimeHole, ""), Prefix: text[:max(k, 0)], Dynamic: true, code: text}
	}
	if t == evalStdin {
		w.code(cmd, word, lang, f, true)
		return true
	}
	w.code(cmd, word, "sh", f, true)
	return true
}

// composesCode reports whether up prints code of its own composing: a
// program that computes its text (computesText) from its own program or
// from text the command line gives it (echo ~ | sed 's/^/rm -rf /'), not
// one that rewrites data read from files or from another program (find
// … | sed 's/.*/mv &/', awk '{print "mv " $1}' list): that is the idiom
// of a batch of commands made from a listing, left to be read as the
// listing's commands are.
func (w *walker) composesCode(up *Command) bool {
	if !computesText(up) {
		return false
	}
	if up.Stdin.Kind == StdinPipe || up.Stdin.Kind == StdinFile {
		_, _, known := w.stdinText(up, 0)
		return known
	}
	return len(up.Inv.OperandsOf(programs.Read, programs.Modify)) == 0
}

// computesText reports whether up composes the text it prints as it runs:
// an interpreter or a text language given its program (python -c, awk,
// sed, jq), or a filter that rewrites its input (tr, rev, xxd); such
// output piped to a shell is code built at run time. A file printed (cat
// install.sh) or a download (judged on its own) is not.
func computesText(up *Command) bool {
	if up == nil || len(up.Args) == 0 || up.Args[0].Dynamic {
		return false
	}
	switch up.Name {
	case "tr", "rev", "xxd", "jq", "yq", "envsubst", "iconv", "od", "paste", "cut":
		return true
	}
	p := up.Inv.Program()
	if p == nil || p.Root().Lang == "" {
		return false
	}
	for _, r := range []programs.Role{programs.Code, programs.Shell, programs.ShellJoin} {
		if len(up.Inv.ValuesOf(r)) > 0 || len(up.Inv.OperandsOf(r)) > 0 {
			return true
		}
	}
	return false
}

// dynamicCode reads program text of lang only partly known before it
// runs. Shell text is read with its unknown parts Dynamic (body). An
// inline program of another language is read for the commands it runs
// as its static text is; where a part only known at run time stands
// outside a string literal of the program, the program itself is built
// at run time (python -c "$CODE", perl -e "print 1; $more"): one command
// with a Dynamic program stands for what it would run.
func (w *walker) dynamicCode(cmd *Command, text Word, lang string, f frame, fromStdin bool) {
	if lang == "sh" {
		c := w.child(cmd, f, "sh -c")
		if fromStdin {
			c = w.child(cmd, f, "stdin")
			c.stdin = Stdin{}
			c.redirs = outputRedirects(cmd.Redirects)
		}
		w.runProgram(text.codeText(), cmd.Cwd, c)
		return
	}
	code := text.codeText()
	if programLang(lang) && holeStartsStatement(code) {
		via := "code"
		if l := langByName(lang); l != langNone {
			via = viaOf[l]
		} else if lang == "awk" {
			via = "awk"
		}
		c := w.child(cmd, f, via)
		if fromStdin {
			c.stdin = Stdin{}
			c.redirs = outputRedirects(cmd.Redirects)
		}
		x := w.command([]Word{{Raw: text.Raw, Dynamic: true}}, c)
		x.built = true
		w.finish(x, nil, c)
		w.emit(x, c.feeds)
	}
	w.code(cmd, Word{Raw: text.Raw, Value: code, Prefix: code}, lang, f, fromStdin)
}

// programLang reports whether lang is a general-purpose language whose
// program text, built at run time, can do anything (not sed, SQL, make).
func programLang(lang string) bool {
	switch lang {
	case "", "sed", "sql", "redis", "make":
		return false
	}
	return true
}

// holeStartsStatement reports whether a runtimeHole of program text
// stands where a statement starts — at the start, or after ; { } or a
// newline — outside the program's quoted string literals ('…', "…", `…`,
// with backslash escapes): a statement built at run time (python -c
// "$CODE", perl -e 'print 1; '"$more"), not a value inside one (awk
// "{print $2}", perl -pe "s/$a/$b/").
func holeStartsStatement(text string) bool {
	var q byte
	start := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case strings.HasPrefix(text[i:], runtimeHole):
			if start {
				return true
			}
			i += len(runtimeHole) - 1
		case c == '\'' || c == '"' || c == '`':
			q, start = c, false
		case c == ';' || c == '{' || c == '}' || c == '\n':
			start = true
		case c == ' ' || c == '\t' || c == '\r':
		default:
			start = false
		}
	}
	return false
}

// bang returns the shell command in a command of a program's own
// language: "!cmd", "shell cmd" (gdb, sftp, mysql), ":!cmd" (vim),
// "platform shell cmd" (lldb).
func bang(v string) (string, bool) {
	v = strings.TrimSpace(v)
	// Vim's Ex forms: ":" and "silent[!]" before, a range ("%", ".") or
	// "r"/"read"/"w"/"write" before the "!" (:r !cmd, :%!cmd, :w !cmd)
	v = strings.TrimSpace(strings.TrimLeft(v, ":"))
	for _, p := range []string{"silent! ", "silent "} {
		v = strings.TrimSpace(strings.TrimPrefix(v, p))
	}
	for _, p := range []string{"%!", ".!", "r !", "r!", "read !", "read!", "w !", "write !", "terminal ", "term "} {
		if rest, ok := strings.CutPrefix(v, p); ok && strings.TrimSpace(rest) != "" {
			return rest, true
		}
	}
	for _, p := range []string{"!", "shell ", "platform shell ", "system "} {
		if rest, ok := strings.CutPrefix(v, p); ok && strings.TrimSpace(rest) != "" {
			return rest, true
		}
	}
	// Vim's exe[cute] of a string literal runs it as an Ex command
	for _, p := range []string{"exe ", "execute ", "exec "} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			if s, ok := quotedArg(strings.TrimSpace(rest)); ok {
				return bang(s)
			}
		}
	}
	// a function of the language that runs a shell command: Vim's
	// system(), systemlist(), jobstart(), termopen(); gdb's call system()
	for _, fn := range []string{"system(", "systemlist(", "jobstart(", "termopen("} {
		if k := strings.Index(v, fn); k >= 0 && (k == 0 || !isWordByte(v[k-1])) {
			if s, ok := quotedArg(strings.TrimSpace(v[k+len(fn):])); ok && strings.TrimSpace(s) != "" {
				return s, true
			}
		}
	}
	return "", false
}

// quotedArg returns the text of the string literal v starts with, in
// single quotes (no escapes) or double quotes (backslash escapes).
func quotedArg(v string) (string, bool) {
	if v == "" || v[0] != '\'' && v[0] != '"' {
		return "", false
	}
	q := v[0]
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		c := v[i]
		switch {
		case c == q:
			return b.String(), true
		case c == '\\' && q == '"' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// isWordByte reports a byte of a name.
func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// bangCode reads a command of a program's own command language (gdb -ex,
// vim -c) for the shell command it runs. A command only partly known is
// read with its unknown parts Dynamic; one whose start is unknown (vim -c
// "$X") may be a shell escape built at run time: one command with a
// Dynamic program stands for it.
func (w *walker) bangCode(cmd *Command, val Word, f frame) {
	code := val.codeText()
	if val.Dynamic && strings.TrimSpace(strings.TrimLeft(val.Prefix, ": ")) == "" {
		w.body(Word{Raw: val.Raw, Dynamic: true, code: runtimeHole}, cmd, f, "sh -c", nil)
		return
	}
	body, ok := bang(code)
	if !ok {
		return
	}
	word := Word{Raw: body, Value: body, Prefix: body}
	if val.Dynamic {
		k := strings.Index(body, runtimeHole)
		word = Word{Raw: val.Raw, Value: strings.ReplaceAll(body, runtimeHole, ""), Prefix: body[:max(k, 0)], Dynamic: true, code: body}
	}
	w.body(word, cmd, f, "sh -c", nil)
}

// shellConfig re-reads a KEY=VALUE setting whose key the program's entry
// lists as a shell command (ssh -o ProxyCommand=…, git -c alias.x=!…).
func (w *walker) shellConfig(cmd *Command, p *programs.Program, val Word, f frame) {
	if val.Dynamic {
		return
	}
	key, value, ok := strings.Cut(val.Value, "=")
	if !ok {
		// ssh -o "ProxyCommand cmd": key and value separated by a blank
		key, value, ok = strings.Cut(strings.TrimSpace(val.Value), " ")
		if !ok {
			return
		}
	}
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range p.Root().ShellConfig {
		bangOnly := strings.HasSuffix(k, "=!")
		k = strings.TrimSuffix(k, "=!")
		if !configKey(k, key) {
			continue
		}
		body := value
		if bangOnly {
			rest, ok := strings.CutPrefix(strings.TrimSpace(value), "!")
			if !ok {
				continue
			}
			body = rest
		}
		w.body(Word{Value: body, Prefix: body}, cmd, f, "sh -c", nil)
		return
	}
}

// envCommands re-reads the assignments of a command's environment that
// its program runs as shell commands (GIT_SSH_COMMAND=… git fetch).
func (w *walker) envCommands(cmd *Command, p *programs.Program, f frame) {
	names := p.Root().EnvCommands
	if len(names) == 0 {
		return
	}
	for _, a := range cmd.Assigns {
		name, value, ok := strings.Cut(a, "=")
		if !ok || !slices.Contains(names, name) || strings.TrimSpace(value) == "" || w.err != nil {
			continue
		}
		if strings.ContainsAny(value, "$`") {
			continue // held as written: a part only known at run time
		}
		w.body(Word{Value: value, Prefix: value}, cmd, f, "sh -c", nil)
	}
}

// configKey matches a configuration key against a catalog pattern: "*"
// stands for any run of characters within the key.
func configKey(pattern, key string) bool {
	ok, err := path.Match(pattern, key)
	return err == nil && ok
}

// runArgv emits the command an invocation runs from operand k on: a
// command of its own, run by cmd (Via the program's path): xargs appends
// the items it reads (or puts them where -I's string is), a container
// runs it with its own file system (Remote, Mounts), ssh-like runners on
// another host.
func (w *walker) runArgv(cmd *Command, v *Invocation, k int, f frame, via string) {
	args := append([]Word(nil), v.rest(k)...)
	if len(args) == 0 {
		return
	}
	p := v.Program()
	cwd := cmd.Cwd
	var (
		remote bool
		mounts []Mount
	)
	if v.firstRole(programs.Image) >= 0 || p.Root().Name == "kubectl" || p.Root().Name == "oc" ||
		p.Name == "exec" && isContainer(p.Root().Name) {
		remote, cwd = true, ""
		for _, x := range cmd.Effects {
			if x.Kind == Mounts && x.Path != "" {
				mounts = append(mounts, Mount{Host: x.Path, Guest: x.Guest})
			}
		}
		for _, o := range v.Values("workdir") {
			if !o.Dynamic && path.IsAbs(o.Value) {
				cwd = o.Value
			}
		}
		if ep := v.Values("entrypoint"); len(ep) > 0 {
			args = append(ep[len(ep)-1:len(ep)], args...)
		}
	}
	if v.Stdin == programs.Items {
		replace := ""
		for _, o := range v.Opts {
			if o.Name == "replace" {
				replace = "{}"
				if o.HasValue {
					replace = v.Value(o).Value
				}
			}
		}
		if replace != "" {
			for j := range args {
				args[j] = placeholder(args[j], replace)
			}
		} else {
			args = append(args, Word{Raw: "{}", Dynamic: true})
		}
	}
	w.tail(cmd, args, via, cwd, f, remote, mounts)
}

// isContainer reports whether a program is a container engine.
func isContainer(name string) bool {
	return name == "docker" || name == "podman" || name == "nerdctl"
}

// findExec emits the command of one find -exec/-execdir/-ok/-okdir
// (Via "find -exec"); {} becomes a Dynamic word; -execdir runs in the
// directory of each match (unknown).
func (w *walker) findExec(cmd *Command, v *Invocation, o programs.Opt, f frame) {
	if o.ValueWord < 0 {
		return
	}
	end := o.End
	if end > o.ValueWord && end-1 < len(v.Args) && !v.Args[end-1].Dynamic && (v.Args[end-1].Value == ";" || v.Args[end-1].Value == "+") {
		end--
	}
	var tail []Word
	for _, a := range v.Args[o.ValueWord:min(end, len(v.Args))] {
		tail = append(tail, placeholder(a, "{}"))
	}
	if len(tail) == 0 {
		return
	}
	cwd := cmd.Cwd
	if strings.HasSuffix(o.Spelling, "dir") {
		cwd = ""
	}
	w.tail(cmd, tail, "find -exec", cwd, f, false, nil)
}

// parallel re-reads the command GNU parallel runs for its first input:
// the command words, followed by the first ::: argument (or a dynamic
// word when arguments come from stdin or a file), with {} replaced.
func (w *walker) parallel(cmd *Command, v *Invocation, f frame) {
	words := v.OperandsOf(programs.Argv)
	if len(words) == 0 {
		// no command: each ::: argument is a command line of its own
		// (parallel ::: 'make a' "$X"); stdin lines are the remote
		// analyzer's case
		for _, a := range v.Values(":::") {
			if w.err != nil {
				return
			}
			w.body(a, cmd, f, "sh -c", nil)
		}
		return
	}
	arg := `"$__toolwall_runtime"`
	if o, ok := v.Last(":::"); ok && o.HasValue {
		arg = argvText([]Word{v.Value(o)})
	}
	body, placed := argvText(words), false
	if strings.Contains(body, "{}") {
		body, placed = strings.ReplaceAll(body, "{}", arg), true
	}
	if !placed {
		body += " " + arg
	}
	w.body(Word{Value: body, Prefix: body}, cmd, f, "sh -c", nil)
}

// remote re-reads the command an ssh-like program runs on another host:
// its words joined by spaces (run by the remote user's shell), or the
// static text on its stdin when there are none, as Via "ssh" at Depth+1.
// The remote side runs in the remote home: for localhost (no other user
// named) that is Options.Home, elsewhere it is unknown, so ~ and $HOME are
// Dynamic and the directory is "". Privileged stays false: whether the
// remote user is root is not known. Its commands are Remote unless the
// host is this machine. The remote shell may not be bash: a body that
// does not parse is one command with a Dynamic program.
func (w *walker) remote(cmd *Command, v *Invocation, words []Word, f frame) {
	if v.Has("no-command") {
		return
	}
	hosts := v.OperandsOf(programs.Host)
	if len(hosts) == 0 {
		return
	}
	host := hosts[0]
	c := w.child(cmd, f, "ssh")
	c.privileged = false
	c.pos = &positional{}
	user, name, hasUser := strings.Cut(host.Value, "@")
	if !hasUser {
		name, user = user, ""
	}
	local := !host.Dynamic && (name == "localhost" || strings.HasPrefix(name, "127.") || name == "::1") &&
		(user == "" || user == w.opt.User)
	cwd := ""
	if local && !f.scope.homeSet {
		cwd = w.opt.Home
	} else {
		c.scope.homeSet, c.scope.userSet, c.scope.pwdSet = true, true, true
		c.remote = true
	}
	var body string
	if len(words) > 0 {
		text, ok := joinStatic(words)
		if !ok {
			if !local {
				return
			}
			// code built at run time, run on this machine
			text = codeJoin(words)
		}
		body = text
	} else {
		text, dyn, ok := w.stdinText(cmd, 0)
		if !ok || dyn && !local {
			return
		}
		body = text
		c.stdin, c.redirs = Stdin{}, outputRedirects(cmd.Redirects)
	}
	w.runProgram(body, cwd, c)
}

// mayRun reads a program not in the catalog the way a peer guard reads
// argv (what cannot be resolved is not safe): when one of its words names a catalog
// program that runs commands, deletes, changes permissions or talks to
// the network, the words from there on may be a command it runs (direnv
// exec . rm -rf ~, some-runner -- bash -c '…'), and are read as one (Via
// "argument"). Words that look like options are skipped; the first
// candidate decides.
func (w *walker) mayRun(cmd *Command, f frame) {
	for i := 1; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		if a.Dynamic || a.Value == "" || strings.HasPrefix(a.Value, "-") || strings.ContainsAny(a.Value, "=/ ") {
			continue
		}
		p := programs.Lookup(a.Value)
		if p == nil || strings.ToLower(a.Value) != a.Value || !acts(p) {
			continue
		}
		w.tail(cmd, append([]Word(nil), cmd.Args[i:]...), "argument", cmd.Cwd, f, cmd.Remote, cmd.Mounts)
		return
	}
}

// writtenScript reads a script the command line wrote with known text
// and then runs by its path (echo … > /tmp/a.sh; chmod +x /tmp/a.sh;
// /tmp/a.sh) as the program its first line names (#!/bin/sh, #!/usr/bin/env
// python3), else as shell code; it reports whether it did.
func (w *walker) writtenScript(cmd *Command, f frame) bool {
	a := cmd.Args[0]
	if a.Dynamic || !strings.Contains(a.Value, "/") {
		return false
	}
	text, ok := w.writtenText(a, cmd.Cwd)
	if !ok {
		return false
	}
	lang := "sh"
	if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "#!") {
		fields := strings.Fields(strings.TrimPrefix(first, "#!"))
		if len(fields) > 1 && path.Base(fields[0]) == "env" {
			fields = fields[1:]
			for len(fields) > 1 && strings.HasPrefix(fields[0], "-") {
				fields = fields[1:]
			}
		}
		if len(fields) > 0 {
			if p := programs.Lookup(path.Base(fields[0])); p != nil && p.Lang != "" {
				lang = p.Lang
			}
		}
	}
	w.code(cmd, Word{Raw: text, Value: text, Prefix: text}, lang, f, false)
	return true
}

// acts reports whether a program's entry gives it a role that matters
// when an unknown runner hands it on: it runs commands, deletes, changes
// permissions or owners, or talks to the network.
func acts(p *programs.Program) bool {
	if p.Privileged || p.Wrapper {
		return true
	}
	for _, r := range p.Operands {
		for _, role := range r.Roles {
			switch role {
			case programs.Argv, programs.Shell, programs.ShellJoin, programs.Code, programs.Delete,
				programs.Chmod, programs.Chown, programs.Upload, programs.URL, programs.Host, programs.Remote:
				return true
			}
		}
	}
	for _, o := range p.Options {
		switch o.Role {
		case programs.Shell, programs.Code:
			return true
		}
	}
	return false
}

// langByName returns the inline-program language of a catalog lang.
func langByName(name string) lang {
	switch name {
	case "python":
		return langPython
	case "node":
		return langNode
	case "perl":
		return langPerl
	case "ruby":
		return langRuby
	case "php":
		return langPHP
	case "lua":
		return langLua
	case "r":
		return langR
	case "julia":
		return langJulia
	case "applescript":
		return langAppleScript
	}
	return langNone
}

// argvText renders words as shell text that reads back as the same argv;
// a dynamic word becomes an unknown variable, which reads back as dynamic.
func argvText(args []Word) string {
	parts := make([]string, len(args))
	for i, a := range args {
		q, err := quote(a.Value)
		if a.Dynamic || err != nil {
			q = `"$__toolwall_runtime"`
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}

// quote quotes s for bash.
func quote(s string) (string, error) { return syntax.Quote(s, syntax.LangBash) }
