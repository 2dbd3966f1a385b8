package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// astGrep are the subcommands of ast-grep, whose binary is also named
// sg.
var astGrep = map[string]bool{"run": true, "scan": true, "test": true, "new": true, "lsp": true,
	"completions": true, "help": true, "-p": true, "--pattern": true, "-h": true, "--help": true, "-V": true, "--version": true}

// bodyOption returns the value of the option of cmd that holds a shell
// body (script -c, flock FILE -c): a "-c VALUE"/"--command VALUE"/
// "--command=VALUE" anywhere before "--".
func bodyOption(args []Word) (Word, bool) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Dynamic:
		case a.Value == "--":
			return Word{}, false
		case a.Value == "-c" || a.Value == "--command":
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(a.Value, "--command="):
			v := strings.TrimPrefix(a.Value, "--command=")
			return Word{Raw: a.Raw, Value: v, Prefix: v}, true
		}
	}
	return Word{}, false
}

// runBody re-reads a static shell body of cmd as `sh -c` does.
func (w *walker) runBody(body Word, cmd *Command, f frame) {
	if !body.Dynamic {
		w.runChild(body.Value, cmd, w.child(cmd, f, "sh -c"))
	}
}

// shellRunner handles commands that hand a string to a shell (Via "sh
// -c"): script -c CMD (script(1), util-linux), flock FILE -c CMD
// (flock(1)), sg GROUP [-c] CMD (sg(1)), bun exec SCRIPT (Bun Shell).
func (w *walker) shellRunner(cmd *Command, f frame) {
	switch cmd.Name {
	case "script", "flock":
		if body, ok := bodyOption(cmd.Args); ok {
			w.runBody(body, cmd, f)
		}
	case "sg":
		if astGrep[cmd.Arg(1)] {
			return // ast-grep's sg, not sg(1)
		}
		args := cmd.Args[1:]
		if len(args) > 0 && args[0].Value == "-" {
			args = args[1:]
		}
		if len(args) < 2 {
			return
		}
		args = args[1:]
		if args[0].Value == "-c" {
			args = args[1:]
		}
		if body, ok := joinStatic(args); ok && len(args) > 0 {
			w.runBody(Word{Value: body}, cmd, f)
		}
	case "bun":
		if len(cmd.Args) > 2 && cmd.Arg(1) == "exec" {
			w.runBody(cmd.Args[2], cmd, f)
		}
	case "at", "batch":
		w.atJob(cmd, f)
	case "tmux":
		if body, ok := tmuxBody(cmd.Args); ok {
			w.runBody(Word{Value: body}, cmd, f)
		}
	case "screen":
		if argv := screenArgv(cmd.Args); len(argv) > 0 {
			w.runBody(Word{Value: argvText(argv)}, cmd, f)
		}
	case "parallel", "sem":
		if body, ok := parallelBody(cmd.Args); ok {
			w.runBody(Word{Value: body}, cmd, f)
		}
	}
}

// argvText renders words as shell text that reads back as the same argv;
// a dynamic word becomes an unknown variable, which reads back as dynamic.
func argvText(args []Word) string {
	parts := make([]string, len(args))
	for i, a := range args {
		q, err := syntax.Quote(a.Value, syntax.LangBash)
		if a.Dynamic || err != nil {
			q = `"$__toolwall_runtime"`
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}

// tmuxBody returns the shell command a tmux invocation runs (tmux(1)):
// the -c COMMAND global option, or the command of new-session,
// new-window, split-window, respawn-pane/-window and run-shell (one word:
// a shell command; several: an argv), or the text send-keys types into a
// pane's shell (key names such as Enter dropped).
func tmuxBody(args []Word) (string, bool) {
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i].Value, "-"); i++ {
		switch args[i].Value {
		case "-c":
			if i+1 < len(args) && !args[i+1].Dynamic {
				return args[i+1].Value, true
			}
			return "", false
		case "-L", "-S", "-f", "-T":
			i++
		}
	}
	if i >= len(args) {
		return "", false
	}
	sub := args[i].Value
	switch sub {
	case "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
		"respawn-window", "respawnw", "run-shell", "run", "send-keys", "send":
	default:
		return "", false
	}
	rest := args[i+1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].Value, "-") && rest[0].Value != "-" {
		opt := rest[0].Value
		rest = rest[1:]
		if len(opt) == 2 && strings.ContainsRune("cefnstxylpFLSTN", rune(opt[1])) && len(rest) > 0 {
			rest = rest[1:]
		}
	}
	if sub == "send-keys" || sub == "send" {
		var keys []Word
		for _, k := range rest {
			switch k.Value {
			case "Enter", "C-m", "KPEnter", "C-j", "Space", "Tab":
				continue
			}
			keys = append(keys, k)
		}
		return joinStatic(keys)
	}
	switch len(rest) {
	case 0:
		return "", false
	case 1:
		if rest[0].Dynamic {
			return argvText(rest), true
		}
		return rest[0].Value, true
	}
	return argvText(rest), true
}

// screenArgv returns the command screen(1) starts: the words after its
// options (-S NAME and the other value options skipped).
func screenArgv(args []Word) []Word {
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i].Value, "-"); i++ {
		v := args[i].Value
		switch {
		case v == "-X" || v == "-Q" || v == "-ls" || v == "-list" || v == "-r" || v == "-R" || v == "-x" || v == "-wipe" || v == "-v" || v == "-version":
			return nil // a command for a running session, or no new one
		case len(v) >= 2 && !strings.HasPrefix(v, "--") && strings.ContainsRune("ScehpTts", rune(v[len(v)-1])):
			i++ // -S NAME, and bundles ending in a value option (-dmS NAME)
		}
	}
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// parallelBody returns the command GNU parallel runs for its first input:
// the command words, followed by the first ::: argument (or a dynamic
// word when arguments come from stdin or a file), with {} replaced.
func parallelBody(args []Word) (string, bool) {
	i := 1
	for ; i < len(args) && strings.HasPrefix(args[i].Value, "-"); i++ {
		switch args[i].Value {
		case "-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "-E", "-I",
			"--colsep", "-C", "--joblog", "--results", "--tmpdir", "--workdir", "-n", "-N", "-L", "-P", "--timeout":
			i++
		}
	}
	var cmdWords, input []Word
	for ; i < len(args); i++ {
		if v := args[i].Value; v == ":::" || v == "::::" || v == ":::+" || v == "::::+" {
			if v == ":::" && i+1 < len(args) {
				input = args[i+1 : i+2]
			}
			break
		}
		cmdWords = append(cmdWords, args[i])
	}
	if len(cmdWords) == 0 {
		return "", false // commands come from the input: the remote analyzer's case
	}
	arg := `"$__toolwall_runtime"`
	if len(input) == 1 {
		arg = argvText(input)
	}
	body, placed := argvText(cmdWords), false
	if strings.Contains(body, "{}") {
		body, placed = strings.ReplaceAll(body, "{}", arg), true
	}
	if !placed {
		body += " " + arg
	}
	return body, true
}

// atJob re-reads the static job text at/batch read on stdin (at(1)): it
// runs later under sh (Via "stdin"). -f FILE, and the list, remove and
// show modes (-l -r -d -c, atq, atrm) read no job from stdin.
func (w *walker) atJob(cmd *Command, f frame) {
	for _, a := range cmd.Args[1:] {
		if a.Dynamic || !strings.HasPrefix(a.Value, "-") {
			continue
		}
		if strings.ContainsAny(a.Value[1:], "flrdc") {
			return
		}
	}
	if text, ok := w.stdinText(cmd, 0); ok {
		c := w.child(cmd, f, "stdin")
		c.stdin, c.redirs = Stdin{}, outputRedirects(cmd.Redirects)
		w.runChild(text, cmd, c)
	}
}

// sshShort are ssh(1)'s short options that take a value (OpenSSH).
const sshShort = "BbcDEeFIiJLlmOoPpQRSWw"

// ssh re-reads the remote command of ssh (ssh(1): the words after the
// host joined by spaces, run by the remote user's shell), or the static
// text fed to its stdin when it has none, as Via "ssh" at Depth+1. The
// remote side runs in the remote home: for localhost (no other user
// named) that is Options.Home, elsewhere it is unknown, so ~ and $HOME
// are Dynamic and the directory is "". Privileged stays false: whether
// the remote user is root is not known. The remote shell may not be bash:
// a body that does not parse is one command with a Dynamic program.
func (w *walker) ssh(cmd *Command, f frame) {
	args := cmd.Args
	i := 1
	noCmd := false
	for ; i < len(args); i++ {
		a := args[i]
		if a.Dynamic || !strings.HasPrefix(a.Value, "-") || a.Value == "-" {
			break
		}
		if a.Value == "--" {
			i++
			break
		}
		for j := 1; j < len(a.Value); j++ {
			if a.Value[j] == 'N' {
				noCmd = true
			}
			if strings.IndexByte(sshShort, a.Value[j]) >= 0 {
				if j == len(a.Value)-1 {
					i++
				}
				break
			}
		}
	}
	if noCmd || i >= len(args) {
		return
	}
	host := args[i]
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
	}
	remote := args[i+1:]
	var body string
	switch {
	case len(remote) > 0:
		text, ok := joinStatic(remote)
		if !ok {
			return
		}
		body = text
	default:
		text, ok := w.stdinText(cmd, 0)
		if !ok {
			return
		}
		body = text
		c.stdin, c.redirs = Stdin{}, outputRedirects(cmd.Redirects)
	}
	w.runProgram(body, cwd, c)
}
