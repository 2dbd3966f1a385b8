package shell

import (
	"strings"
)

// This file reads program text of a scripting language far enough to find
// the calls that hand a command to a shell or run a program (os.system,
// child_process.execSync, Perl system and backticks, …) and the static
// string arguments of those calls. It is a reading of tokens, not a parse:
// see the package documentation for what it does not see.

// lang is a scripting language whose inline programs the reader looks into.
type lang uint8

const (
	langNone lang = iota
	langPython
	langNode
	langPerl
	langRuby
	langPHP
	langLua         // Lua: os.execute, io.popen
	langR           // R: system, system2, shell
	langJulia       // Julia: `cmd` literals run with run()
	langAppleScript // AppleScript: do shell script
)

// runtimeHole stands for a part of a command string that is only known
// when the program runs (a variable, an f-string field, a call). Re-read
// as shell it is a parameter expansion, hence Dynamic; a word that still
// holds it after quote removal is made Dynamic too.
const runtimeHole = "$RUNTIME"

type tokKind uint8

const (
	tokPunct  tokKind = iota
	tokIdent          // a name (also numbers)
	tokString         // a string literal; text is its value
	tokExec           // a command string: Perl/Ruby/PHP backticks, qx{}, %x()
	tokTmpl           // a JavaScript template literal (data unless tagged $)
)

type token struct {
	kind tokKind
	// text is the name, the punctuation character, or the literal's value
	// with runtimeHole for each interpolated part.
	text string
	// dyn is set when the literal has interpolated parts.
	dyn bool
	// span is, for ( [ {, the distance to the matching closer (to the
	// end of the tokens when unclosed); 0 for other tokens.
	span int
}

// lexer splits program text into tokens for one language.
type lexer struct {
	l    lang
	src  string
	i    int
	toks []token
}

// lex tokenizes src; comments and blanks are dropped.
func lex(l lang, src string) []token {
	x := &lexer{l: l, src: src}
	for x.i < len(src) {
		x.next()
	}
	x.brackets()
	return x.toks
}

func isIdentByte(c byte, l lang) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c >= 0x80 || c == '$' && l == langNode
}

func (x *lexer) emit(k tokKind, text string, dyn bool) {
	x.toks = append(x.toks, token{kind: k, text: text, dyn: dyn})
}

// prevSignificant is the kind and text of the last token, for telling a
// regex literal from a division.
func (x *lexer) regexAllowed() bool {
	if len(x.toks) == 0 {
		return true
	}
	t := x.toks[len(x.toks)-1]
	switch t.kind {
	case tokIdent:
		switch t.text {
		case "return", "and", "or", "not", "if", "unless", "split", "grep", "map", "when", "typeof":
			return true
		}
		return false
	case tokString, tokExec, tokTmpl:
		return false
	}
	return t.text != ")" && t.text != "]" && t.text != "}"
}

func (x *lexer) next() {
	s, i := x.src, x.i
	c := s[i]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		x.i++
	case c == '#' && x.l != langNode && x.l != langLua && !(x.l == langPHP && strings.HasPrefix(s[i:], "#[")):
		x.skipLine()
	case c == '-' && i+1 < len(s) && s[i+1] == '-' && (x.l == langLua || x.l == langAppleScript):
		x.dashComment()
	case c == '/' && i+1 < len(s) && s[i+1] == '/' && (x.l == langNode || x.l == langPHP):
		x.skipLine()
	case c == '/' && i+1 < len(s) && s[i+1] == '*' && (x.l == langNode || x.l == langPHP):
		end := strings.Index(s[i+2:], "*/")
		if end < 0 {
			x.i = len(s)
		} else {
			x.i = i + 2 + end + 2
		}
	case c == '/' && (x.l == langNode || x.l == langPerl || x.l == langRuby) && x.regexAllowed():
		_, x.i = x.delimited(i+1, '/', false)
		x.skipWord()
	case c == '\'' || c == '"' || c == '`':
		x.quoted(i, "")
	case c == '%' && x.l == langRuby && x.percent(i):
	case isIdentByte(c, x.l) || c == '$' && (x.l == langPerl || x.l == langPHP):
		j := i + 1
		for j < len(s) && isIdentByte(s[j], x.l) {
			j++
		}
		word := s[i:j]
		if x.special(word, j) {
			return
		}
		x.i = j
		x.emit(tokIdent, word, false)
	default:
		x.i++
		x.emit(tokPunct, s[i:i+1], false)
	}
}

func (x *lexer) skipLine() {
	if end := strings.IndexByte(x.src[x.i:], '\n'); end >= 0 {
		x.i += end + 1
	} else {
		x.i = len(x.src)
	}
}

// dashComment skips a Lua or AppleScript comment: "--" to the end of
// the line, or a Lua block comment --[[ … ]] (--[==[ … ]==]).
func (x *lexer) dashComment() {
	s := x.src[x.i+2:]
	if x.l == langLua && strings.HasPrefix(s, "[") {
		if k := strings.IndexByte(s[1:], '['); k >= 0 && strings.Trim(s[1:1+k], "=") == "" {
			end := "]" + s[1:1+k] + "]"
			if e := strings.Index(s, end); e >= 0 {
				x.i += 2 + e + len(end)
				return
			}
			x.i = len(x.src)
			return
		}
	}
	x.skipLine()
}

// skipWord skips regex flags after a regex literal.
func (x *lexer) skipWord() {
	for x.i < len(x.src) && isIdentByte(x.src[x.i], x.l) {
		x.i++
	}
}

// special handles a word that starts a literal: Python string prefixes
// (r"", f"", b""), Perl q qq qx qw m qr s tr y, Ruby %x() %q() %w(),
// PHP heredocs. It reports whether it consumed the literal.
func (x *lexer) special(word string, end int) bool {
	s := x.src
	switch x.l {
	case langPython:
		if end < len(s) && (s[end] == '\'' || s[end] == '"') && len(word) <= 2 &&
			strings.Trim(strings.ToLower(word), "rbuf") == "" {
			x.quoted(end, strings.ToLower(word))
			return true
		}
	case langPerl:
		switch word {
		case "q", "qq", "qx", "qw", "m", "qr", "s", "tr", "y":
		default:
			return false
		}
		j := end
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j >= len(s) || isIdentByte(s[j], x.l) || strings.IndexByte(" \t\n,;=)>", s[j]) >= 0 {
			return false
		}
		open := s[j]
		interp := word != "q" && word != "qw"
		v, k := x.delimited(j+1, open, interp)
		switch word {
		case "s", "tr", "y":
			if closer(open) != open {
				for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n') {
					k++
				}
				if k < len(s) {
					_, k = x.delimited(k+1, s[k], false)
				}
			} else {
				_, k = x.delimited(k, open, false)
			}
			x.i = k
			x.skipWord()
			return true
		case "m", "qr":
			x.i = k
			x.skipWord()
			return true
		}
		x.i = k
		switch word {
		case "qx":
			x.emit(tokExec, v.text, v.dyn)
		case "qw":
			x.emit(tokPunct, "[", false)
			for i, f := range strings.Fields(v.text) {
				if i > 0 {
					x.emit(tokPunct, ",", false)
				}
				x.emit(tokString, f, false)
			}
			x.emit(tokPunct, "]", false)
		default:
			x.emit(tokString, v.text, v.dyn)
		}
		return true
	}
	return false
}

// lit is a literal's value.
type lit struct {
	text string
	dyn  bool
}

// closer returns the closing delimiter of a bracketing opener, else c.
func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// delimited reads a literal body from i up to the closer of open (nested
// bracket pairs counted), with backslash escapes kept as written except
// an escaped delimiter; interp marks $name, @name and #{…} parts dynamic.
// It returns the value and the index after the closer.
func (x *lexer) delimited(i int, open byte, interp bool) (lit, int) {
	s := x.src
	cl := closer(open)
	depth := 0
	var b strings.Builder
	dyn := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != open && s[i] != cl {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i])
			continue
		case c == cl && depth == 0:
			return lit{b.String(), dyn}, i + 1
		case c == cl:
			depth--
		case c == open && cl != open:
			depth++
		case interp && x.hole(s, i):
			b.WriteString(runtimeHole)
			dyn = true
			i = x.skipHole(s, i) - 1
			continue
		}
		b.WriteByte(c)
	}
	return lit{b.String(), dyn}, len(s)
}

// hole reports whether an interpolation starts at s[i]: Perl/PHP $name,
// ${…}, @name; Ruby #{…}; Python f-string {…} and JavaScript ${…} are
// handled by quoted.
func (x *lexer) hole(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	n := s[i+1]
	switch x.l {
	case langRuby:
		return s[i] == '#' && n == '{'
	case langPerl:
		return (s[i] == '$' || s[i] == '@') && (n == '{' || n == '_' || n == ':' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' || s[i] == '$' && n >= '0' && n <= '9')
	case langPHP:
		return s[i] == '$' && (n == '{' || n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z') ||
			s[i] == '{' && n == '$'
	}
	return false
}

// skipHole returns the index after the interpolation starting at s[i].
func (x *lexer) skipHole(s string, i int) int {
	j := i + 1
	if s[j] == '$' || s[j] == '{' || s[i] == '#' {
		depth := 0
		for ; j < len(s); j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	for j < len(s) && (isIdentByte(s[j], x.l) || s[j] == ':' && x.l == langPerl) {
		j++
	}
	// $x->[0], $x[0], $x{k}, $x->method
	for j < len(s) && (s[j] == '[' || s[j] == '{' || strings.HasPrefix(s[j:], "->")) {
		if s[j] == '-' {
			j += 2
			for j < len(s) && isIdentByte(s[j], x.l) {
				j++
			}
			continue
		}
		end := strings.IndexByte(s[j:], closer(s[j]))
		if end < 0 {
			return len(s)
		}
		j += end + 1
	}
	return j
}

// quoted reads a quoted literal starting at s[i] (a quote character),
// with Python prefix flags ("r", "f", "rb"…).
func (x *lexer) quoted(i int, prefix string) {
	s := x.src
	q := s[i]
	raw := strings.Contains(prefix, "r")
	fstr := strings.Contains(prefix, "f")
	triple := x.l == langPython && strings.HasPrefix(s[i:], strings.Repeat(string(q), 3))
	j := i + 1
	if triple {
		j = i + 3
	}
	// which interpolation and escapes apply
	interp := false
	switch x.l {
	case langPerl, langPHP, langRuby:
		interp = q != '\''
	}
	singleQ := q == '\'' && (x.l == langPerl || x.l == langPHP || x.l == langRuby)
	var b strings.Builder
	dyn := false
	for j < len(s) {
		c := s[j]
		if triple && strings.HasPrefix(s[j:], strings.Repeat(string(q), 3)) {
			j += 3
			break
		}
		if !triple && c == q {
			j++
			break
		}
		switch {
		case c == '\\' && j+1 < len(s):
			n := s[j+1]
			switch {
			case singleQ:
				if n == '\\' || n == q {
					b.WriteByte(n)
				} else {
					b.WriteByte('\\')
					b.WriteByte(n)
				}
				j += 2
			case raw:
				b.WriteByte('\\')
				b.WriteByte(n)
				j += 2
			case n == '\n':
				j += 2
			default:
				d, used := escape(s[j+1:], false)
				if used == 0 {
					b.WriteByte(n)
					j += 2
				} else {
					b.WriteString(d)
					j += 1 + used
				}
			}
			continue
		case fstr && c == '{':
			if j+1 < len(s) && s[j+1] == '{' {
				b.WriteByte('{')
				j += 2
				continue
			}
			b.WriteString(runtimeHole)
			dyn = true
			j = braceEnd(s, j)
			continue
		case fstr && c == '}' && j+1 < len(s) && s[j+1] == '}':
			b.WriteByte('}')
			j += 2
			continue
		case x.l == langNode && q == '`' && c == '$' && j+1 < len(s) && s[j+1] == '{':
			b.WriteString(runtimeHole)
			dyn = true
			j = braceEnd(s, j+1)
			continue
		case interp && x.hole(s, j):
			b.WriteString(runtimeHole)
			dyn = true
			j = x.skipHole(s, j)
			continue
		}
		b.WriteByte(c)
		j++
	}
	x.i = j
	kind := tokString
	if q == '`' {
		kind = tokExec
		if x.l == langNode {
			kind = tokTmpl
		}
	}
	x.emit(kind, b.String(), dyn)
}

// braceEnd returns the index after the } closing the { at s[i].
func braceEnd(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// brackets sets span for every ( [ { token.
func (x *lexer) brackets() {
	var stack []int
	for i := range x.toks {
		t := &x.toks[i]
		if t.kind != tokPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			t.span = len(x.toks) - i
			stack = append(stack, i)
		case ")", "]", "}":
			for k := len(stack) - 1; k >= 0; k-- {
				if o := x.toks[stack[k]].text[0]; closer(o) == t.text[0] {
					x.toks[stack[k]].span = i - stack[k]
					stack = stack[:k]
					break
				}
			}
		}
	}
}

// percent reads a Ruby %-literal at s[i]: %x(…) runs a command, %q %Q %()
// are strings, %w %W %i %I word lists. It reports whether one was there.
func (x *lexer) percent(i int) bool {
	s := x.src
	j := i + 1
	kind := byte('Q')
	if j < len(s) && strings.IndexByte("xqQwWiI", s[j]) >= 0 {
		kind = s[j]
		j++
	} else if !x.regexAllowed() {
		return false
	}
	if j >= len(s) || isIdentByte(s[j], x.l) || strings.IndexByte(" \t\n=", s[j]) >= 0 {
		return false
	}
	v, end := x.delimited(j+1, s[j], kind == 'x' || kind == 'Q' || kind == 'W' || kind == 'I')
	x.i = end
	switch kind {
	case 'x':
		x.emit(tokExec, v.text, v.dyn)
	case 'w', 'W', 'i', 'I':
		x.emit(tokPunct, "[", false)
		for k, f := range strings.Fields(v.text) {
			if k > 0 {
				x.emit(tokPunct, ",", false)
			}
			x.emit(tokString, f, v.dyn)
		}
		x.emit(tokPunct, "]", false)
	default:
		x.emit(tokString, v.text, v.dyn)
	}
	return true
}

// closeOf returns the index in a of the closer of the bracket at a[j]
// (len(a) when it closes outside a), or j for any other token.
func closeOf(a []token, j int) int {
	if a[j].span == 0 {
		return j
	}
	return min(j+a[j].span, len(a))
}
