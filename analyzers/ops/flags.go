package ops

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// argKind says whether an option takes a value.
type argKind uint8

const (
	noArg  argKind = iota // a switch
	reqArg                // a value: attached ("-cX", "--x=X") or the next word
	optArg                // a value only when attached ("--x=X", "-pX")
)

// optSpec describes one program's options, the way its own parser reads
// them.
type optSpec struct {
	// short maps a one-letter option to its kind; letters not listed are
	// switches. Short options bundle ("-fdx").
	short map[byte]argKind
	// long maps a long option name (without dashes) to its kind; names not
	// listed are switches unless written with "=".
	long map[string]argKind
	// abbrev accepts a unique prefix of a listed long name (getopt_long,
	// git's parse-options, MySQL's my_getopt). An exact name wins.
	abbrev bool
	// negate accepts "--no-NAME" for every listed NAME (git parse-options).
	negate bool
	// posix stops option parsing at the first operand (no permutation).
	posix bool
	// singleDash reads "-name" as a long option (sqlite3, Go's flag).
	singleDash bool
}

// opt is one parsed option. name is "-x" for a short option and "--name"
// for a long one (the resolved full name; "--no-name" when negated).
type opt struct {
	name     string
	value    string
	hasValue bool
	// dynamic is set when the option's value is only known at run time;
	// prefix is then its certain leading text ("" when the value was
	// attached to a dynamic option word).
	dynamic bool
	prefix  string
}

// parsed is an argv split into options and operands.
type parsed struct {
	opts     []opt
	operands []shell.Word
	// dashdash is the number of operands seen before a "--" word, or -1
	// when there was none.
	dashdash int
}

// has reports whether any of names was given (and not later negated with
// "--no-").
func (p *parsed) has(names ...string) bool {
	on := false
	for _, o := range p.opts {
		for _, n := range names {
			switch o.name {
			case n:
				on = true
			case negated(n):
				on = false
			}
		}
	}
	return on
}

// count returns how many times any of names was given.
func (p *parsed) count(names ...string) int {
	c := 0
	for _, o := range p.opts {
		for _, n := range names {
			switch o.name {
			case n:
				c++
			case negated(n):
				c = 0
			}
		}
	}
	return c
}

// values returns the values of every occurrence of names, in order.
func (p *parsed) values(names ...string) []opt {
	var out []opt
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n && o.hasValue {
				out = append(out, o)
			}
		}
	}
	return out
}

// last returns the last occurrence of any of names.
func (p *parsed) last(names ...string) (opt, bool) {
	var found opt
	ok := false
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				found, ok = o, true
			}
		}
	}
	return found, ok
}

// afterDashdash returns the operands written after "--".
func (p *parsed) afterDashdash() []shell.Word {
	if p.dashdash < 0 {
		return nil
	}
	return p.operands[p.dashdash:]
}

// operand returns the value of operand i, or "".
func (p *parsed) operand(i int) string {
	if i < 0 || i >= len(p.operands) {
		return ""
	}
	return p.operands[i].Value
}

func negated(name string) string {
	if strings.HasPrefix(name, "--") {
		return "--no-" + name[2:]
	}
	return "\x00"
}

// parseArgs parses args (the words after the program or subcommand name)
// with spec.
func parseArgs(args []shell.Word, spec *optSpec) parsed {
	p := parsed{dashdash: -1}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--" && !w.Dynamic:
			p.dashdash = len(p.operands)
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(v, "--") && len(v) > 2:
			i = p.long(args, i, v[2:], spec)
		case strings.HasPrefix(v, "-") && len(v) > 1 && spec.singleDash:
			i = p.long(args, i, v[1:], spec)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			i = p.short(args, i, v[1:], spec)
		default:
			p.operands = append(p.operands, w)
			if spec.posix {
				p.operands = append(p.operands, args[i+1:]...)
				return p
			}
		}
	}
	return p
}

// long parses the long option body (name or name=value) at args[i] and
// returns the index of the last word it used.
func (p *parsed) long(args []shell.Word, i int, body string, spec *optSpec) int {
	name, value, eq := strings.Cut(body, "=")
	neg := false
	full, kind, ok := resolveLong(name, spec)
	if !ok && spec.negate && strings.HasPrefix(name, "no-") {
		if f, k, ok2 := resolveLong(name[3:], spec); ok2 {
			full, kind, neg = f, k, true
			kind = noArg
		}
	}
	o := opt{name: "--" + full, dynamic: args[i].Dynamic}
	if neg {
		o.name = "--no-" + full
	}
	switch {
	case eq:
		o.value, o.hasValue = value, true
		if !o.dynamic {
			o.prefix = value
		}
	case kind == reqArg && i+1 < len(args):
		i++
		o.value, o.hasValue, o.dynamic, o.prefix = args[i].Value, true, args[i].Dynamic, args[i].Prefix
	}
	p.opts = append(p.opts, o)
	return i
}

// resolveLong maps name to a listed long option: the exact name, else its
// unique abbreviation when spec allows them. Unlisted names are returned
// as given, with ok false.
func resolveLong(name string, spec *optSpec) (string, argKind, bool) {
	if k, ok := spec.long[name]; ok {
		return name, k, true
	}
	if !spec.abbrev || name == "" {
		return name, noArg, false
	}
	match, n := "", 0
	for full := range spec.long {
		if strings.HasPrefix(full, name) {
			match = full
			n++
		}
	}
	if n == 1 {
		return match, spec.long[match], true
	}
	return name, noArg, false
}

// short parses a bundle of short options at args[i] and returns the index
// of the last word it used.
func (p *parsed) short(args []shell.Word, i int, bundle string, spec *optSpec) int {
	for j := 0; j < len(bundle); j++ {
		c := bundle[j]
		o := opt{name: "-" + string(c), dynamic: args[i].Dynamic}
		switch spec.short[c] {
		case reqArg:
			if j+1 < len(bundle) {
				o.value, o.hasValue = bundle[j+1:], true
				if !o.dynamic {
					o.prefix = o.value
				}
			} else if i+1 < len(args) {
				i++
				o.value, o.hasValue, o.dynamic, o.prefix = args[i].Value, true, args[i].Dynamic, args[i].Prefix
			}
			p.opts = append(p.opts, o)
			return i
		case optArg:
			if j+1 < len(bundle) {
				o.value, o.hasValue = bundle[j+1:], true
				if !o.dynamic {
					o.prefix = o.value
				}
			}
			p.opts = append(p.opts, o)
			return i
		}
		p.opts = append(p.opts, o)
	}
	return i
}

// kinds builds a long-option table from names; a trailing "=" marks a
// required value, "=?" an optional one.
func kinds(names ...string) map[string]argKind {
	m := make(map[string]argKind, len(names))
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, "=?"):
			m[strings.TrimSuffix(n, "=?")] = optArg
		case strings.HasSuffix(n, "="):
			m[strings.TrimSuffix(n, "=")] = reqArg
		default:
			m[n] = noArg
		}
	}
	return m
}

// shorts builds a short-option table from a getopt string ("c:d:p::v").
func shorts(getopt string) map[byte]argKind {
	m := map[byte]argKind{}
	for i := 0; i < len(getopt); i++ {
		c := getopt[i]
		switch {
		case i+2 < len(getopt) && getopt[i+1] == ':' && getopt[i+2] == ':':
			m[c] = optArg
			i += 2
		case i+1 < len(getopt) && getopt[i+1] == ':':
			m[c] = reqArg
			i++
		default:
			m[c] = noArg
		}
	}
	return m
}
