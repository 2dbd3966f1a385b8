package secrets

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// spec says which options of a command take a value, so that a value is
// not mistaken for a file operand.
type spec struct {
	// short lists the short option letters that take a value ("dFT").
	short string
	// long lists the long option names (without "--") that take a value.
	long []string
	// abbrev accepts a unique prefix of a long name in long, as curl and
	// getopt_long (wget) do: "--data-bin" is "--data-binary". An exact
	// name in flags (a long switch that is a prefix of a valued name,
	// curl's "--head" of "--header") is never expanded.
	abbrev bool
	// flags lists the long switches that abbrev must leave alone.
	flags []string
}

// longName returns the long option name as the program reads it: name
// itself, or with sp.abbrev the one name in sp.long that it is a unique
// prefix of.
func (sp spec) longName(name string) string {
	if !sp.abbrev || name == "" || contains(sp.long, name) || contains(sp.flags, name) {
		return name
	}
	found := ""
	for _, l := range sp.long {
		if strings.HasPrefix(l, name) {
			if found != "" {
				return name
			}
			found = l
		}
	}
	if found == "" {
		return name
	}
	return found
}

// option is one option seen in an argv, with its value when it takes one.
type option struct {
	name  string // "d" for -d, "data" for --data
	value shell.Word
	// valued is set when the option took a value (--name=v, or a name the
	// spec says takes one).
	valued bool
}

// argv is a command line split the way getopt-style programs split it.
type argv struct {
	operands []shell.Word
	options  []option
}

// has reports whether any of the named options (short letters or long
// names) was given.
func (a argv) has(names ...string) bool {
	for _, o := range a.options {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// values returns the values of the named options that took one, in
// order.
func (a argv) values(names ...string) []shell.Word {
	var out []shell.Word
	for _, o := range a.options {
		for _, n := range names {
			if o.name == n && o.valued {
				out = append(out, o.value)
			}
		}
	}
	return out
}

// sub returns w with its value replaced by the part of it that is the
// option's value.
func sub(w shell.Word, v string) shell.Word {
	w.Value = v
	w.Prefix = v
	return w
}

// parse splits args (the words after the command name) by sp: "--" ends
// options, "-" is an operand, "--name=value" and "--name value" are long
// options, "-abc" is a run of short letters where the first letter that
// takes a value takes the rest of the word or the next word.
func parse(args []shell.Word, sp spec) argv {
	var a argv
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--":
			a.operands = append(a.operands, args[i+1:]...)
			return a
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v[2:], "=")
			name = sp.longName(name)
			o := option{name: name}
			switch {
			case eq:
				o.value, o.valued = sub(w, val), true
			case contains(sp.long, name) && i+1 < len(args):
				i++
				o.value, o.valued = args[i], true
			}
			a.options = append(a.options, o)
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				o := option{name: v[j : j+1]}
				if strings.IndexByte(sp.short, v[j]) >= 0 {
					if j+1 < len(v) {
						o.value, o.valued = sub(w, v[j+1:]), true
					} else if i+1 < len(args) {
						i++
						o.value, o.valued = args[i], true
					}
					a.options = append(a.options, o)
					break
				}
				a.options = append(a.options, o)
			}
		default:
			a.operands = append(a.operands, w)
		}
	}
	return a
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
