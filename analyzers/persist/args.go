package persist

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// spec describes a program's options the way getopt_long reads them.
type spec struct {
	// vals lists the short option letters that take a value, attached
	// ("-ofile") or as the next word ("-o file").
	vals string
	// opt lists the short option letters whose value is optional and only
	// attached: the rest of the word is the value ("-i.bak"), possibly
	// empty.
	opt string
	// long lists the long option names the program knows; a name ending
	// in "=" takes a value (attached with "=" or as the next word). A
	// unique prefix of a listed name stands for it (getopt_long).
	long []string
	// posix stops option parsing at the first operand.
	posix bool
}

// flag is one parsed option: name is "-x" or "--name" (the full listed
// name when an abbreviation was given).
type flag struct {
	name  string
	value shell.Word
	has   bool
}

// argv is a command's arguments split into options and operands.
type argv struct {
	flags    []flag
	operands []shell.Word
}

// parse splits args (the words after the program name) by s. A dynamic
// word that looks like an option is taken as an option; one that does
// not, as an operand.
func parse(args []shell.Word, s spec) argv {
	var a argv
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--" && !w.Dynamic:
			a.operands = append(a.operands, args[i+1:]...)
			return a
		case strings.HasPrefix(v, "--") && len(v) > 2:
			body, val, eq := strings.Cut(v[2:], "=")
			name, takes := s.resolve(body)
			f := flag{name: "--" + name}
			switch {
			case eq:
				f.value, f.has = shell.Word{Raw: val, Value: val, Prefix: val, Dynamic: w.Dynamic}, true
			case takes && i+1 < len(args):
				i++
				f.value, f.has = args[i], true
			}
			a.flags = append(a.flags, f)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for j := 1; j < len(v); j++ {
				f := flag{name: "-" + v[j:j+1]}
				if strings.IndexByte(s.opt, v[j]) >= 0 {
					rest := v[j+1:]
					f.value, f.has = shell.Word{Raw: rest, Value: rest, Prefix: rest, Dynamic: w.Dynamic}, rest != ""
					a.flags = append(a.flags, f)
					break
				}
				if strings.IndexByte(s.vals, v[j]) >= 0 {
					switch {
					case j+1 < len(v):
						rest := v[j+1:]
						f.value, f.has = shell.Word{Raw: rest, Value: rest, Prefix: rest, Dynamic: w.Dynamic}, true
					case i+1 < len(args):
						i++
						f.value, f.has = args[i], true
					}
					a.flags = append(a.flags, f)
					break
				}
				a.flags = append(a.flags, f)
			}
		default:
			a.operands = append(a.operands, w)
			if s.posix {
				a.operands = append(a.operands, args[i+1:]...)
				return a
			}
		}
	}
	return a
}

// resolve maps a long option name (or a unique prefix of one) to its
// listed name and whether it takes a value. Unknown names are returned as
// given, without a value.
func (s spec) resolve(name string) (string, bool) {
	match, takes, n := "", false, 0
	for _, l := range s.long {
		full, val := strings.CutSuffix(l, "=")
		if full == name {
			return full, val
		}
		if name != "" && strings.HasPrefix(full, name) {
			match, takes = full, val
			n++
		}
	}
	if n == 1 {
		return match, takes
	}
	return name, false
}

// has reports whether any of names was given.
func (a argv) has(names ...string) bool {
	for _, f := range a.flags {
		for _, n := range names {
			if f.name == n {
				return true
			}
		}
	}
	return false
}

// values returns the values of every occurrence of names, in order.
func (a argv) values(names ...string) []shell.Word {
	var out []shell.Word
	for _, f := range a.flags {
		for _, n := range names {
			if f.name == n && f.has {
				out = append(out, f.value)
			}
		}
	}
	return out
}

// operand returns the value of operand i, or "".
func (a argv) operand(i int) string {
	if i < 0 || i >= len(a.operands) {
		return ""
	}
	return a.operands[i].Value
}

// lower returns operand i lower-cased.
func (a argv) lower(i int) string { return strings.ToLower(a.operand(i)) }
