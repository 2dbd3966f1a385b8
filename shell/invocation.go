package shell

import (
	"strings"

	"github.com/toolwall/toolwall/programs"
)

// Invocation is a command's argv read through its program's catalog
// entry (package programs): the options with their values and the
// operands with their roles. For a program not in the catalog, Program
// is nil and every operand has role programs.Unknown.
type Invocation struct {
	*programs.Parsed
	// Args are the words read; Args[0] names the program.
	Args []Word
}

// invoke reads args through the catalog entry of name, the program
// args[0] names (nil when that is only known at run time).
func invoke(name string, args []Word) *Invocation {
	if name == "" {
		return nil
	}
	p := programs.Lookup(name)
	return &Invocation{Parsed: programs.Parse(p, tokens(args)), Args: args}
}

// tokens converts words for the option parser.
func tokens(args []Word) []programs.Token {
	out := make([]programs.Token, len(args))
	for i, a := range args {
		out[i] = programs.Token{Value: a.Value, Prefix: a.Prefix, Dynamic: a.Dynamic, Splits: a.Dynamic && unquotedExpansion(a.Raw)}
	}
	return out
}

// unquotedExpansion reports whether raw has an expansion ($ or `) outside
// quotes, whose word splitting could produce several words or options.
func unquotedExpansion(raw string) bool {
	var quote byte
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' || c == '`':
			return true
		}
	}
	return false
}

// Program returns the catalog entry read (the subcommand's when one was
// named), or nil.
func (v *Invocation) Program() *programs.Program {
	if v == nil || v.Parsed == nil {
		return nil
	}
	return v.Parsed.Program
}

// Operand returns the word of operand k (the zero Word when out of
// range).
func (v *Invocation) Operand(k int) Word {
	if k < 0 || k >= len(v.Operands) {
		return Word{}
	}
	return v.Args[v.Operands[k].Word]
}

// OperandsOf returns the words of the operands with one of the roles.
func (v *Invocation) OperandsOf(roles ...programs.Role) []Word {
	var out []Word
	for _, op := range v.Operands {
		for _, r := range roles {
			if op.Role == r {
				out = append(out, v.Args[op.Word])
				break
			}
		}
	}
	return out
}

// Value returns the value of option o as a word: the next word, or the
// attached part of the option's own word.
func (v *Invocation) Value(o programs.Opt) Word {
	if !o.HasValue || o.ValueWord < 0 {
		return Word{}
	}
	if o.ValueWord != o.Word {
		return v.Args[o.ValueWord]
	}
	src := v.Args[o.Word]
	w := Word{Raw: src.Raw, Value: o.Value.Value, Prefix: o.Value.Prefix, Dynamic: o.Value.Dynamic, Glob: src.Glob}
	if !w.Dynamic {
		w.Prefix = w.Value
	}
	if off := len(src.Value) - len(w.Value); w.Dynamic && src.code != "" && off >= 0 && off <= len(src.Prefix) {
		w.code = src.code[off:] // the value's unknown parts, for code re-read
	}
	return w
}

// Values returns the values of every occurrence of the named options.
func (v *Invocation) Values(names ...string) []Word {
	var out []Word
	for _, o := range v.Parsed.Values(names...) {
		out = append(out, v.Value(o))
	}
	return out
}

// ValuesOf returns the values of the options whose role is one of roles.
func (v *Invocation) ValuesOf(roles ...programs.Role) []Word {
	var out []Word
	for _, o := range v.Opts {
		if !o.HasValue {
			continue
		}
		for _, r := range roles {
			if o.Role == r {
				out = append(out, v.Value(o))
				break
			}
		}
	}
	return out
}

// RunsStdin reports whether the program runs what it reads on standard
// input as a program: its entry says stdin is code or a remote command
// (sh, python, ssh host), or an operand or option of role exec names
// standard input (python3 -, bash /dev/stdin).
func (v *Invocation) RunsStdin() bool {
	if v == nil || v.Parsed == nil {
		return false
	}
	if v.Stdin == programs.Code || v.Stdin == programs.Remote {
		return true
	}
	for _, w := range v.ValuesOf(programs.Exec) {
		if !w.Dynamic && isStdinFile(w.Value) {
			return true
		}
	}
	for _, w := range v.OperandsOf(programs.Exec) {
		if !w.Dynamic && isStdinFile(w.Value) {
			return true
		}
	}
	return false
}

// rest returns the words from operand k to the end of the argv.
func (v *Invocation) rest(k int) []Word {
	if k < 0 || k >= len(v.Operands) {
		return nil
	}
	return v.Args[v.Operands[k].Word:]
}

// firstRole returns the index of the first operand with role r, or -1.
func (v *Invocation) firstRole(r programs.Role) int {
	for k, op := range v.Operands {
		if op.Role == r {
			return k
		}
	}
	return -1
}

// String renders the invocation as programs.Parsed.Render does.
func (v *Invocation) String() string {
	if v == nil {
		return ""
	}
	return strings.TrimSpace(v.Render(tokens(v.Args)))
}
