package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds the words one brace expansion may produce; a larger
// expansion ({1..100000}) becomes one Dynamic word.
const maxBraceWords = 64

// arg appends the words of one command argument to out, after brace
// expansion (bash manual §3.5.1) and the conversions of word.
func (w *walker) arg(x *syntax.Word, f *frame, subs *[]sub, out []Word) []Word {
	if words, ok := w.positionalWords(x, f, out); ok {
		return words
	}
	braces := false
	for _, p := range x.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			braces = true
		}
	}
	if !braces {
		return append(out, w.word(x, f, subs, true))
	}
	words, ok := braceWords(x)
	switch {
	case len(words) == 0:
		return append(out, w.word(x, f, subs, true))
	case !ok:
		one := w.word(x, f, subs, true)
		if k := strings.IndexByte(one.Value, '{'); k >= 0 && (!one.Dynamic || k < len(one.Prefix)) {
			one.Prefix = one.Value[:k]
		}
		one.Dynamic = true
		return append(out, one)
	}
	raw := rawText(f.src, x)
	for _, e := range words {
		one := w.word(joinLits(e), f, subs, true)
		one.Raw = raw
		out = append(out, one)
	}
	return out
}

// braceWords returns the brace expansion of x: nil when x has none, ok
// false when it has more than maxBraceWords words.
func braceWords(x *syntax.Word) (words []*syntax.Word, ok bool) {
	cp := &syntax.Word{Parts: x.Parts}
	if !syntax.SplitBraces(cp) {
		return nil, true
	}
	for e, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(words) == maxBraceWords {
			return words, false
		}
		words = append(words, e)
	}
	return words, true
}

// wordBuf accumulates a word's value while tracking what is dynamic.
type wordBuf struct {
	b      text
	dyn    bool
	prefix string
	glob   bool
	// holes are the offsets in b where a part only known at run time
	// stood, for Word.code, once there are two of them (one is the end of
	// prefix, which Word.codeText finds without them); last is the latest,
	// where Word.Suffix starts.
	holes []int
	last  int
}

// text builds a string like strings.Builder, but keeps a text written in
// one piece as it is: most words are one literal, which then costs no
// copy.
type text struct {
	one  string          // the text while it is one piece
	more strings.Builder // the text once a second piece came
}

func (t *text) spill() {
	if t.one != "" {
		t.more.WriteString(t.one)
		t.one = ""
	}
}

func (t *text) WriteString(s string) {
	if t.one == "" && t.more.Len() == 0 {
		t.one = s
		return
	}
	t.spill()
	t.more.WriteString(s)
}

func (t *text) WriteByte(c byte) error {
	t.spill()
	return t.more.WriteByte(c)
}

func (t *text) String() string {
	if t.more.Len() == 0 {
		return t.one
	}
	return t.more.String()
}

func (x *wordBuf) dynamic() {
	n := len(x.b.one) + x.b.more.Len()
	switch {
	case !x.dyn:
		x.dyn = true
		x.prefix = x.b.String()
	case n != x.last:
		if len(x.holes) == 0 {
			x.holes = append(x.holes, len(x.prefix))
		}
		x.holes = append(x.holes, n)
	}
	x.last = n
}

func (x *wordBuf) word(raw string) Word {
	v := x.b.String()
	p, sfx := v, ""
	if x.dyn {
		p, sfx = x.prefix, v[min(x.last, len(v)):]
	}
	return Word{Raw: raw, Value: v, Dynamic: x.dyn, Prefix: p, Suffix: sfx, Glob: x.glob, code: x.code(v)}
}

// code returns v, the buffer's text, with runtimeHole where each part
// only known at run time stood; "" when there were fewer than two (a lone
// hole is where Prefix ends: Word.codeText puts it back).
func (x *wordBuf) code(v string) string {
	if len(x.holes) == 0 {
		return ""
	}
	var b strings.Builder
	last := 0
	for _, k := range x.holes {
		if k < last || k > len(v) {
			continue
		}
		b.WriteString(v[last:k])
		b.WriteString(runtimeHole)
		last = k
	}
	b.WriteString(v[last:])
	return b.String()
}

// joinLits merges adjacent literals of a brace-expanded word, so that a
// tilde-prefix split by the expansion is seen whole.
func joinLits(x *syntax.Word) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, 0, len(x.Parts))}
	for _, p := range x.Parts {
		l, ok := p.(*syntax.Lit)
		if n := len(out.Parts); ok && n > 0 {
			if prev, ok := out.Parts[n-1].(*syntax.Lit); ok {
				out.Parts[n-1] = &syntax.Lit{Value: prev.Value + l.Value}
				continue
			}
		}
		out.Parts = append(out.Parts, p)
	}
	return out
}

// quoting says how a literal's backslashes are read.
type quoting uint8

const (
	unquoted quoting = iota
	dquoted
	heredoc
)

// word converts one syntax word: quote removal (bash manual §3.5.9),
// tilde expansion at the start when tilde is set (§3.5.2), the static
// parameters of Word, and everything else Dynamic. Substitutions found are
// appended to subs.
func (w *walker) word(x *syntax.Word, f *frame, subs *[]sub, tilde bool) Word {
	var b wordBuf
	if x == nil {
		return b.word("")
	}
	for i, p := range x.Parts {
		if !w.tick() {
			break
		}
		if i == 0 && tilde {
			if l, ok := p.(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") {
				rest, done := w.tilde(l.Value, len(x.Parts) == 1, f, &b)
				if done {
					unquotedLit(&b, rest)
					continue
				}
			}
		}
		w.part(p, &b, unquoted, f, subs)
	}
	return b.word(rawText(f.src, x))
}

// tilde expands a leading tilde-prefix of lit into b; done reports that it
// did, rest is what follows the prefix. A prefix not ended by "/" within
// the literal is only a prefix when the literal is the whole word.
func (w *walker) tilde(lit string, whole bool, f *frame, b *wordBuf) (rest string, done bool) {
	end := strings.IndexAny(lit, "/:") // bash ends a tilde-prefix at a colon too (-v ~:/h)
	if end < 0 {
		if !whole {
			return "", false
		}
		end = len(lit)
	}
	name := lit[1:end]
	if strings.ContainsAny(name, "\\'\"$`*?[") {
		return "", false
	}
	switch {
	case name == "":
		if w.opt.Home == "" || f.scope.homeSet {
			b.dynamic()
			return lit[end:], true
		}
		b.b.WriteString(w.opt.Home)
	case name == "+":
		if !path.IsAbs(w.cwd) || f.scope.pwdSet {
			b.dynamic()
			return lit[end:], true
		}
		b.b.WriteString(w.cwd)
	case name == "-":
		b.dynamic()
	case name == w.opt.User && w.opt.Home != "":
		b.b.WriteString(w.opt.Home)
	case name == "root":
		b.b.WriteString("/root")
	case w.opt.Home != "" && validName(name):
		b.b.WriteString(path.Join(path.Dir(w.opt.Home), name))
	default:
		return "", false
	}
	return lit[end:], true
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (w *walker) part(p syntax.WordPart, b *wordBuf, q quoting, f *frame, subs *[]sub) {
	switch p := p.(type) {
	case *syntax.Lit:
		switch q {
		case unquoted:
			unquotedLit(b, p.Value)
		case dquoted:
			quotedLit(b, p.Value, "$`\"\\")
		case heredoc:
			quotedLit(b, p.Value, "$`\\")
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			b.b.WriteString(ansiC(p.Value))
		} else {
			b.b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, dp := range p.Parts {
			if !w.tick() {
				return
			}
			w.part(dp, b, dquoted, f, subs)
		}
	case *syntax.ParamExp:
		if w.positionalParam(p, b, q, f) {
			return
		}
		if v, ok := w.param(p, f); ok {
			b.b.WriteString(v)
		} else {
			b.dynamic()
		}
		w.paramSubs(p, f, subs)
	case *syntax.CmdSubst:
		if w.isPwd(p) && path.IsAbs(w.cwd) && !f.scope.pwdSet {
			b.b.WriteString(w.cwd)
		} else if v, ok := w.echoed(p, f, q); ok {
			b.b.WriteString(v)
		} else {
			b.dynamic()
		}
		*subs = append(*subs, sub{stmts: p.Stmts, via: "$()"})
	case *syntax.ArithmExp:
		b.dynamic()
		w.arith(p.X, f, subs)
	case *syntax.ProcSubst:
		b.dynamic()
		*subs = append(*subs, sub{stmts: p.Stmts, via: "<()", raw: rawText(f.src, p)})
	case *syntax.ExtGlob:
		b.b.WriteString(p.Op.String())
		b.b.WriteString(p.Pattern.Value)
		b.b.WriteByte(')')
		b.glob = q == unquoted
	case *syntax.BraceExp:
		b.dynamic()
	}
}

// unquotedLit removes backslash quoting from an unquoted literal and marks
// unescaped pattern characters.
func unquotedLit(b *wordBuf, s string) {
	if strings.IndexByte(s, '\\') < 0 {
		// Nothing to remove: the literal is the text (a ] after the
		// first [ makes a bracket expression).
		if i := strings.IndexByte(s, '['); strings.ContainsAny(s, "*?") || i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0 {
			b.glob = true
		}
		b.b.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.b.WriteByte(s[i])
				}
				continue
			}
		case '*', '?':
			b.glob = true
		case '[':
			if strings.IndexByte(s[i+1:], ']') >= 0 {
				b.glob = true
			}
		}
		b.b.WriteByte(c)
	}
}

// quotedLit removes the backslashes that quote one of special (inside
// double quotes: $ ` " \ and newline; in a heredoc: $ ` \ and newline).
func quotedLit(b *wordBuf, s, special string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			n := s[i+1]
			if n == '\n' {
				i++
				continue
			}
			if strings.IndexByte(special, n) >= 0 {
				b.b.WriteByte(n)
				i++
				continue
			}
		}
		b.b.WriteByte(c)
	}
}

// param resolves the parameters the reader knows: HOME, PWD, USER and
// LOGNAME as $X, ${X}, ${X:-w}, ${X-w}, ${X:=w}, ${X=w}, ${X:?w}, ${X?w}.
func (w *walker) param(p *syntax.ParamExp, f *frame) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Flags != nil ||
		p.NestedParam != nil || p.Index != nil || len(p.Modifiers) > 0 || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 {
		return "", false
	}
	var v string
	switch p.Param.Value {
	case "HOME":
		if f.scope.homeSet {
			return "", false
		}
		v = w.opt.Home
	case "PWD":
		if f.scope.pwdSet || !path.IsAbs(w.cwd) {
			return "", false
		}
		v = w.cwd
	case "USER", "LOGNAME":
		if f.scope.userSet {
			return "", false
		}
		v = w.opt.User
	default:
		if val, ok := f.scope.vars[p.Param.Value]; ok && plainValue(val) && w.expanded+len(val) <= maxExpanded {
			v = val
			w.usedVar = true
			w.expanded += len(val)
		}
	}
	if v == "" {
		return "", false
	}
	if p.Exp == nil {
		return v, true
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return v, true
	}
	return "", false
}

// paramSubs collects substitutions nested in a parameter expansion.
func (w *walker) paramSubs(p *syntax.ParamExp, f *frame, subs *[]sub) {
	w.promptOp(p, f)
	if p.Exp != nil && p.Exp.Word != nil {
		w.word(p.Exp.Word, f, subs, false)
	}
	if p.Repl != nil {
		w.word(p.Repl.Orig, f, subs, false)
		w.word(p.Repl.With, f, subs, false)
	}
	if p.Slice != nil {
		w.arith(p.Slice.Offset, f, subs)
		w.arith(p.Slice.Length, f, subs)
	}
	w.arith(p.Index, f, subs)
	if p.NestedParam != nil {
		var b wordBuf
		w.part(p.NestedParam, &b, unquoted, f, subs)
	}
}

// isPwd reports whether a substitution is exactly `pwd` (or pwd -L/-P).
func (w *walker) isPwd(c *syntax.CmdSubst) bool {
	if len(c.Stmts) != 1 {
		return false
	}
	s := c.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 || len(ce.Args) > 2 {
		return false
	}
	if ce.Args[0].Lit() != "pwd" {
		return false
	}
	return len(ce.Args) == 1 || ce.Args[1].Lit() == "-L" || ce.Args[1].Lit() == "-P"
}

// echoed returns what a substitution prints when it is a single echo of
// words the reader knows, or a printf of one plain format: $(echo ls) is
// "ls", as bash computes it (the trailing newline removed). Not when the
// output would be split or globbed (unquoted with blanks or pattern
// characters), or could hold escapes some echo interprets.
func (w *walker) echoed(c *syntax.CmdSubst, f *frame, q quoting) (string, bool) {
	if len(c.Stmts) != 1 {
		return "", false
	}
	s := c.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || s.Negated || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) < 2 {
		return "", false
	}
	name := ce.Args[0].Lit()
	if name != "echo" && name != "printf" || name == "printf" && len(ce.Args) != 2 {
		return "", false
	}
	vals := make([]string, 0, len(ce.Args)-1)
	var none []sub
	for i, a := range ce.Args[1:] {
		v := w.word(a, f, &none, true)
		if v.Dynamic || v.Glob || len(none) > 0 || strings.Contains(v.Value, "\\") ||
			i == 0 && strings.HasPrefix(v.Value, "-") || name == "printf" && strings.Contains(v.Value, "%") {
			return "", false
		}
		vals = append(vals, v.Value)
	}
	out := strings.TrimRight(strings.Join(vals, " "), "\n")
	if q == unquoted && (out == "" || strings.ContainsAny(out, " \t\n*?[")) {
		return "", false
	}
	return out, true
}

// arith collects substitutions inside an arithmetic expression.
func (w *walker) arith(x syntax.ArithmExpr, f *frame, subs *[]sub) {
	if x == nil || !w.tick() {
		return
	}
	switch x := x.(type) {
	case *syntax.Word:
		w.word(x, f, subs, false)
	case *syntax.BinaryArithm:
		w.arith(x.X, f, subs)
		w.arith(x.Y, f, subs)
	case *syntax.UnaryArithm:
		w.arith(x.X, f, subs)
	case *syntax.ParenArithm:
		w.arith(x.X, f, subs)
	case *syntax.FlagsArithm:
		w.arith(x.X, f, subs)
	}
}

// test collects substitutions inside a [[ ]] expression.
func (w *walker) test(x syntax.TestExpr, f *frame, subs *[]sub) {
	if x == nil || !w.tick() {
		return
	}
	switch x := x.(type) {
	case *syntax.Word:
		w.word(x, f, subs, false)
	case *syntax.BinaryTest:
		w.test(x.X, f, subs)
		w.test(x.Y, f, subs)
	case *syntax.UnaryTest:
		w.test(x.X, f, subs)
	case *syntax.ParenTest:
		w.test(x.X, f, subs)
	}
}

// assignWord renders NAME=value (or a naked declare operand) as one Word.
func (w *walker) assignWord(a *syntax.Assign, f *frame, subs *[]sub) Word {
	raw := rawText(f.src, a)
	if a.Name == nil {
		return w.word(a.Value, f, subs, false)
	}
	name := a.Name.Value
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Naked {
		return Word{Raw: raw, Value: name, Prefix: name}
	}
	if a.Index != nil {
		w.arith(a.Index, f, subs)
		name = rawText(f.src, a.Name) + "[" + rawText(f.src, a.Index) + "]"
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			w.arith(e.Index, f, subs)
			w.word(e.Value, f, subs, true)
		}
		return Word{Raw: raw, Value: name + op, Dynamic: true, Prefix: name + op}
	}
	v := w.word(a.Value, f, subs, true)
	v.Raw = raw
	v.Value = name + op + v.Value
	v.Prefix = name + op + v.Prefix
	return v
}

// redirects converts a statement's redirections; heredoc bodies are
// expanded when the delimiter is unquoted.
func (w *walker) redirects(rs []*syntax.Redirect, f *frame, subs *[]sub) []Redirect {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Redirect, 0, len(rs))
	for _, r := range rs {
		if !w.tick() {
			return out
		}
		x := Redirect{Op: r.Op.String()}
		if r.N != nil {
			x.Fd = r.N.Value
		}
		x.Target = w.word(r.Word, f, subs, r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc)
		if r.Hdoc != nil {
			x.Body, x.Target.code, x.Target.Dynamic = w.heredocBody(r, f, subs)
			if !x.Target.Dynamic {
				x.Target.Prefix = x.Target.Value
			}
		}
		out = append(out, x)
	}
	return out
}

// heredocBody returns a heredoc's text, whether it has dynamic parts and,
// when it has, the text with runtimeHole for each (Word.code).
// A quoted delimiter keeps the body literal (bash manual §3.6.6).
func (w *walker) heredocBody(r *syntax.Redirect, f *frame, subs *[]sub) (text, code string, dyn bool) {
	quoted := false
	for _, p := range r.Word.Parts {
		if l, ok := p.(*syntax.Lit); !ok || strings.ContainsRune(l.Value, '\\') {
			quoted = true
		}
	}
	var b wordBuf
	for _, p := range r.Hdoc.Parts {
		if !w.tick() {
			break
		}
		if quoted {
			if l, ok := p.(*syntax.Lit); ok {
				b.b.WriteString(l.Value)
			}
			continue
		}
		w.part(p, &b, heredoc, f, subs)
	}
	text = b.b.String()
	if b.dyn {
		code = b.code(text)
		if code == "" {
			code = text[:len(b.prefix)] + runtimeHole + text[len(b.prefix):]
		}
	}
	if r.Op == syntax.DashHdoc {
		text, code = trimTabs(text), trimTabs(code)
	}
	return text, code, b.dyn
}

// trimTabs drops the leading tabs of each line of a <<- body.
func trimTabs(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "")
}

// stdinOf returns the standard input the last input redirection of rs
// sets, if any.
func stdinOf(rs []Redirect, cwd string) (Stdin, bool) {
	var in Stdin
	found := false
	for _, r := range rs {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<":
			in = Stdin{Kind: StdinFile, Dynamic: r.Target.Dynamic}
			if !r.Target.Dynamic {
				in.Path = abs(r.Target.Value, cwd)
				in.Dynamic = in.Path == ""
			}
		case "<<", "<<-":
			in = Stdin{Kind: StdinHeredoc, Text: r.Body, Dynamic: r.Target.Dynamic, code: r.Target.code}
		case "<<<":
			in = Stdin{Kind: StdinHeredoc, Text: r.Target.Value + "\n", Dynamic: r.Target.Dynamic}
			if r.Target.Dynamic {
				in.code = r.Target.codeText() + "\n"
			}
		default:
			continue
		}
		found = true
	}
	return in, found
}

// ansiC decodes the escapes of a $'…' string (bash manual §3.1.2.4).
func ansiC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		n, used := escape(s[i:], false)
		if used == 0 {
			b.WriteByte('\\')
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(n)
		i += used - 1
	}
	return b.String()
}

// escape decodes one backslash escape whose text (after the backslash)
// starts s; it returns the decoded text and how many bytes of s it used (0
// when s does not start a known escape). echo0 selects echo -e's octal
// form \0NNN instead of \NNN.
func escape(s string, echo0 bool) (string, int) {
	switch s[0] {
	case 'a':
		return "\a", 1
	case 'b':
		return "\b", 1
	case 'e', 'E':
		return "\x1b", 1
	case 'f':
		return "\f", 1
	case 'n':
		return "\n", 1
	case 'r':
		return "\r", 1
	case 't':
		return "\t", 1
	case 'v':
		return "\v", 1
	case '\\', '\'', '"', '?':
		return s[:1], 1
	case 'x':
		v, n := digits(s[1:], 16, 2)
		if n == 0 {
			return "", 0
		}
		return string([]byte{byte(v)}), 1 + n
	case 'u', 'U':
		max := 4
		if s[0] == 'U' {
			max = 8
		}
		v, n := digits(s[1:], 16, max)
		if n == 0 {
			return "", 0
		}
		return string(rune(v)), 1 + n
	case 'c':
		if len(s) > 1 {
			return string([]byte{s[1] & 0x1f}), 2
		}
		return "", 0
	}
	if s[0] >= '0' && s[0] <= '7' {
		start := 0
		if echo0 {
			if s[0] != '0' {
				return "", 0
			}
			start = 1
		}
		v, n := digits(s[start:], 8, 3)
		return string([]byte{byte(v)}), start + n
	}
	return "", 0
}

// digits reads up to max digits of base from s.
func digits(s string, base, max int) (int, int) {
	v, n := 0, 0
	for n < len(s) && n < max {
		c := s[n]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			d = base
		}
		if d >= base {
			break
		}
		v = v*base + d
		n++
	}
	return v, n
}
