package shell

import (
	"path"
	"strings"
	"sync"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// Default bounds of Options (bounded work on
// untrusted input).
const (
	DefaultMaxBytes    = 128 << 10
	DefaultMaxDepth    = 8
	DefaultMaxCommands = 4096
	DefaultMaxNodes    = 200000
	// DefaultMaxTails bounds how many runners may be nested, each running
	// the next (xargs xargs …, find -exec find -exec …, uv run docker run
	// …): every one re-reads the rest of the words, so the work grows
	// with the square of the nesting.
	DefaultMaxTails = 16

	// maxValue bounds a variable value the reader resolves from the
	// script's own assignments; maxExpanded bounds the bytes of resolved
	// values in one Read. Past them a word is Dynamic (v=$v$v… cannot
	// grow without end).
	maxValue    = 4 << 10
	maxExpanded = 1 << 20

	// maxNesting bounds parenthesis nesting in the source: the parser's
	// time grows with the square of it ("((((…" is read both as subshells
	// and arithmetic), and no command an agent needs nests this deep.
	maxNesting = 512
	// maxSubstNesting bounds the nesting of command and process
	// substitutions: the reading of a word grows with the square of it
	// (each level's text holds the levels inside it: 500 nested $(…)
	// took 45 to 80 ms of CPU).
	maxSubstNesting = 128
)

// parsers pools bash parsers, zshParsers zsh ones: a Parser is reusable
// but not concurrent-safe.
var (
	parsers = sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
	}}
	zshParsers = sync.Pool{New: func() any {
		return syntax.NewParser(syntax.Variant(syntax.LangZsh), syntax.KeepComments(false))
	}}
)

// Read parses src as bash (mvdan.cc/sh/v3/syntax, LangBash) and returns
// every command that would execute, flattened in source order, with
// wrappers unwrapped, quotes removed and the static expansions resolved
// that opt allows (see [Word]). Bodies of sh -c, eval, trap, heredocs and
// static text piped into a shell are re-parsed (Depth+1); xargs and find
// -exec tails are emitted after the command that runs them.
//
// Empty or blank src yields an empty Script. Unparseable input (at any
// depth) is a *SyntaxError; input beyond a bound of opt is a *LimitError.
// Read is safe for concurrent use and never touches the file system.
func Read(src string, opt Options) (*Script, error) {
	opt = opt.withDefaults()
	s := &Script{Source: src}
	if len(src) > opt.MaxBytes {
		return nil, &LimitError{Limit: "bytes", Max: opt.MaxBytes}
	}
	if strings.TrimSpace(src) == "" {
		return s, nil
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	w := &walker{opt: opt, script: s, parser: p, cwd: opt.Cwd, active: map[string]bool{}}
	w.out = &s.Commands
	if opt.Zsh {
		z := zshParsers.Get().(*syntax.Parser)
		defer zshParsers.Put(z)
		w.parser = z
	}
	file, text, err := w.parse(src, 0)
	w.parser = p
	if err != nil {
		return nil, err
	}
	f := frame{src: text, scope: newScope(nil), piped: 1, pos: &positional{}}
	w.known = knownVars(file)
	if !opt.Zsh {
		w.top = file
	}
	w.stmts(file.Stmts, f)
	if w.err != nil {
		return nil, w.err
	}
	if !opt.NoDryRun && needsDryRun(s, file) {
		s.DryRun = "source too large"
		if len(text) <= dryMaxSource {
			// The dry run gets a tree of its own: the interpreter may leave a
			// goroutine running past its deadline (a process substitution),
			// and the run marks up the tree it is given.
			calls, err := dryRunSource(p, text, opt)
			if err != nil {
				s.DryRun = err.Error()
			} else {
				s.DryRun = "read"
				w.cwd = opt.Cwd
				w.mergeDry(calls, f, branchFree(file))
				if w.err != nil {
					return nil, w.err
				}
			}
		}
	}
	return s, nil
}

func (o Options) withDefaults() Options {
	if o.Cwd == "" {
		o.Cwd = "."
	}
	if o.User == "" && o.Home != "" {
		o.User = path.Base(o.Home)
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxCommands <= 0 {
		o.MaxCommands = DefaultMaxCommands
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	if o.MaxTails <= 0 {
		o.MaxTails = DefaultMaxTails
	}
	return o
}

// nesting returns the deepest parenthesis nesting of src, quotes ignored.
func nesting(src string) (parens, subst int) {
	// opened[i] says whether the parenthesis open at depth i+1 began a
	// substitution ($(, <(, >(); inSubst counts those open.
	var opened []bool
	inSubst := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(':
			s := i > 0 && (src[i-1] == '$' || src[i-1] == '<' || src[i-1] == '>')
			opened = append(opened, s)
			parens = max(parens, len(opened))
			if s {
				inSubst++
				subst = max(subst, inSubst)
			}
		case ')':
			if n := len(opened); n > 0 {
				if opened[n-1] {
					inSubst--
				}
				opened = opened[:n-1]
			}
		}
	}
	return parens, subst
}

// walker holds the state of one Read.
type walker struct {
	// known are the assignment nodes whose values the walk records in
	// scope.vars (see knownVars).
	// usedVar is set when a word resolved a script variable (see
	// knownVars); call uses it to keep a command word unresolved.
	usedVar bool
	known   map[*syntax.Assign]bool
	// top is the top-level script (nil for zsh); cands are its variables
	// that only ever hold literal values (see candidateVars), found once
	// (candsRead) when a command word needs them.
	top       *syntax.File
	cands     map[string]*candidate
	candsRead bool
	opt       Options
	script    *Script
	// fds are the heredocs and here-strings a bare exec left open on a
	// descriptor (exec 3<<<'…'), for a later `<&3` (see dupStdin).
	fds    map[string]Stdin
	parser *syntax.Parser
	// out is where emitted commands go: Script.Commands, or a Func's
	// Calls while a definition is walked.
	out *[]*Command
	// cwd is the working directory at the current point of the walk; ""
	// when unknown.
	cwd    string
	nodes  int
	ncmds  int
	parsed int
	// expanded counts the bytes of resolved variable values (maxExpanded).
	expanded int
	// active holds the functions whose bodies are being expanded
	// (recursion guard).
	active map[string]bool
	// hooks holds the definitions of hook functions (hookFuncs) whose
	// bodies are being walked as the shell calls them.
	hooks map[*syntax.FuncDecl]bool
	// aliasing holds the aliases being expanded: an alias is not
	// expanded again inside its own text (bash manual §6.6).
	aliasing map[string]bool
	// procs are the substitutions of the command being followed, for a
	// shell or source reading a <(…) file.
	procs []sub
	// written are the commands whose output went to each file named
	// statically, in order (see noteWrites).
	written map[string][]*Command
	err     error
}

// scope is what one shell process knows: its functions and whether the
// script reassigned the variables the reader would otherwise resolve.
type scope struct {
	funcs map[string]funcDef
	// aliases maps alias names to their text (not inherited by child
	// shells).
	aliases                  map[string]string
	homeSet, userSet, pwdSet bool
	// vars are the values of variables the script assigned in ways the
	// reader can follow (see knownVars); only the top-level scope has them.
	vars map[string]string
}

type funcDef struct {
	decl *syntax.FuncDecl
	src  string
}

// newScope returns the scope of a new shell process; variable taint is
// inherited from parent (an exported HOME reaches the child).
func newScope(parent *scope) *scope {
	s := &scope{}
	if parent != nil {
		s.homeSet, s.userSet, s.pwdSet = parent.homeSet, parent.userSet, parent.pwdSet
	}
	return s
}

// frame is the context the walk passes down to the commands it emits.
type frame struct {
	src        string
	scope      *scope
	depth      int
	via        string
	parent     *Command
	background bool
	privileged bool
	fn         string
	redirs     []Redirect
	stdin      Stdin
	pipeIdx    int
	piped      int
	// wrappers are pending wrapper names from a `time` clause.
	wrappers []string
	// define is set while a function definition is walked for Func.Calls:
	// calls are then not expanded.
	define bool
	// feeds collects the commands whose stdout reaches the pipe this
	// statement writes to (Stdin.Feeds of the next element); nil outside
	// pipelines and inside substitutions.
	feeds *[]*Command
	// pos are the positional parameters of the shell or function running
	// the statement.
	pos *positional
	// remote is set for commands that run on another host or in a
	// container; mounts map host paths into that container.
	remote bool
	mounts []Mount
	// tails counts the runners this frame is nested in (MaxTails).
	tails int
}

// nested returns the frame for commands reached through a substitution
// or a re-parse: same shell attributes, fresh pipeline and redirects.
func (f frame) nested(via string) frame {
	return frame{
		src:        f.src,
		scope:      f.scope,
		depth:      f.depth,
		via:        via,
		background: f.background,
		privileged: f.privileged,
		fn:         f.fn,
		piped:      1,
		define:     f.define,
		pos:        f.pos,
		remote:     f.remote,
		mounts:     f.mounts,
		tails:      f.tails,
	}
}

func (w *walker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// tick counts one syntax node against MaxNodes.
func (w *walker) tick() bool {
	if w.err != nil {
		return false
	}
	w.nodes++
	if w.nodes > w.opt.MaxNodes {
		w.fail(&LimitError{Limit: "nodes", Max: w.opt.MaxNodes})
		return false
	}
	return true
}

// parse parses one source at the given re-parse depth.
func (w *walker) parse(src string, depth int) (*syntax.File, string, error) {
	if depth > w.opt.MaxDepth {
		return nil, "", &LimitError{Limit: "depth", Max: w.opt.MaxDepth}
	}
	w.parsed += len(src)
	if len(src) > w.opt.MaxBytes || w.parsed > w.opt.MaxBytes*w.opt.MaxDepth {
		return nil, "", &LimitError{Limit: "bytes", Max: w.opt.MaxBytes}
	}
	parens, subst := nesting(src)
	if parens > maxNesting {
		return nil, "", &LimitError{Limit: "depth", Max: maxNesting}
	}
	if subst > maxSubstNesting {
		return nil, "", &LimitError{Limit: "depth", Max: maxSubstNesting}
	}
	src = commentEnds(src)
	f, text, err := w.readings(src, true)
	if err == nil {
		return f, text, nil
	}
	// bash reads "((" as an arithmetic command (and "$((" as an arithmetic
	// expansion) only where it finds the matching "))"; elsewhere it reads
	// the text again as nested subshells ("( (", "$( ("), and dash always
	// does. The parser decides at once and fails, so a text it refuses is
	// read the way those shells fall back to. (bash reads a heredoc there
	// in a way of its own, which is left unread.)
	if alt := spaceDoubleParens(src, true); alt != src {
		if g, altText, altErr := w.readings(alt, false); altErr == nil {
			return g, altText, nil
		}
	}
	// Text handed to a shell inside the command (sh -c, a heredoc fed to
	// sh) whose heredoc is never closed: that shell takes the rest as its
	// body and runs it. (At the top the gate asks about it instead.)
	if delim, ok := UnclosedHeredoc(err); ok && depth > 0 {
		alt := text + "\n" + delim + "\n"
		if g, altErr := w.parser.Parse(strings.NewReader(alt), ""); altErr == nil {
			return g, alt, nil
		}
	}
	return nil, "", &SyntaxError{Depth: depth, Err: err}
}

// readings parses src, and where the parser refuses a form bash takes,
// src rewritten to the same reading (see negations and, with heredocs,
// delimiterParen); it returns the text parsed and the last error.
func (w *walker) readings(src string, heredocs bool) (*syntax.File, string, error) {
	f, err := w.parser.Parse(strings.NewReader(src), "")
	for range 16 {
		if err == nil {
			return f, src, nil
		}
		alt, ok := negations(src, err)
		if !ok && heredocs {
			alt, ok = delimiterParen(src, err)
		}
		if !ok {
			break
		}
		src = alt
		f, err = w.parser.Parse(strings.NewReader(src), "")
	}
	if err == nil {
		return f, src, nil
	}
	return nil, src, err
}

// negations returns src rewritten, at the place err points to, to a
// reading the parser takes and bash runs the same way: bash's grammar
// lets a pipeline be negated more than once ("! ! cmd", an even number
// cancels out), lets "!" follow "time" or "time -p" ("time ! cmd" is
// "! time cmd") and reads on past newlines and comments after "!"; the
// parser refuses all three. The text keeps its length, so that offsets
// into it hold. (The parser also takes "]]" right before a closing
// backquote for part of a word: a space is put between them.)
func negations(src string, err error) (string, bool) {
	e, ok := err.(syntax.ParseError)
	if !ok {
		return "", false
	}
	at := int(e.Pos.Offset())
	if e.Text == "test operator words must consist of a single literal" && strings.HasPrefix(src[at:], "]]`") {
		// "]]" closing a test at the end of backquotes
		return src[:at+2] + " " + src[at+2:], true
	}
	if at >= len(src) || src[at] != '!' {
		return "", false
	}
	b := []byte(src)
	switch e.Text {
	case "`!` cannot form a statement alone":
		// bash reads on past newlines and comments to the command
		i := at + 1
		for i < len(b) && strings.IndexByte(" \t\n#", b[i]) >= 0 {
			if b[i] == '#' {
				for i < len(b) && b[i] != '\n' {
					b[i] = ' '
					i++
				}
				continue
			}
			b[i] = ' '
			i++
		}
		if i == len(b) {
			return "", false
		}
	case "cannot negate a command multiple times":
		next := at + 1 + len(src[at+1:]) - len(strings.TrimLeft(src[at+1:], " \t"))
		if next == at+1 || next >= len(src) || src[next] != '!' {
			return "", false
		}
		b[at], b[next] = ' ', ' '
	case "`!` can only be used in full statements":
		// the words before are "time" or "time -p", at a pipeline's start
		before := strings.TrimRight(src[:at], " \t")
		start := strings.LastIndex(before, "time")
		if start < 0 || strings.TrimSpace(before[start:]) != "time" && strings.Join(strings.Fields(before[start:]), " ") != "time -p" {
			return "", false
		}
		if start > 0 && !strings.ContainsRune(" \t\n;&|(){}!`", rune(src[start-1])) {
			return "", false
		}
		moved := "! " + before[start:]
		copy(b[start:], moved+strings.Repeat(" ", at+1-start-len(moved)))
	default:
		return "", false
	}
	return string(b), true
}

// delimiterParen returns src with a newline put between a heredoc's
// delimiter and the ")" after it on the same line, when err says the
// heredoc is not closed: inside $(…) and <(…) bash ends the heredoc at
// that line ("$(cat <<E\nhi\nE)"), the parser does not.
func delimiterParen(src string, err error) (string, bool) {
	delim, ok := UnclosedHeredoc(err)
	if !ok {
		return "", false
	}
	var b strings.Builder
	found := false
	for line := range strings.SplitAfterSeq(src, "\n") {
		body := strings.TrimLeft(line, "\t")
		if strings.HasPrefix(body, delim) && strings.HasPrefix(body[len(delim):], ")") {
			cut := len(line) - len(body) + len(delim)
			b.WriteString(line[:cut] + "\n" + line[cut:])
			found = true
			continue
		}
		b.WriteString(line)
	}
	return b.String(), found
}

// commentEnds returns src with the backslash dropped that ends a comment
// line: bash ends a comment at the newline, backslash or not, while the
// parser takes "\\\n" there as a line continuation and reads the next line
// into the comment ("echo a # note \\\nrm -rf ~" runs rm in bash).
func commentEnds(src string) string {
	if !strings.Contains(src, "\\\n") || strings.IndexByte(src, '#') < 0 {
		return src
	}
	return rewrite(src, func(line string) string {
		if n := len(line) - len(strings.TrimRight(line, "\\")); n%2 == 1 {
			return line[:len(line)-1]
		}
		return line
	}, nil)
}

// spaceDoubleParens returns src with every "((" outside single quotes,
// comments and backslash escapes spaced to "( (" — the reading bash falls
// back to when "((…" is not closed by "))", and the only reading dash has
// — and with dollar, every "$((" to "$( (" as bash falls back to.
func spaceDoubleParens(src string, dollar bool) string {
	if !strings.Contains(src, "((") {
		return src
	}
	return rewrite(src, nil, func(prev byte, double bool) bool {
		return (prev != '$' || dollar) && (!double || prev == '$')
	})
}

// rewrite copies src as the shell splits it: outside quotes and
// backslash escapes, each comment (from a # that starts a word to the end
// of its line) goes through comment, and each "((" for which spaced (given
// the byte before it and whether it stands in double quotes) says so is
// spaced to "( (". A command substitution or backquoted command inside
// double quotes is code again, with comments of its own. A nil function
// changes nothing.
func rewrite(src string, comment func(line string) string, spaced func(prev byte, double bool) bool) string {
	var b strings.Builder
	b.Grow(len(src) + 8)
	// ctxs are the nested contexts: the script, a double-quoted string,
	// a $(…) or `…` command; a $(…) counts its open parentheses and the
	// case clauses whose patterns end in ")"
	type context struct {
		kind         byte // 0 script, '"', '(' for $(…), '`'
		depth, cases int
	}
	ctxs := []context{{}}
	var single, ansi, word, dollar bool
	for i := 0; i < len(src); i++ {
		c := src[i]
		cur := &ctxs[len(ctxs)-1]
		wasDollar := dollar
		dollar = false
		switch {
		case single:
			single = c != '\''
		case ansi && c == '\\' && i+1 < len(src):
			b.WriteByte(c)
			i++
			c = src[i]
		case ansi:
			ansi = c != '\''
		case c == '\\' && i+1 < len(src):
			b.WriteByte(c)
			i++
			c = src[i]
		case cur.kind == '"':
			switch {
			case c == '"':
				ctxs = ctxs[:len(ctxs)-1]
			case c == '`':
				ctxs = append(ctxs, context{kind: '`'})
			case c == '(' && wasDollar:
				if spaced != nil && i+1 < len(src) && src[i+1] == '(' && spaced('$', true) {
					b.WriteString("( ")
					ctxs = append(ctxs, context{kind: '('})
					word = false
					continue
				}
				ctxs = append(ctxs, context{kind: '('})
			}
			dollar = c == '$'
		case c == '\'':
			if wasDollar {
				ansi = true
			} else {
				single = true
			}
		case c == '"':
			ctxs = append(ctxs, context{kind: '"'})
		case c == '`':
			if cur.kind == '`' {
				ctxs = ctxs[:len(ctxs)-1]
			} else {
				ctxs = append(ctxs, context{kind: '`'})
			}
		case c == '#' && !word:
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			line := src[i : i+j]
			if comment != nil {
				line = comment(line)
			}
			b.WriteString(line)
			i += j - 1
			word = true
			continue
		case c == '$':
			dollar = true
		case c == '(':
			if wasDollar {
				ctxs = append(ctxs, context{kind: '('})
			} else {
				cur.depth++
			}
			if spaced != nil && i+1 < len(src) && src[i+1] == '(' {
				var prev byte
				if i > 0 {
					prev = src[i-1]
				}
				if spaced(prev, false) {
					b.WriteString("( ")
					word = false
					continue
				}
			}
		case c == ')':
			switch {
			case cur.depth > 0:
				cur.depth--
			case cur.cases > 0: // a pattern's end
			case cur.kind == '(':
				ctxs = ctxs[:len(ctxs)-1]
			}
		case !word && cur.kind == '(' && keyword(src[i:], "case"):
			cur.cases++
		case !word && cur.kind == '(' && keyword(src[i:], "esac") && cur.cases > 0:
			cur.cases--
		}
		b.WriteByte(c)
		word = !strings.ContainsRune(" \t\n;&|()<>", rune(c))
	}
	return b.String()
}

// keyword reports whether s starts with the reserved word kw.
func keyword(s, kw string) bool {
	return strings.HasPrefix(s, kw) && (len(s) == len(kw) || strings.IndexByte(" \t\n;&|()<>", s[len(kw)]) >= 0)
}

// reparse parses body as a nested script and walks it in f (whose depth
// is already the body's depth).
func (w *walker) reparse(body string, f frame) {
	if w.err != nil {
		return
	}
	file, text, err := w.parse(body, f.depth)
	if err != nil {
		w.fail(err)
		return
	}
	f.src = text
	w.stmts(file.Stmts, f)
}

// emit appends c to the output and, unless its stdout goes to a file, to
// the pipe collector feeds.
func (w *walker) emit(c *Command, feeds *[]*Command) {
	w.ncmds++
	if w.ncmds > w.opt.MaxCommands {
		w.fail(&LimitError{Limit: "commands", Max: w.opt.MaxCommands})
		return
	}
	*w.out = append(*w.out, c)
	w.noteWrites(c)
	if feeds != nil && !stdoutToFile(c.Redirects) {
		*feeds = append(*feeds, c)
	}
}

// stdoutToFile reports whether a redirection in rs sends fd 1 to a file
// (> >> >| &> &>> >&FILE 1<>), so that the command's output reaches no
// pipe; /dev/stdout and /dev/fd/1 keep it on the pipe.
func stdoutToFile(rs []Redirect) bool {
	for _, r := range rs {
		if r.Fd != "" && r.Fd != "1" || !r.Writes() && r.Op != ">&" || r.Op == "<>" && r.Fd == "" {
			continue
		}
		t := r.Target.Value
		if r.Op == ">&" && (r.Target.Dynamic || t == "-" || strings.Trim(t, "0123456789") == "") {
			continue
		}
		if !r.Target.Dynamic && (t == "/dev/stdout" || t == "/dev/fd/1" || t == "/proc/self/fd/1") {
			continue
		}
		return true
	}
	return false
}

// stmts walks a list; it returns the last command of the last statement.
func (w *walker) stmts(list []*syntax.Stmt, f frame) *Command {
	var last *Command
	for _, s := range list {
		if w.err != nil {
			return last
		}
		last = w.stmt(s, f)
	}
	return last
}

// sub is a command or process substitution waiting to be walked after the
// command whose word holds it.
type sub struct {
	stmts []*syntax.Stmt
	via   string
	// raw is the source text of a process substitution, and last the
	// last command it ran once walked: `bash <(echo …)` reads its output.
	raw  string
	last *Command
}

func (w *walker) subs(list []sub, f frame) {
	w.subsOf(nil, list, f)
}

// subsOf walks the substitutions of cmd (nil for those of a compound
// command or an assignment). A >(…) of cmd reads on its standard input
// what cmd writes to it: what tee copies (curl … | tee >(sh)), what a
// redirection sends (echo … > >(sh)).
func (w *walker) subsOf(cmd *Command, list []sub, f frame) {
	for i := range list {
		if w.err != nil {
			return
		}
		saved := w.cwd
		nf := f.nested(list[i].via)
		if cmd != nil && strings.HasPrefix(list[i].raw, ">(") {
			nf.stdin = Stdin{Kind: StdinPipe, From: cmd, Feeds: []*Command{cmd}}
		}
		list[i].last = w.stmts(list[i].stmts, nf)
		w.cwd = saved
	}
}

func (w *walker) stmt(s *syntax.Stmt, f frame) *Command {
	if !w.tick() {
		return nil
	}
	outer := f
	background := s.Background || s.Coprocess || s.Disown
	if background {
		f.background = true
		saved := w.cwd
		defer func() { w.cwd = saved }()
	}
	var subs []sub
	own := w.redirects(s.Redirs, &f, &subs)
	var last *Command
	switch c := s.Cmd.(type) {
	case nil:
		if len(own) > 0 {
			last = w.command(nil, f)
			w.finish(last, own, f)
			w.emit(last, f.feeds)
		}
		w.subs(subs, f)
		return last
	case *syntax.CallExpr:
		return w.call(c, own, subs, f)
	}
	if len(own) > 0 {
		f.redirs = append(append([]Redirect(nil), own...), f.redirs...)
		if in, ok := stdinOf(own, w.cwd); ok {
			f.stdin = in
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		last = w.binary(c, f)
	case *syntax.Block:
		last = w.stmts(c.Stmts, f)
	case *syntax.Subshell:
		saved := w.cwd
		last = w.stmts(c.Stmts, f)
		w.cwd = saved
	case *syntax.IfClause:
		last = w.ifClause(c, f)
	case *syntax.WhileClause:
		w.stmts(c.Cond, f)
		last = w.stmts(c.Do, f)
	case *syntax.ForClause:
		var ls []sub
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			w.taint(l.Name.Value, f.scope)
			for _, it := range l.Items {
				w.word(it, &f, &ls, false)
			}
		case *syntax.CStyleLoop:
			w.arith(l.Init, &f, &ls)
			w.arith(l.Cond, &f, &ls)
			w.arith(l.Post, &f, &ls)
		}
		w.subs(ls, outer)
		last = w.stmts(c.Do, f)
	case *syntax.CaseClause:
		var ls []sub
		w.word(c.Word, &f, &ls, false)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.word(p, &f, &ls, false)
			}
		}
		w.subs(ls, outer)
		for _, it := range c.Items {
			last = w.stmts(it.Stmts, f)
		}
	case *syntax.FuncDecl:
		w.funcDecl(c, f)
	case *syntax.ArithmCmd:
		var ls []sub
		w.arith(c.X, &f, &ls)
		w.subs(ls, outer)
		w.arithAsSubshells(c, f)
	case *syntax.TestClause:
		var ls []sub
		w.test(c.X, &f, &ls)
		w.subs(ls, outer)
	case *syntax.DeclClause:
		last = w.decl(c, f)
	case *syntax.LetClause:
		last = w.let(c, f)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			f.wrappers = append(append([]string(nil), f.wrappers...), "time")
			last = w.stmt(timeDashes(c.Stmt), f)
		}
		if c.Stmt == nil || !isCall(c.Stmt) {
			// dash has no time keyword: it runs the time program, which
			// bash's keyword leaves alone only around a command it runs
			// (time with nothing, time x=1, time [[ … ]], time (…))
			words := []Word{{Raw: "time", Value: "time", Prefix: "time"}}
			if c.PosixFormat {
				words = append(words, Word{Raw: "-p", Value: "-p", Prefix: "-p"})
			}
			x := w.command(words, f)
			w.finish(x, nil, f)
			w.emit(x, f.feeds)
		}
	case *syntax.CoprocClause:
		f.background = true
		saved := w.cwd
		last = w.stmt(c.Stmt, f)
		w.cwd = saved
	case *syntax.TestDecl:
		last = w.stmt(c.Body, f)
	}
	w.subs(subs, outer)
	return last
}

// isCall reports whether st is a simple command that names a program.
func isCall(st *syntax.Stmt) bool {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0
}

// timeDashes returns st without the "--" bash skips after time or time
// -p ("time -- cmd" times cmd); the parser takes it for the command.
func timeDashes(st *syntax.Stmt) *syntax.Stmt {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) < 2 || ce.Args[0].Lit() != "--" {
		return st
	}
	call, stmt := *ce, *st
	call.Args = ce.Args[1:]
	stmt.Cmd = &call
	return &stmt
}

// arithAsSubshells walks the text of an arithmetic command the way dash
// reads it: "((reboot))" is two nested subshells running reboot there,
// and sh -c or a pipe into sh may hand the text to dash. Text that is no
// command list adds nothing.
func (w *walker) arithAsSubshells(c *syntax.ArithmCmd, f frame) {
	lo, hi := int(c.Left.Offset())+2, int(c.Right.Offset())
	if lo > hi || hi > len(f.src) || f.depth >= w.opt.MaxDepth {
		return
	}
	// a command needs a name: numbers and operators alone run nothing
	if !strings.ContainsFunc(f.src[lo:hi], func(r rune) bool { return r == '_' || r == '$' || r == '`' || unicode.IsLetter(r) }) {
		return
	}
	// dash reads every (( inside as two subshells too
	text := spaceDoubleParens(f.src[lo:hi], false)
	file, err := w.parser.Parse(strings.NewReader(text), "")
	if err != nil {
		return
	}
	saved, out := w.cwd, w.out
	var mine []*Command
	w.out = &mine
	sub := f.nested("dash ((")
	sub.src = text
	sub.depth++
	w.stmts(file.Stmts, sub)
	w.cwd, w.out = saved, out
	// a program word made of the expression's values ($n, $(…)) is a
	// number at run time, which no shell finds as a program
	for _, x := range mine {
		if len(x.Args) > 0 && !x.Args[0].Dynamic {
			*w.out = append(*w.out, x)
		}
	}
}

func (w *walker) ifClause(c *syntax.IfClause, f frame) *Command {
	var last *Command
	for ; c != nil && w.err == nil; c = c.Else {
		w.stmts(c.Cond, f)
		last = w.stmts(c.Then, f)
	}
	return last
}

// binary walks && / || lists and pipelines.
func (w *walker) binary(c *syntax.BinaryCmd, f frame) *Command {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		w.stmt(c.X, f)
		return w.stmt(c.Y, f)
	}
	var parts []*syntax.Stmt
	parts = pipeParts(c, parts)
	var (
		prev  *Command
		feeds []*Command
	)
	for i, p := range parts {
		if w.err != nil {
			return prev
		}
		pf := f
		pf.pipeIdx, pf.piped = i, len(parts)
		if i > 0 {
			pf.stdin = Stdin{Kind: StdinPipe, From: prev, Feeds: feeds}
		}
		var mine []*Command
		pf.feeds = &mine
		saved := w.cwd
		prev = w.stmt(p, pf)
		w.cwd = saved
		feeds = mine
	}
	if f.feeds != nil {
		*f.feeds = append(*f.feeds, feeds...)
	}
	return prev
}

// pipeParts flattens a left-nested pipeline into its elements.
func pipeParts(c *syntax.BinaryCmd, acc []*syntax.Stmt) []*syntax.Stmt {
	if x, ok := c.X.Cmd.(*syntax.BinaryCmd); ok && isPipe(x.Op) && !c.X.Background && len(c.X.Redirs) == 0 && !c.X.Negated {
		acc = pipeParts(x, acc)
	} else {
		acc = append(acc, c.X)
	}
	return append(acc, c.Y)
}

func isPipe(op syntax.BinCmdOperator) bool {
	return op == syntax.Pipe || op == syntax.PipeAll
}

// funcDecl records a definition and walks its body once into Func.Calls.
func (w *walker) funcDecl(c *syntax.FuncDecl, f frame) {
	names := c.Names
	if c.Name != nil {
		names = []*syntax.Lit{c.Name}
	}
	if c.Body == nil {
		return
	}
	for _, n := range names {
		fn := &Func{Name: n.Value}
		w.script.Funcs = append(w.script.Funcs, fn)
		if f.scope.funcs == nil {
			f.scope.funcs = map[string]funcDef{}
		}
		f.scope.funcs[n.Value] = funcDef{decl: c, src: f.src}
		savedOut, savedCwd, wasActive := w.out, w.cwd, w.active[n.Value]
		w.out = &fn.Calls
		w.active[n.Value] = true
		bf := f.nested("function " + n.Value)
		bf.fn = n.Value
		bf.define = true
		w.stmt(c.Body, bf)
		w.out, w.cwd, w.active[n.Value] = savedOut, savedCwd, wasActive
		if hookFuncs[n.Value] && !f.define && !w.hooks[c] {
			// the shell calls it by itself (a command not found, a
			// prompt), a handler defined inside the handler too
			if w.hooks == nil {
				w.hooks = map[*syntax.FuncDecl]bool{}
			}
			w.active[n.Value], w.hooks[c] = true, true
			hf := f.nested("function " + n.Value)
			hf.fn = n.Value
			w.stmt(c.Body, hf)
			w.cwd, w.active[n.Value], w.hooks[c] = savedCwd, wasActive, false
		}
	}
}

// callFunc expands the body of a called function after the call command.
func (w *walker) callFunc(cmd *Command, name string, f frame) bool {
	def, ok := f.scope.funcs[name]
	if !ok || f.define {
		return false
	}
	if w.active[name] {
		return true
	}
	w.active[name] = true
	bf := f
	bf.src = def.src
	bf.via = "function " + name
	bf.fn = name
	bf.wrappers = nil
	bf.redirs = cmd.Redirects
	bf.stdin = cmd.Stdin
	bf.background = cmd.Background
	zero := Word{Raw: "$0", Dynamic: true}
	if f.pos != nil && f.pos.known {
		zero = f.pos.zero
	}
	bf.pos = newPositional(zero, cmd.Args[1:])
	w.stmt(def.decl.Body, bf)
	delete(w.active, name)
	return true
}

// decl emits declare/export/local/readonly/typeset as a command and walks
// the substitutions of its values.
func (w *walker) decl(c *syntax.DeclClause, f frame) *Command {
	var subs []sub
	args := []Word{{Raw: c.Variant.Value, Value: c.Variant.Value, Prefix: c.Variant.Value}}
	for _, a := range c.Args {
		if a.Name != nil {
			w.taint(a.Name.Value, f.scope)
		}
		aw := w.assignWord(a, &f, &subs)
		args = append(args, aw)
		w.shellRun(aw, f)
		if !aw.Dynamic {
			w.subscriptCode(aw.Value, f)
		}
	}
	cmd := w.command(args, f)
	w.finish(cmd, nil, f)
	w.emit(cmd, f.feeds)
	w.subs(subs, f)
	return cmd
}

// let emits a let builtin; its expressions are shown as written.
func (w *walker) let(c *syntax.LetClause, f frame) *Command {
	var subs []sub
	args := []Word{{Raw: "let", Value: "let", Prefix: "let"}}
	for _, x := range c.Exprs {
		if wd, ok := x.(*syntax.Word); ok {
			a := w.word(wd, &f, &subs, false)
			if !a.Dynamic {
				w.subscriptCode(a.Value, f)
			}
			args = append(args, a)
			continue
		}
		raw := rawText(f.src, x)
		args = append(args, Word{Raw: raw, Value: raw, Prefix: raw})
		w.arith(x, &f, &subs)
	}
	cmd := w.command(args, f)
	w.finish(cmd, nil, f)
	w.emit(cmd, f.feeds)
	w.subs(subs, f)
	return cmd
}

// taint records that the script assigns a variable the reader resolves:
// from then on it is Dynamic.
func (w *walker) taint(name string, s *scope) {
	switch name {
	case "HOME":
		s.homeSet = true
	case "USER", "LOGNAME":
		s.userSet = true
	case "PWD":
		s.pwdSet = true
	}
}

func rawText(src string, n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}
