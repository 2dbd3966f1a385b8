package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"mvdan.cc/sh/v3/syntax"
)

// call converts one simple command, unwraps it, emits it, walks its
// substitutions and then whatever it runs in turn (function body, sh -c
// body, xargs / find tail...).
func (w *walker) call(ce *syntax.CallExpr, own []Redirect, subs []sub, f frame) *Command {
	var (
		assigns []string
		sourced []Word // BASH_ENV=<(…): read once the substitution is walked
	)
	for _, a := range ce.Assigns {
		aw := w.assignWord(a, &f, &subs)
		if procFile(aw) && len(ce.Args) > 0 {
			sourced = append(sourced, aw)
		} else {
			w.shellRun(aw, f)
		}
		if !aw.Dynamic {
			w.subscriptCode(aw.Value, f)
		}
		if aw.Dynamic {
			assigns = append(assigns, aw.Raw)
		} else {
			assigns = append(assigns, aw.Value)
		}
		if len(ce.Args) == 0 && a.Name != nil {
			w.taint(a.Name.Value, f.scope)
			if w.known[a] && !aw.Dynamic && len(aw.Value) <= maxValue {
				if f.scope.vars == nil {
					f.scope.vars = map[string]string{}
				}
				f.scope.vars[a.Name.Value] = strings.TrimPrefix(aw.Value, a.Name.Value+"=")
			}
		}
	}
	args := make([]Word, 0, len(ce.Args))
	first := 0 // words the command word expanded to
	for i, a := range ce.Args {
		w.usedVar = false
		n := len(args)
		args = w.arg(a, &f, &subs, args)
		if i == 0 {
			first = len(args)
		}
		if i == 0 && w.usedVar {
			// A program named through a script variable stays unresolved:
			// the indirection is itself worth a human's look (DESIGN 2).
			for j := n; j < len(args); j++ {
				args[j] = Word{Raw: args[j].Raw, Dynamic: true}
			}
		}
	}
	if w.err != nil {
		return nil
	}
	if len(args) == 0 {
		var cmd *Command
		if len(own) > 0 || len(assigns) > 0 {
			cmd = w.command(nil, f)
			cmd.Assigns = assigns
			w.finish(cmd, own, f)
			w.emit(cmd, f.feeds)
		}
		w.subs(subs, f)
		return cmd
	}
	for _, a := range args {
		if !a.Dynamic {
			w.subscriptCode(a.Value, f)
		}
	}
	cmd := w.command(args, f)
	cmd.Assigns = assigns
	cmd.Wrappers = append(cmd.Wrappers, f.wrappers...)
	if f.depth == 0 && f.src == w.script.Source {
		cmd.offset = int(ce.Pos().Offset())
	}
	cmd.Text = rawText(f.src, ce)
	w.unwrap(cmd)
	w.finish(cmd, own, f)
	w.emit(cmd, f.feeds)
	files := w.sourcedFiles(sourced, f)
	w.subsOf(cmd, subs, f)
	saved := w.procs
	w.procs = subs
	for _, x := range files {
		w.follow(x.cmd, x.f, true)
	}
	w.procs = saved
	if name, value, ok := w.aliasOf(ce, f); ok {
		w.expandAlias(cmd, ce, name, value, f)
		return cmd
	}
	w.procs = subs
	w.follow(cmd, f, true)
	if vals := w.candidatesOf(ce, f); len(vals) > 0 && first == 1 && args[0].Dynamic {
		// $cmd whose every value is written in the script: read each
		cmd.Candidates = vals
		for _, v := range vals {
			alt := w.command(append([]Word{{Raw: args[0].Raw, Value: v, Prefix: v}}, args[1:]...), f)
			alt.Assigns = assigns
			alt.Wrappers = append(alt.Wrappers, f.wrappers...)
			alt.Text = cmd.Text
			w.unwrap(alt)
			w.finish(alt, own, f)
			w.emit(alt, f.feeds)
			w.follow(alt, f, true)
		}
	}
	w.procs = saved
	return cmd
}

// command returns a command with the attributes of frame f.
func (w *walker) command(args []Word, f frame) *Command {
	return &Command{
		offset:     -1,
		Args:       args,
		Privileged: f.privileged,
		Cwd:        w.cwd,
		Depth:      f.depth,
		Via:        f.via,
		Parent:     f.parent,
		Background: f.background,
		Func:       f.fn,
		Pipeline:   f.pipeIdx,
		Piped:      f.piped,
		Remote:     f.remote,
		Mounts:     f.mounts,
	}
}

// finish sets Name, Redirects and Stdin once the argv is final.
func (w *walker) finish(c *Command, own []Redirect, f frame) {
	c.Name = commandName(c.Args)
	switch {
	case len(f.redirs) == 0:
		c.Redirects = own
	case len(own) == 0:
		c.Redirects = f.redirs
	default:
		c.Redirects = append(append([]Redirect(nil), own...), f.redirs...)
	}
	if in, ok := stdinOf(own, c.Cwd); ok {
		c.Stdin = in
	} else if in, ok := w.dupStdin(c, own); ok {
		c.Stdin = in
	} else {
		c.Stdin = f.stdin
	}
	c.Inv = invoke(c.Name, c.Args)
	c.Effects = effects(c)
}

// commandName is the lower-cased base name of Args[0], where its last
// path element is static.
func commandName(args []Word) string {
	if len(args) == 0 {
		return ""
	}
	if a := args[0]; a.Dynamic {
		// "$VIRTUAL_ENV/bin/pip": the folder is known only at run time,
		// the file it runs is not.
		i := strings.LastIndexByte(a.Suffix, '/')
		if i < 0 || i == len(a.Suffix)-1 || a.Glob {
			return ""
		}
		return baseName(a.Suffix[i:])
	}
	return baseName(args[0].Value)
}

func baseName(v string) string {
	if i := strings.LastIndexByte(v, '/'); i >= 0 && i < len(v)-1 {
		v = v[i+1:]
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c >= 'A' && c <= 'Z' {
			v = strings.ToLower(v)
			break
		}
	}
	if n := len(v) - len(".exe"); n > 0 && v[n:] == ".exe" {
		// Windows (Git Bash, MSYS, WSL calling Windows programs) runs
		// aws.exe as aws: the program is the one the catalog knows.
		v = v[:n]
	}
	return v
}

// abs makes p absolute against cwd; "" when that cannot be known.
func abs(p, cwd string) string {
	if p == "" || !path.IsAbs(p) && cwd == "" {
		return ""
	}
	return paths.Abs(p, cwd)
}

// plain reports whether the command runs in the current shell: no
// wrapper other than time, builtin or command.
func plain(c *Command) bool {
	for _, x := range c.Wrappers {
		if x != "time" && x != "builtin" && x != "command" {
			return false
		}
	}
	return true
}

// cd moves the walk's working directory (bash manual §4.1 cd, pushd, popd).
func (w *walker) cd(cmd *Command, f frame) {
	args := cmd.Args[1:]
	for len(args) > 0 && !args[0].Dynamic && len(args[0].Value) > 1 && args[0].Value[0] == '-' {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	switch {
	case cmd.Name == "popd":
		w.cwd = ""
	case len(args) == 0 && cmd.Name == "cd":
		if f.scope.homeSet {
			w.cwd = ""
		} else {
			w.cwd = w.opt.Home
		}
	case len(args) == 0, args[0].Dynamic, args[0].Value == "-",
		cmd.Name == "pushd" && (strings.HasPrefix(args[0].Value, "+") || strings.HasPrefix(args[0].Value, "-")):
		w.cwd = ""
	default:
		w.cwd = abs(args[0].Value, w.cwd)
	}
}

// child returns the frame of a new shell process run by cmd.
func (w *walker) child(cmd *Command, f frame, via string) frame {
	c := frame{
		scope:      newScope(f.scope),
		depth:      f.depth + 1,
		via:        via,
		parent:     cmd,
		background: cmd.Background,
		privileged: cmd.Privileged || cmd.Inv.Program() != nil && cmd.Inv.Program().Root().Privileged && !cmd.Inv.Program().Root().Wrapper,
		redirs:     cmd.Redirects,
		stdin:      cmd.Stdin,
		piped:      1,
		define:     f.define,
		feeds:      f.feeds,
		pos:        &positional{},
		remote:     f.remote || cmd.Remote,
		mounts:     cmd.Mounts,
	}
	if c.stdin.Kind == StdinSubstitute {
		c.stdin = Stdin{}
	}
	for _, a := range cmd.Assigns {
		if i := strings.IndexByte(a, '='); i > 0 {
			w.taint(strings.TrimSuffix(a[:i], "+"), c.scope)
		}
	}
	return c
}

// runChild re-parses body in a child process frame, in cmd's directory.
func (w *walker) runChild(body string, cmd *Command, c frame) {
	saved := w.cwd
	w.cwd = cmd.Cwd
	w.reparse(body, c)
	w.cwd = saved
}

// procText returns the output of the process substitution an operand
// names when the reader knows it (`bash <(echo 'rm -rf ~')`, `source
// <(printf …)`): dyn says it holds runtimeHole for parts only known at
// run time (`bash <(echo "$x")`). A static operand names a file the
// script wrote (see writtenText).
func (w *walker) procText(op Word, cwd string) (text string, dyn, ok bool) {
	if !op.Dynamic {
		text, ok := w.writtenText(op, cwd)
		return text, false, ok
	}
	for _, s := range w.procs {
		if s.via == "<()" && s.raw == op.Raw && s.last != nil && len(s.stmts) == 1 {
			return w.outputText(s.last, 0)
		}
	}
	return "", false, false
}

// noteWrites remembers a command whose output a redirect writes to a file
// named statically, so that a shell reading the file later in the script
// (bash f, source f, BASH_ENV=f) reads what it wrote.
func (w *walker) noteWrites(c *Command) {
	for _, r := range c.Redirects {
		if !r.Writes() || r.Op == "<>" || r.Fd != "" && r.Fd != "1" || r.Target.Dynamic {
			continue
		}
		p := abs(r.Target.Value, c.Cwd)
		if p == "" {
			continue
		}
		if w.written == nil {
			w.written = map[string][]*Command{}
		}
		if r.Op == ">>" || r.Op == "&>>" {
			w.written[p] = append(w.written[p], c)
		} else {
			w.written[p] = []*Command{c}
		}
	}
	if c.Name != "tee" {
		return
	}
	// tee writes its stdin to the files it names too (… | tee a.sh)
	for _, e := range c.Effects {
		if (e.Kind != Writes && e.Kind != Appends) || e.Path == "" || e.Remote {
			continue
		}
		if w.written == nil {
			w.written = map[string][]*Command{}
		}
		if e.Kind == Appends {
			w.written[e.Path] = append(w.written[e.Path], c)
		} else {
			w.written[e.Path] = []*Command{c}
		}
	}
}

// writtenText returns the text the script wrote to the file op names,
// where every command that wrote it printed static text.
func (w *walker) writtenText(op Word, cwd string) (string, bool) {
	cmds := w.written[abs(op.Value, cwd)]
	if len(cmds) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, c := range cmds {
		t, dyn, ok := w.outputText(c, 0)
		if !ok || dyn {
			return "", false
		}
		b.WriteString(t)
	}
	return b.String(), true
}

// stdinText returns the text a command reads on stdin when the reader
// knows it: a heredoc or here-string, the output of echo/printf (through
// cat), or of a process substitution redirected in (`sh < <(echo …)`).
// dyn says the text holds runtimeHole where a part only known at run time
// stood.
func (w *walker) stdinText(cmd *Command, n int) (text string, dyn, ok bool) {
	switch cmd.Stdin.Kind {
	case StdinHeredoc:
		if cmd.Stdin.Dynamic {
			if cmd.Stdin.code == "" {
				return "", false, false
			}
			return cmd.Stdin.code, true, true
		}
		return cmd.Stdin.Text, false, true
	case StdinPipe:
		return w.outputText(cmd.Stdin.From, n)
	case StdinFile:
		for i := len(cmd.Redirects) - 1; i >= 0; i-- {
			r := cmd.Redirects[i]
			if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
				if strings.HasPrefix(r.Target.Raw, "<(") {
					return w.procText(r.Target, cmd.Cwd)
				}
				break
			}
		}
	}
	return "", false, false
}

// outputText returns what up prints when the reader knows it: echo and
// printf of their words, cat of its known stdin. A word only known at run
// time is runtimeHole in the text, and dyn is set.
func (w *walker) outputText(up *Command, n int) (text string, dyn, ok bool) {
	if up == nil || n > 8 || len(up.Args) == 0 || up.Args[0].Dynamic {
		return "", false, false
	}
	args := up.Args[1:]
	for i, a := range args {
		if !a.Dynamic {
			continue
		}
		if !dyn {
			args = slices.Clone(args)
		}
		dyn = true
		c := a.codeText()
		args[i] = Word{Raw: a.Raw, Value: c, Prefix: c}
	}
	switch up.Name {
	case "echo":
		return echoText(args), dyn, true
	case "printf":
		text, ok := printfText(args)
		return text, dyn, ok
	case "tee":
		// tee copies its stdin to its standard output as well
		return w.stdinText(up, n+1)
	case "cat":
		if dyn {
			return "", false, false
		}
		for _, a := range args {
			if a.Value != "-" {
				return "", false, false
			}
		}
		return w.stdinText(up, n+1)
	}
	return "", false, false
}

// readCode re-reads shell text a shell runs in frame c: text the reader
// knows whole is parsed as the script it is; text with runtimeHole (dyn)
// is read as a program whose holes are Dynamic words, so that code built
// at run time gives a command whose program is Dynamic.
func (w *walker) readCode(text string, dyn bool, cmd *Command, c frame) {
	if dyn {
		w.runProgram(text, cmd.Cwd, c)
		return
	}
	w.runChild(text, cmd, c)
}

// eval re-parses its arguments joined by spaces in the current shell
// (Via "eval"): a cd in the body moves the caller's directory.
func (w *walker) eval(cmd *Command, f frame) {
	args := cmd.Args[1:]
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	body, ok := joinStatic(args)
	c := f
	c.depth++
	c.via = "eval"
	c.parent = cmd
	c.privileged = cmd.Privileged
	c.background = cmd.Background
	c.redirs = cmd.Redirects
	c.stdin = cmd.Stdin
	c.wrappers = nil
	if !ok {
		// code built at run time: its static text is read, what is only
		// known then is Dynamic (eval "$r" runs a Dynamic program)
		w.runProgram(codeJoin(args), cmd.Cwd, c)
		return
	}
	w.reparse(body, c)
}

// codeJoin joins words by spaces as code a shell re-reads (Word.codeText).
func codeJoin(args []Word) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.codeText())
	}
	return b.String()
}

// trap re-parses a trap action (Via "trap"): it runs later in this shell.
func (w *walker) trap(cmd *Command, f frame) {
	args := cmd.Args[1:]
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) < 2 || !args[0].Dynamic && (args[0].Value == "-" || strings.HasPrefix(args[0].Value, "-")) {
		return
	}
	c := f
	c.depth++
	c.via = "trap"
	c.parent = cmd
	c.redirs, c.stdin, c.wrappers = nil, Stdin{}, nil
	saved := w.cwd
	if args[0].Dynamic {
		w.runProgram(args[0].codeText(), w.cwd, c) // trap "$x" EXIT
	} else {
		w.reparse(args[0].Value, c)
	}
	w.cwd = saved
}

// source re-parses static stdin text read by `source /dev/stdin` and the
// static output of `source <(echo …)`.
func (w *walker) source(cmd *Command, f frame) {
	if len(cmd.Args) < 2 {
		return
	}
	text, dyn, ok := w.procText(cmd.Args[1], cmd.Cwd)
	if !ok {
		if cmd.Args[1].Dynamic || !isStdinFile(cmd.Args[1].Value) || cmd.Args[1].Value == "-" {
			return
		}
		text, dyn, ok = w.stdinText(cmd, 0)
	}
	if !ok {
		return
	}
	c := f
	c.depth++
	c.via = "stdin"
	c.parent = cmd
	c.redirs, c.stdin, c.wrappers = nil, Stdin{}, nil
	if dyn {
		w.runProgram(text, cmd.Cwd, c)
		return
	}
	w.reparse(text, c)
}

// placeholder makes a word holding the replacement string r Dynamic, with
// Prefix the text before r and r removed from Value.
func placeholder(a Word, r string) Word {
	if a.Dynamic {
		return a
	}
	k := strings.Index(a.Value, r)
	if k < 0 {
		return a
	}
	a.Dynamic = true
	a.Prefix = a.Value[:k]
	// in code a shell re-reads (sh -c 'rm {}') the item is one word
	a.code = strings.ReplaceAll(a.Value, r, `"`+runtimeHole+`"`)
	a.Value = strings.ReplaceAll(a.Value, r, "")
	return a
}

// tail emits a command run by another one (xargs, find -exec, watch -x,
// uv run, docker run, …): it has its own argv, is unwrapped and followed,
// but never calls a shell function. remote and mounts say it runs on
// another host or in a container with those host paths mounted.
func (w *walker) tail(parent *Command, args []Word, via, cwd string, f frame, remote bool, mounts []Mount) {
	tf := f.nested(via)
	if tf.tails++; tf.tails > w.opt.MaxTails {
		w.fail(&LimitError{Limit: "depth", Max: w.opt.MaxTails})
		return
	}
	tf.feeds = f.feeds
	tf.parent = parent
	tf.privileged = parent.Privileged && !remote
	tf.background = parent.Background
	tf.remote = f.remote || remote
	if remote {
		tf.mounts = mounts
	}
	saved := w.cwd
	w.cwd = cwd
	t := w.command(args, tf)
	t.Text = rawJoin(args)
	w.unwrap(t)
	w.finish(t, nil, tf)
	t.Stdin = Stdin{Kind: StdinSubstitute}
	w.emit(t, tf.feeds)
	w.follow(t, tf, false)
	w.cwd = saved
}

func joinStatic(args []Word) (string, bool) {
	var b strings.Builder
	for i, a := range args {
		if a.Dynamic {
			return "", false
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
	}
	return b.String(), true
}

// echoText is what bash's echo builtin prints for args.
func echoText(args []Word) string {
	nl, esc := true, false
	for len(args) > 0 && isEchoOpt(args[0].Value) {
		for _, c := range args[0].Value[1:] {
			switch c {
			case 'n':
				nl = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
		args = args[1:]
	}
	s, _ := joinStatic(args)
	if esc {
		var stop bool
		s, stop = decodeEcho(s)
		if stop {
			return s
		}
	}
	if nl {
		s += "\n"
	}
	return s
}

func isEchoOpt(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	for _, c := range v[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

// decodeEcho decodes echo -e / printf %b escapes; stop reports \c.
func decodeEcho(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'c' {
			return b.String(), true
		}
		d, n := escape(s[i+1:], true)
		if n == 0 {
			b.WriteByte('\\')
			continue
		}
		b.WriteString(d)
		i += n
	}
	return b.String(), false
}

// printfText is what printf prints for args (format reused while
// arguments remain); false for printf -v, which prints nothing.
func printfText(args []Word) (string, bool) {
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0].Value, "-v") {
		return "", false
	}
	format := args[0].Value
	rest := args[1:]
	var b strings.Builder
	for n := 0; n <= len(args); n++ {
		used, stop := printfOnce(&b, format, rest)
		rest = rest[used:]
		if stop || used == 0 || len(rest) == 0 {
			break
		}
	}
	return b.String(), true
}

func printfOnce(b *strings.Builder, format string, args []Word) (used int, stop bool) {
	next := func() string {
		if used < len(args) {
			used++
			return args[used-1].Value
		}
		return ""
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '\\' && i+1 < len(format):
			if format[i+1] == 'c' {
				return used, true
			}
			d, n := escape(format[i+1:], false)
			if n == 0 {
				b.WriteByte('\\')
				continue
			}
			b.WriteString(d)
			i += n
		case c == '%' && i+1 < len(format):
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0'.*123456789", format[j]) >= 0 {
				if format[j] == '*' {
					next()
				}
				j++
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				return used, false
			}
			switch format[j] {
			case '%':
				b.WriteByte('%')
			case 'b':
				s, st := decodeEcho(next())
				b.WriteString(s)
				if st {
					return used, true
				}
			case 'c':
				if s := next(); s != "" {
					b.WriteByte(s[0])
				}
			default:
				b.WriteString(next())
			}
			i = j
		default:
			b.WriteByte(c)
		}
	}
	return used, false
}

// rawJoin joins the source text of words by spaces.
func rawJoin(args []Word) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Raw
	}
	return strings.Join(parts, " ")
}

// dupStdin returns the standard input a `<&N` of own gives c when the
// reader knows what descriptor N holds: a heredoc or here-string opened
// on N by the same command (bash 3<<<'…' <&3) or by an earlier bare
// `exec N<<<'…'`, which keeps it open for the rest of the script. A bare
// exec's such descriptors are remembered here.
func (w *walker) dupStdin(c *Command, own []Redirect) (Stdin, bool) {
	opened := func(r Redirect) (string, Stdin, bool) {
		if r.Fd == "" || r.Fd == "0" || (r.Op != "<<<" && r.Op != "<<" && r.Op != "<<-") {
			return "", Stdin{}, false
		}
		d := r
		d.Fd = ""
		in, ok := stdinOf([]Redirect{d}, c.Cwd)
		return r.Fd, in, ok
	}
	if len(c.Args) == 1 && c.Name == "exec" {
		for _, r := range own {
			if fd, in, ok := opened(r); ok {
				if w.fds == nil {
					w.fds = map[string]Stdin{}
				}
				w.fds[fd] = in
			}
		}
		return Stdin{}, false
	}
	var in Stdin
	found := false
	here := map[string]Stdin{}
	for _, r := range own {
		if fd, st, ok := opened(r); ok {
			here[fd] = st
			continue
		}
		if r.Op != "<&" || (r.Fd != "" && r.Fd != "0") || r.Target.Dynamic {
			continue
		}
		if st, ok := here[r.Target.Value]; ok {
			in, found = st, true
		} else if st, ok := w.fds[r.Target.Value]; ok {
			in, found = st, true
		}
	}
	return in, found
}
