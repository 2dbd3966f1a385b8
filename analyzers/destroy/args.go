package destroy

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// optSpec describes a command's options for getopt_long-style parsing:
// options may follow operands, "--" ends them, short options bundle, and a
// long option may be any unambiguous prefix of its name (GNU getopt_long,
// so "--rec" is --recursive).
type optSpec struct {
	// shortArg lists the short option letters that take an argument.
	shortArg string
	// long lists long option names; longArg those of them that take an
	// argument.
	long, longArg []string
	// modes is set for chmod: "-w", "-rx" are modes (operands), not options.
	modes bool
}

// parsed is a command line split into options and operands.
type parsed struct {
	// opts holds short options as one letter and long ones by full name,
	// each with its argument ("" when none).
	opts []kv
	// operands are the non-option words, in order.
	operands []shell.Word
	// maybeFlags is set when an unquoted dynamic word before "--" could
	// expand to options (rm $FLAGS x).
	maybeFlags bool
}

type kv struct{ k, v string }

// has reports whether any of the named options was given.
func (p *parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.k == n {
				return true
			}
		}
	}
	return false
}

// val returns the argument of the last of the named options given.
func (p *parsed) val(names ...string) (string, bool) {
	v, ok := "", false
	for _, o := range p.opts {
		for _, n := range names {
			if o.k == n {
				v, ok = o.v, true
			}
		}
	}
	return v, ok
}

// parseArgs splits args (without the command word) by spec.
func parseArgs(args []shell.Word, spec optSpec) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case w.Dynamic:
			if mayInjectFlags(w.Raw) {
				p.maybeFlags = true
			}
			p.operands = append(p.operands, w)
		case v == "--":
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			name = matchLong(name, spec.long)
			if !hasVal && contains(spec.longArg, name) && i+1 < len(args) {
				i++
				val = args[i].Value
			}
			p.opts = append(p.opts, kv{name, val})
		case len(v) > 1 && v[0] == '-' && !(spec.modes && isMode(v)):
			for j := 1; j < len(v); j++ {
				c := v[j]
				if strings.IndexByte(spec.shortArg, c) >= 0 {
					val := v[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].Value
					}
					p.opts = append(p.opts, kv{string(c), val})
					break
				}
				p.opts = append(p.opts, kv{string(c), ""})
			}
		default:
			p.operands = append(p.operands, w)
		}
	}
	return p
}

// matchLong returns the long option name that s names exactly or as a
// unique prefix; s itself otherwise.
func matchLong(s string, names []string) string {
	found := ""
	for _, n := range names {
		if n == s {
			return n
		}
		if strings.HasPrefix(n, s) {
			if found != "" {
				return s
			}
			found = n
		}
	}
	if found == "" || s == "" {
		return s
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isMode reports whether an argument starting with "-" is a chmod mode
// such as "-w" or "-rwx,g+s" rather than an option bundle.
func isMode(v string) bool {
	for i := 1; i < len(v); i++ {
		if !strings.ContainsRune("rwxXstugoa=+-,01234567", rune(v[i])) {
			return false
		}
	}
	return true
}

// mayInjectFlags reports whether raw has an expansion ($ or `) outside
// quotes, whose word splitting could produce options.
func mayInjectFlags(raw string) bool {
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

// name returns the program a command runs and its argv, seeing through
// multi-call binaries (busybox rm, toybox rm) and the g-prefixed GNU tools
// Homebrew installs on macOS (grm, gchmod). "" when the command word is
// dynamic.
func name(c *shell.Command) (string, []shell.Word) {
	n, args := c.Name, c.Args
	if (n == "busybox" || n == "toybox") && len(args) > 1 && !args[1].Dynamic {
		args = args[1:]
		n = strings.ToLower(args[0].Value)
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			n = n[i+1:]
		}
	}
	if len(n) > 1 && n[0] == 'g' {
		switch n[1:] {
		case "rm", "chmod", "chown", "chgrp", "mv", "cp", "dd", "shred", "find", "install", "unlink", "tee":
			n = n[1:]
		}
	}
	return n, args
}
