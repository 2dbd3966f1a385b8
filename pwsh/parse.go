package pwsh

import (
	"fmt"
	"strings"
	"unicode"
)

// SyntaxError is a PowerShell command toolwall cannot read (an
// unterminated string or group, a stray closing bracket).
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error says where and what.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("PowerShell, offset %d: %s", e.Offset, e.Msg)
}

// LimitError is a command too large or too deeply nested to read.
type LimitError struct{ Msg string }

// Error says which limit.
func (e *LimitError) Error() string { return "PowerShell: " + e.Msg }

// stmt is a statement: pipelines chained by && and ||, or a keyword
// statement whose groups and blocks hold further statements.
type stmt struct {
	pipes []*pipeline
	ops   []string // between pipes: "&&", "||"
	// nested are the statements of a keyword statement's conditions and
	// blocks (if, foreach, function, try, …), all read as if they run.
	nested []*stmt
	text   string
}

// pipeline is elements joined by |.
type pipeline struct {
	elems      []*elem
	background bool
}

// elem is one element of a pipeline: a command, or an expression.
type elem struct {
	// call is "&" or "." for the call and dot-source operators.
	call string
	// name is the command name (nil for an expression).
	name *value
	args []*arg
	// expr holds the values of an expression element.
	expr    []*value
	redirs  []redir
	text    string
	rawTail string // the rest after --% (stop parsing), verbatim
}

// arg is one command argument: a parameter (-Name, -Name:value) or a
// value (a comma list is several values).
type arg struct {
	param  string // without the dash; "" for a positional value
	colon  bool   // -Name:value
	values []*value
}

type redir struct {
	op     string // ">", ">>", "2>", "*>", "2>&1"
	target *value
}

// valueKind says what a value is.
type valueKind uint8

const (
	vWord   valueKind = iota // a bareword or a string, possibly expandable (parts)
	vGroup                   // ( … ), $( … ), @( … ): statements whose output is the value
	vBlock                   // { … }: a script block
	vHash                    // @{ … }
	vMethod                  // .Name( args ) or [Type]::Name( args ), applied to what precedes it
	vType                    // [Type]
	vOther                   // an operator or a number in an expression
)

// part is a piece of a word: literal text, or a variable.
type part struct {
	lit    string
	varb   string // variable name (env:X, HOME, _)
	group  []*stmt
	quoted bool
}

type value struct {
	kind  valueKind
	parts []part   // vWord
	stmts []*stmt  // vGroup, vBlock, vHash
	name  string   // vMethod, vType
	args  []*value // vMethod arguments
	text  string
}

// literal returns the word's static text and whether it has none
// dynamic.
func (v *value) literal() (string, bool) {
	if v == nil || v.kind != vWord {
		return "", false
	}
	var b strings.Builder
	for _, p := range v.parts {
		if p.varb != "" || p.group != nil {
			return "", false
		}
		b.WriteString(p.lit)
	}
	return b.String(), true
}

// parser reads PowerShell source.
type parser struct {
	src   []rune
	i     int
	depth int
	nodes int
}

const (
	maxDepth = 32
	maxNodes = 20000
)

func (p *parser) errf(format string, a ...any) {
	panic(&SyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, a...)})
}

func (p *parser) peek(k int) rune {
	if p.i+k < len(p.src) {
		return p.src[p.i+k]
	}
	return 0
}

func (p *parser) eof() bool { return p.i >= len(p.src) }

func (p *parser) count() {
	p.nodes++
	if p.nodes > maxNodes {
		panic(&LimitError{Msg: "too many elements to read"})
	}
}

// space skips blanks, comments and line continuations (a backtick
// before a newline); newlines too when nl is set.
func (p *parser) space(nl bool) {
	for !p.eof() {
		c := p.peek(0)
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0xa0 || c == '\ufeff':
			p.i++
		case c == '`' && (p.peek(1) == '\n' || p.peek(1) == '\r'):
			p.i += 2
		case c == '\n' && nl:
			p.i++
		case c == '#':
			for !p.eof() && p.peek(0) != '\n' {
				p.i++
			}
		case c == '<' && p.peek(1) == '#':
			end := strings.Index(string(p.src[p.i+2:]), "#>")
			if end < 0 {
				p.errf("unterminated block comment")
			}
			p.i += 2 + len([]rune(string(p.src[p.i+2:])[:end])) + 2
		default:
			return
		}
	}
}

// statements reads statements until close (')' or '}') or the end.
func (p *parser) statements(close rune) []*stmt {
	p.depth++
	if p.depth > maxDepth {
		panic(&LimitError{Msg: "nested too deeply"})
	}
	defer func() { p.depth-- }()
	var out []*stmt
	for {
		p.space(true)
		for !p.eof() && p.peek(0) == ';' {
			p.i++
			p.space(true)
		}
		if p.eof() {
			if close != 0 {
				p.errf("missing %q", close)
			}
			return out
		}
		if c := p.peek(0); c == ')' || c == '}' {
			if c != close {
				p.errf("unexpected %q", c)
			}
			p.i++
			return out
		}
		out = append(out, p.statement())
	}
}

// keyword reports whether w (lower-cased) starts a keyword statement.
func keyword(w string) bool {
	switch w {
	case "if", "elseif", "else", "switch", "foreach", "for", "while", "do", "until", "try", "catch", "finally",
		"function", "filter", "workflow", "param", "begin", "process", "end", "trap", "data", "class", "enum",
		"dynamicparam", "clean":
		return true
	}
	return false
}

// statement reads one statement.
func (p *parser) statement() *stmt {
	p.count()
	start := p.i
	s := &stmt{}
	if w := p.bareword(); keyword(strings.ToLower(w)) {
		s.nested = p.keywordStatement()
		s.text = p.text(start)
		return s
	} else if lw := strings.ToLower(w); lw == "return" || lw == "throw" || lw == "exit" || lw == "break" || lw == "continue" {
		p.i += len([]rune(w))
		p.space(false)
		if p.atEnd() {
			s.text = p.text(start)
			return s
		}
	}
	for {
		s.pipes = append(s.pipes, p.pipeline())
		p.space(false)
		if p.peek(0) == '&' && p.peek(1) == '&' || p.peek(0) == '|' && p.peek(1) == '|' {
			s.ops = append(s.ops, string(p.src[p.i:p.i+2]))
			p.i += 2
			p.space(true)
			continue
		}
		break
	}
	s.text = p.text(start)
	return s
}

// keywordStatement reads the conditions and blocks that follow a
// keyword, up to the end of the statement.
func (p *parser) keywordStatement() []*stmt {
	var out []*stmt
	for {
		p.space(false)
		switch c := p.peek(0); {
		case p.eof(), c == '\n', c == ';', c == ')', c == '}':
			// A block may be followed, on the next line, by its next part.
			save := p.i
			p.space(true)
			if w := strings.ToLower(p.bareword()); w == "elseif" || w == "else" || w == "catch" || w == "finally" || w == "while" || w == "until" {
				continue
			}
			p.i = save
			return out
		case c == '(':
			p.i++
			out = append(out, p.statements(')')...)
		case c == '{':
			p.i++
			out = append(out, p.statements('}')...)
		case c == '[':
			p.typeLiteral()
		case c == '$':
			p.word(false)
		case c == '-' || c == ',' || c == '=':
			p.i++
			p.bareword()
			p.i += len([]rune(p.bareword()))
		case c == '"' || c == '\'':
			p.word(false)
		default:
			w := p.bareword()
			if w == "" {
				p.errf("unexpected %q", c)
			}
			p.i += len([]rune(w))
		}
	}
}

// atEnd reports whether the statement ends here.
func (p *parser) atEnd() bool {
	c := p.peek(0)
	return p.eof() || c == '\n' || c == ';' || c == ')' || c == '}' || c == '|' && p.peek(1) != '|' || c == '&' && p.peek(1) == '&' || c == '|' && p.peek(1) == '|'
}

// bareword returns the bareword at the cursor without moving it.
func (p *parser) bareword() string {
	j := p.i
	for j < len(p.src) && (unicode.IsLetter(p.src[j]) || unicode.IsDigit(p.src[j]) || p.src[j] == '_' || p.src[j] == '-') {
		j++
	}
	return string(p.src[p.i:j])
}

func (p *parser) text(start int) string {
	return strings.TrimSpace(string(p.src[start:min(p.i, len(p.src))]))
}

// pipeline reads elements joined by |.
func (p *parser) pipeline() *pipeline {
	pl := &pipeline{}
	for {
		p.space(false)
		pl.elems = append(pl.elems, p.element(len(pl.elems) == 0))
		p.space(false)
		if p.peek(0) == '|' && p.peek(1) != '|' {
			p.i++
			p.space(true)
			continue
		}
		if p.peek(0) == '&' && p.peek(1) != '&' {
			p.i++
			pl.background = true
		}
		return pl
	}
}

// element reads one pipeline element: a command or an expression.
func (p *parser) element(first bool) *elem {
	p.count()
	start := p.i
	e := &elem{}
	c := p.peek(0)
	switch {
	case c == '&' && p.peek(1) != '&':
		e.call = "&"
		p.i++
		p.space(false)
		e.name = p.word(true)
	case c == '.' && (p.peek(1) == ' ' || p.peek(1) == '\t'):
		e.call = "."
		p.i++
		p.space(false)
		e.name = p.word(true)
	case unicode.IsLetter(c) || c == '_' || c == '\\' || c == '.' || c == '~' || c == '%' || c == '?' || c == '/':
		e.name = p.word(true)
	default:
		p.expression(e)
		e.text = p.text(start)
		return e
	}
	p.commandArgs(e)
	e.text = p.text(start)
	return e
}

// commandArgs reads a command's arguments and redirections.
func (p *parser) commandArgs(e *elem) {
	for {
		p.space(false)
		if p.atEnd() || p.peek(0) == '&' && p.peek(1) != '&' && (p.peek(1) == 0 || p.peek(1) == '\n' || p.peek(1) == ';' || p.peek(1) == ' ') {
			return
		}
		if r, ok := p.redirection(); ok {
			e.redirs = append(e.redirs, r)
			continue
		}
		if p.peek(0) == '-' && p.peek(1) == '-' && p.peek(2) == '%' {
			p.i += 3
			j := p.i
			for p.i < len(p.src) && p.src[p.i] != '\n' && p.src[p.i] != '|' {
				p.i++
			}
			e.rawTail = strings.TrimSpace(string(p.src[j:p.i]))
			return
		}
		a := &arg{}
		if c := p.peek(0); (c == '-' || c == '–' || c == '—') && (unicode.IsLetter(p.peek(1)) || p.peek(1) == '_' || p.peek(1) == '?') {
			p.i++
			j := p.i
			for p.i < len(p.src) && (unicode.IsLetter(p.src[p.i]) || unicode.IsDigit(p.src[p.i]) || p.src[p.i] == '_' || p.src[p.i] == '-' || p.src[p.i] == '?') {
				p.i++
			}
			a.param = string(p.src[j:p.i])
			if p.peek(0) == ':' {
				a.colon = true
				p.i++
				a.values = p.list()
			} else if !p.atWordEnd() {
				// -x.y or -a=b: one word that starts with a dash.
				p.i = j - 1
				a.param = ""
				a.values = p.list()
			}
			e.args = append(e.args, a)
			continue
		}
		a.values = p.list()
		e.args = append(e.args, a)
	}
}

func (p *parser) atWordEnd() bool {
	c := p.peek(0)
	return p.eof() || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == ')' || c == '}' || c == ','
}

// list reads a value, or a comma list of values.
func (p *parser) list() []*value {
	var out []*value
	for {
		out = append(out, p.word(false))
		if p.peek(0) != ',' {
			return out
		}
		p.i++
		p.space(true)
	}
}

// redirection reads a redirection operator and its target.
func (p *parser) redirection() (redir, bool) {
	j := p.i
	if c := p.peek(0); (c >= '1' && c <= '6' || c == '*') && p.peek(1) == '>' {
		j++
	}
	if j >= len(p.src) || p.src[j] != '>' {
		if p.peek(0) == '<' && p.peek(1) != '#' {
			p.errf("the '<' operator is reserved for future use")
		}
		return redir{}, false
	}
	j++
	if j < len(p.src) && p.src[j] == '>' {
		j++
	}
	op := string(p.src[p.i:j])
	p.i = j
	if p.peek(0) == '&' && (p.peek(1) == '1' || p.peek(1) == '2') {
		p.i += 2
		return redir{op: op + "&" + string(p.src[p.i-1])}, true
	}
	p.space(false)
	return redir{op: op, target: p.word(false)}, true
}

// word reads one value in command mode: a bareword (with quoted pieces,
// variables and subexpressions glued to it), a string, a group, a
// script block, a hashtable, or a value followed by member access and
// method calls (kept as vMethod values after it in args).
func (p *parser) word(name bool) *value {
	p.count()
	start := p.i
	switch c := p.peek(0); {
	case c == '(':
		p.i++
		v := &value{kind: vGroup, stmts: p.statements(')')}
		return p.members(v, start)
	case c == '{':
		p.i++
		v := &value{kind: vBlock, stmts: p.statements('}')}
		v.text = p.text(start)
		return v
	case c == '@' && p.peek(1) == '(':
		p.i += 2
		return p.members(&value{kind: vGroup, stmts: p.statements(')')}, start)
	case c == '@' && p.peek(1) == '{':
		p.i += 2
		v := &value{kind: vHash, stmts: p.statements('}')}
		v.text = p.text(start)
		return v
	case c == '@' && (p.peek(1) == '"' || p.peek(1) == '\''):
		return p.hereString()
	case c == '[':
		t := p.typeLiteral()
		v := &value{kind: vType, name: t}
		return p.members(v, start)
	}
	v := &value{kind: vWord}
	for !p.eof() {
		c := p.peek(0)
		switch {
		case c == '\'' || c == '‘' || c == '’':
			v.parts = append(v.parts, part{lit: p.single(), quoted: true})
		case c == '"' || c == '“' || c == '”':
			v.parts = append(v.parts, p.double()...)
		case c == '$' && p.peek(1) == '(':
			p.i += 2
			v.parts = append(v.parts, part{group: p.statements(')')})
		case c == '$' && (unicode.IsLetter(p.peek(1)) || p.peek(1) == '_' || p.peek(1) == '{' || p.peek(1) == '?' || p.peek(1) == '$' || p.peek(1) == '^'):
			v.parts = append(v.parts, part{varb: p.variable()})
		case c == '`' && p.peek(1) != 0:
			v.parts = append(v.parts, part{lit: string(escape(p.peek(1)))})
			p.i += 2
		case c == '.' && len(v.parts) > 0 && !name && (p.peek(1) != 0 && unicode.IsLetter(p.peek(1))) && v.parts[len(v.parts)-1].varb != "":
			// $x.Member: member access on a variable.
			return p.members(v, start)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == ')' || c == '}' || c == ',' && !name || c == '{' && len(v.parts) > 0 && name:
			v.text = p.text(start)
			return v
		case c == '&' && (p.peek(1) == '&' || p.peek(1) == 0 || p.peek(1) == ' '):
			v.text = p.text(start)
			return v
		case c == '(' && name && len(v.parts) > 0:
			// IEX(…): the name ends where a group starts.
			v.text = p.text(start)
			return v
		case c == '(' && len(v.parts) > 0 && !name:
			// f(…): not a command-mode construct; the group runs.
			p.i++
			v.parts = append(v.parts, part{group: p.statements(')')})
		case (c == '>' || c == '<') && !name:
			v.text = p.text(start)
			return v
		default:
			j := p.i
			for p.i < len(p.src) && !strings.ContainsRune(" \t\n\r;|)}'\"$`,(<>{&‘’“”", p.src[p.i]) {
				p.i++
			}
			if p.i == j {
				p.i++
			}
			v.parts = append(v.parts, part{lit: string(p.src[j:p.i])})
		}
	}
	v.text = p.text(start)
	return v
}

// members reads member access and method calls after v: .Name,
// .Name(args), ::Name(args), [index]. The values come back as one
// vGroup-like word: v with method values chained in args.
func (p *parser) members(v *value, start int) *value {
	for {
		switch {
		case p.peek(0) == '.' && (unicode.IsLetter(p.peek(1)) || p.peek(1) == '_'), p.peek(0) == ':' && p.peek(1) == ':':
			if p.peek(0) == ':' {
				p.i++
			}
			p.i++
			name := p.bareword()
			p.i += len([]rune(name))
			m := &value{kind: vMethod, name: name}
			if p.peek(0) == '(' {
				p.i++
				m.args = p.methodArgs()
			}
			v.args = append(v.args, m)
		case p.peek(0) == '[':
			p.typeLiteral() // an index: [0], [-1], ['key']
		default:
			v.text = p.text(start)
			return v
		}
	}
}

// methodArgs reads a method call's arguments up to ')': each a value
// (an argument made of several values, 'a' + $b, is a group of them).
func (p *parser) methodArgs() []*value {
	var out []*value
	var cur []*value
	flush := func() {
		switch len(cur) {
		case 0:
		case 1:
			out = append(out, cur[0])
		default:
			out = append(out, &value{kind: vGroup, stmts: []*stmt{{pipes: []*pipeline{{elems: []*elem{{expr: cur}}}}}}})
		}
		cur = nil
	}
	for {
		p.space(true)
		switch c := p.peek(0); {
		case p.eof():
			p.errf("missing ')'")
		case c == ')':
			p.i++
			flush()
			return out
		case c == ',':
			p.i++
			flush()
		case c == '+' || c == '-' && !unicode.IsLetter(p.peek(1)) || c == '*' || c == '/' || c == '!' || c == '=':
			p.i++
			cur = append(cur, &value{kind: vOther, text: string(c)})
		case c == '-':
			p.i++
			op := p.bareword()
			p.i += len([]rune(op))
			cur = append(cur, &value{kind: vOther, text: "-" + op})
		default:
			start := p.i
			v := p.word(false)
			if p.i == start {
				p.i++
			}
			cur = append(cur, v)
		}
	}
}

// typeLiteral reads [Type] and returns the type name.
func (p *parser) typeLiteral() string {
	j := p.i + 1
	depth := 0
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				p.i++
				return strings.TrimSpace(string(p.src[j : p.i-1]))
			}
		case '\n':
			p.errf("unterminated type name")
		}
		p.i++
	}
	p.errf("unterminated type name")
	return ""
}

// variable reads $name, ${name}, $env:NAME, $script:x.
func (p *parser) variable() string {
	p.i++ // $
	if p.peek(0) == '{' {
		j := p.i + 1
		for p.i < len(p.src) && p.src[p.i] != '}' {
			p.i++
		}
		if p.eof() {
			p.errf("unterminated ${")
		}
		p.i++
		return string(p.src[j : p.i-1])
	}
	if c := p.peek(0); c == '?' || c == '$' || c == '^' {
		p.i++
		return string(c)
	}
	j := p.i
	for p.i < len(p.src) && (unicode.IsLetter(p.src[p.i]) || unicode.IsDigit(p.src[p.i]) || p.src[p.i] == '_' || p.src[p.i] == ':' && p.i+1 < len(p.src) && p.src[p.i+1] != ':' && p.src[p.i+1] != ' ') {
		p.i++
	}
	return string(p.src[j:p.i])
}

// single reads a single-quoted string (” is a quote).
func (p *parser) single() string {
	p.i++
	var b strings.Builder
	for {
		if p.eof() {
			p.errf("unterminated string")
		}
		c := p.src[p.i]
		if c == '\'' || c == '‘' || c == '’' {
			if n := p.peek(1); n == '\'' || n == '‘' || n == '’' {
				b.WriteRune('\'')
				p.i += 2
				continue
			}
			p.i++
			return b.String()
		}
		b.WriteRune(c)
		p.i++
	}
}

// double reads a double-quoted (expandable) string.
func (p *parser) double() []part {
	p.i++
	var out []part
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, part{lit: b.String(), quoted: true})
			b.Reset()
		}
	}
	for {
		if p.eof() {
			p.errf("unterminated string")
		}
		c := p.src[p.i]
		switch {
		case c == '"' || c == '“' || c == '”':
			if n := p.peek(1); n == '"' || n == '“' || n == '”' {
				b.WriteRune('"')
				p.i += 2
				continue
			}
			p.i++
			flush()
			if len(out) == 0 {
				out = append(out, part{quoted: true})
			}
			return out
		case c == '`' && p.peek(1) != 0:
			b.WriteRune(escape(p.peek(1)))
			p.i += 2
		case c == '$' && p.peek(1) == '(':
			flush()
			p.i += 2
			out = append(out, part{group: p.statements(')'), quoted: true})
		case c == '$' && (unicode.IsLetter(p.peek(1)) || p.peek(1) == '_' || p.peek(1) == '{'):
			flush()
			out = append(out, part{varb: p.variable(), quoted: true})
		default:
			b.WriteRune(c)
			p.i++
		}
	}
}

// hereString reads @' … '@ or @" … "@ (the closing quote at a line's
// start).
func (p *parser) hereString() *value {
	start := p.i
	q := p.peek(1)
	p.i += 2
	body := strings.Index(string(p.src[p.i:]), "\n"+string(q)+"@")
	if body < 0 {
		p.errf("unterminated here-string")
	}
	text := string(p.src[p.i:])[:body]
	p.i += len([]rune(text)) + 3
	text = strings.TrimPrefix(strings.TrimPrefix(text, "\r"), "\n")
	v := &value{kind: vWord, parts: []part{{lit: strings.TrimSuffix(text, "\r"), quoted: true}}}
	if q == '"' {
		sub := &parser{src: []rune("\"" + strings.ReplaceAll(text, `"`, "`\"") + "\""), depth: p.depth}
		v.parts = sub.double()
	}
	v.text = p.text(start)
	return v
}

// expression reads an expression element: values, operators and
// nested groups up to the end of the pipeline element; an assignment's
// right-hand side is read as a pipeline.
func (p *parser) expression(e *elem) {
	for {
		p.space(false)
		if p.atEnd() {
			return
		}
		if r, ok := p.redirection(); ok {
			e.redirs = append(e.redirs, r)
			continue
		}
		c := p.peek(0)
		switch {
		case c == '=' && p.peek(1) != '=' || (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '?') && p.peek(1) == '=' && p.peek(2) != '=':
			if c != '=' {
				p.i++
			}
			p.i++
			p.space(true)
			v := &value{kind: vGroup, stmts: []*stmt{p.statement()}}
			e.expr = append(e.expr, v)
			return
		case c == '&' && p.peek(1) != '&':
			p.i++
			e.expr = append(e.expr, &value{kind: vOther, text: "&"})
		case c == '$' || c == '"' || c == '\'' || c == '(' || c == '{' || c == '@' || c == '[' || c == '‘' || c == '“':
			e.expr = append(e.expr, p.word(false))
		case c == '-' && unicode.IsLetter(p.peek(1)):
			p.i++
			op := p.bareword()
			p.i += len([]rune(op))
			e.expr = append(e.expr, &value{kind: vOther, text: "-" + op})
		default:
			j := p.i
			for p.i < len(p.src) && !strings.ContainsRune(" \t\n\r;|)}$\"'([{@&=", p.src[p.i]) {
				p.i++
			}
			if p.i == j {
				p.i++
			}
			tok := string(p.src[j:p.i])
			if unicode.IsLetter([]rune(tok)[0]) && !strings.Contains(tok, ".") {
				// A bareword in an expression (after an operator): a
				// command would be a parse error in PowerShell; read it
				// as the command it names, conservatively.
				p.i = j
				sub := &elem{name: p.word(true)}
				p.commandArgs(sub)
				sub.text = p.text(j)
				e.expr = append(e.expr, &value{kind: vGroup, stmts: []*stmt{{pipes: []*pipeline{{elems: []*elem{sub}}}, text: sub.text}}})
				continue
			}
			e.expr = append(e.expr, &value{kind: vOther, text: tok})
		}
	}
}

// escape returns what a backtick escape stands for.
func escape(c rune) rune {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case '0':
		return 0
	case 'a':
		return 7
	case 'e':
		return 27
	}
	return c
}

// parse reads src into statements.
func parse(src string) (stmts []*stmt, err error) {
	p := &parser{src: []rune(src)}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *SyntaxError:
				err = e
			case *LimitError:
				err = e
			default:
				panic(r)
			}
		}
	}()
	return p.statements(0), nil
}
