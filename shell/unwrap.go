package shell

import (
	"slices"
	"strings"

	"github.com/toolwall/toolwall/programs"
)

// unwrap peels wrappers off c.Args in any nesting order: a program the
// catalog marks "wrapper" (sudo, env, timeout, nice, chroot, …) whose
// operands of role argv give the command it runs. Its changes are applied
// to c: privilege (unless a condition of its entry says otherwise),
// working directory (an option of role cd, or the entry's workdir),
// NAME=value operands (role env), background (an option named
// "background"), and env -S's split string (its unknown parts Dynamic). The wrapper's own invocation
// is kept in c.Wrapped. A wrapper that runs nothing (sudo -l, command
// -v, strace -p) is left as it is.
func (w *walker) unwrap(c *Command) {
	for guard := 0; guard < 64 && len(c.Args) > 1 && !c.Args[0].Dynamic; guard++ {
		name := baseName(c.Args[0].Value)
		p := programs.Lookup(name)
		if p == nil || !p.Wrapper {
			return
		}
		v := &Invocation{Parsed: programs.Parse(p, tokens(c.Args)), Args: c.Args}
		if p.Style&programs.Strict != 0 && slices.ContainsFunc(v.Opts, func(o programs.Opt) bool { return !o.Known }) {
			return // bash refuses an option it does not know: nothing runs
		}
		var split []Word
		for _, o := range v.Opts {
			if o.Role == programs.Split && o.HasValue {
				val := v.Value(o)
				words := splitWords(val.codeText())
				if val.Dynamic {
					// env -S "$X": what runs is only known at run time
					for i := range words {
						holeDynamic(&words[i])
					}
				}
				split = append(split, words...)
			}
		}
		k := v.firstRole(programs.Argv)
		if k < 0 && len(split) == 0 {
			return
		}
		rest := split
		if k >= 0 {
			rest = append(rest, v.rest(k)...)
		}
		if len(rest) == 0 {
			return
		}
		cwd, cwdSet := c.Cwd, false
		for _, wd := range p.Workdirs {
			if v.Holds(wd.Cond) {
				cwd, cwdSet = wd.Dir, true
				if cwd == "~" {
					cwd = w.opt.Home
				}
				break
			}
		}
		for _, o := range v.Opts {
			if o.Role != programs.Cd || !o.HasValue {
				continue
			}
			cwdSet = true
			if val := v.Value(o); val.Dynamic {
				cwd = ""
			} else {
				cwd = abs(val.Value, c.Cwd)
			}
		}
		for _, a := range v.OperandsOf(programs.Env) {
			if a.Dynamic {
				c.Assigns = append(c.Assigns, a.Raw)
			} else {
				c.Assigns = append(c.Assigns, a.Value)
			}
		}
		c.Args = rest
		c.Wrappers = append(c.Wrappers, name)
		c.Wrapped = append(c.Wrapped, v)
		c.Privileged = c.Privileged || p.Privileged && !(len(p.Unprivileged) > 0 && v.Holds(p.Unprivileged))
		c.Background = c.Background || v.Has("background")
		if cwdSet {
			c.Cwd = cwd
		}
	}
}

// isAssign reports whether v is NAME=value.
func isAssign(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := v[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// splitWords splits env -S's string into words: whitespace separates,
// single and double quotes group, backslash escapes (env(1) -S).
func splitWords(s string) []Word {
	var out []Word
	var b strings.Builder
	in := false
	var q byte
	flush := func() {
		if in {
			v := b.String()
			out = append(out, Word{Raw: v, Value: v, Prefix: v})
			b.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q, in = c, true
		case q != '\'' && c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case q == 0 && (c == ' ' || c == '\t' || c == '\n'):
			flush()
		default:
			b.WriteByte(c)
			in = true
		}
	}
	flush()
	return out
}
