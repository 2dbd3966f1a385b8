package programs

import (
	"strconv"
	"strings"
)

// Render describes p for people and tests: the program path, each option
// as NAME (with =VALUE and its role when it has a value; "?" marks an
// option the entry does not list), "--" where it was, and each operand as
// ROLE:VALUE; a dynamic word is shown as its static prefix followed by
// "…"; last, each word that nearly spells another ([Near]) as
// near:WORD=AS[|AS…]. Example: "rm -recursive -force | delete:/x".
func (p *Parsed) Render(argv []Token) string {
	var b strings.Builder
	if p.Program == nil {
		if len(argv) > 0 {
			b.WriteString(argv[0].Value)
		}
		b.WriteString(" (not in the catalog)")
	} else {
		b.WriteString(p.Program.Path())
	}
	for _, o := range p.Opts {
		b.WriteString(" -")
		if o.Negated {
			b.WriteString("no-")
		}
		b.WriteString(o.Name)
		if !o.Known {
			b.WriteByte('?')
		}
		if o.HasValue {
			b.WriteByte('=')
			b.WriteString(show(o.Value))
			if o.Role != Unknown {
				b.WriteString("(" + o.Role.String() + ")")
			}
		}
	}
	b.WriteString(" |")
	for k, op := range p.Operands {
		if k == p.DashDash {
			b.WriteString(" --")
		}
		b.WriteByte(' ')
		b.WriteString(op.Role.String())
		b.WriteByte(':')
		b.WriteString(show(argv[op.Word]))
	}
	if p.Stdin != Unknown {
		b.WriteString(" stdin:" + p.Stdin.String())
	}
	if p.MaybeFlags {
		b.WriteString(" maybe-flags")
	}
	for _, n := range p.Near {
		b.WriteString(" near:" + show(argv[n.Word]) + "=" + strings.Join(n.As, "|"))
	}
	return b.String()
}

func show(t Token) string {
	v := t.Value
	if t.Dynamic {
		v = t.Prefix + "…"
	}
	if v == "" || strings.ContainsAny(v, " \t\n|") {
		return strconv.Quote(v)
	}
	return v
}
