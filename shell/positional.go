package shell

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// positional holds the positional parameters of one shell or function
// call ($0, $1…, "$@"), when the reader knows them: the operands after an
// sh -c body, the arguments of a called function, `set -- …`.
type positional struct {
	known bool
	// zero is $0; args are $1, $2, …
	zero Word
	args []Word
}

// newPositional returns known parameters: $0 and then args.
func newPositional(zero Word, args []Word) *positional {
	return &positional{known: true, zero: zero, args: append([]Word(nil), args...)}
}

// lookup returns $name for a digit name, $@ / $* joined by spaces, or $#.
func (p *positional) lookup(name string) (Word, bool) {
	if p == nil || !p.known {
		return Word{}, false
	}
	switch name {
	case "@", "*":
		var b wordBuf
		for i, a := range p.args {
			if i > 0 {
				b.b.WriteByte(' ')
			}
			writeWord(&b, a)
		}
		return b.word(""), true
	case "#":
		n := strconv.Itoa(len(p.args))
		return Word{Value: n, Prefix: n}, true
	}
	i, err := strconv.Atoi(name)
	if err != nil || i < 0 {
		return Word{}, false
	}
	switch {
	case i == 0:
		return p.zero, true
	case i <= len(p.args):
		return p.args[i-1], true
	}
	return Word{}, true
}

// writeWord appends a resolved word to b: its value, or its certain
// prefix followed by a dynamic part.
func writeWord(b *wordBuf, a Word) {
	if a.Dynamic {
		b.b.WriteString(a.Prefix)
		b.dynamic()
		mid := strings.TrimPrefix(a.Value, a.Prefix)
		if len(a.Suffix) <= len(mid) {
			mid = mid[:len(mid)-len(a.Suffix)]
		}
		b.b.WriteString(mid)
		b.dynamic()
		b.b.WriteString(a.Suffix)
		return
	}
	b.b.WriteString(a.Value)
}

// positionalParam resolves a plain $N, ${N}, $@, $*, $# into b when the
// parameters are known (bash manual §3.4.1, §3.4.2).
func (w *walker) positionalParam(p *syntax.ParamExp, b *wordBuf, q quoting, f *frame) bool {
	if p.Param == nil || p.Exp != nil || p.Excl || p.Length || p.Width || p.IsSet || p.Flags != nil ||
		p.NestedParam != nil || p.Index != nil || len(p.Modifiers) > 0 || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return false
	}
	v, ok := f.pos.lookup(p.Param.Value)
	if !ok {
		return false
	}
	writeWord(b, v)
	if q == unquoted && strings.ContainsAny(v.Value, "*?[") {
		b.glob = true
	}
	return true
}

// positionalWords expands a word that is exactly an unquoted $N, $@ or
// $*, or a quoted "$@", into its fields: unquoted values are split on
// blanks (an empty one yields no word), "$@" yields one word per
// parameter. ok is false for any other word or unknown parameters.
func (w *walker) positionalWords(x *syntax.Word, f *frame, out []Word) ([]Word, bool) {
	if f.pos == nil || !f.pos.known || len(x.Parts) != 1 {
		return out, false
	}
	quoted := false
	part := x.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 && !dq.Dollar {
		quoted, part = true, dq.Parts[0]
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil {
		return out, false
	}
	name := p.Param.Value
	var b wordBuf
	if (quoted && name != "@") || !w.positionalParam(p, &b, unquoted, f) {
		return out, false
	}
	raw := rawText(f.src, x)
	if quoted || name == "@" || name == "*" {
		list := f.pos.args
		if !quoted {
			var split []Word
			for _, a := range list {
				split = append(split, fields(a, raw)...)
			}
			return append(out, split...), true
		}
		for _, a := range list {
			a.Raw = raw
			out = append(out, a)
		}
		return out, true
	}
	v, _ := f.pos.lookup(name)
	return append(out, fields(v, raw)...), true
}

// fields splits an unquoted expansion on blanks (default IFS); a dynamic
// value stays one word.
func fields(a Word, raw string) []Word {
	a.Raw = raw
	if a.Dynamic {
		return []Word{a}
	}
	var out []Word
	for _, s := range strings.Fields(a.Value) {
		out = append(out, Word{Raw: raw, Value: s, Prefix: s, Glob: strings.ContainsAny(s, "*?[")})
	}
	return out
}

// set applies `set -- ARGS` / `set ARGS` (operands replace the positional
// parameters) and `shift [N]` to the current parameters.
func (w *walker) set(cmd *Command, f frame) {
	p := f.pos
	if p == nil {
		return
	}
	args := cmd.Args[1:]
	if cmd.Name == "shift" {
		n := 1
		if len(args) > 0 {
			k, err := strconv.Atoi(args[0].Value)
			if args[0].Dynamic || err != nil || k < 0 {
				p.known = false
				return
			}
			n = k
		}
		if p.known && n <= len(p.args) {
			p.args = p.args[n:]
		}
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Dynamic:
			p.known = false
			return
		case a.Value == "--":
			p.known, p.args = true, append([]Word(nil), args[i+1:]...)
			return
		case a.Value == "-o" || a.Value == "+o":
			i++ // the option name is no operand
		case len(a.Value) > 1 && (a.Value[0] == '-' || a.Value[0] == '+'):
		default:
			p.known, p.args = true, append([]Word(nil), args[i:]...)
			return
		}
	}
}
