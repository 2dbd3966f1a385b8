package shell

import (
	"errors"
	"strings"
)

// langOf returns the scripting language of an interpreter command name:
// python, python2, python3, python3.N, pypy; node, nodejs, bun, deno;
// perl, perl5.N; ruby; php, php8.N.
func langOf(name string) lang {
	switch {
	case versioned(name, "python"), versioned(name, "pypy"):
		return langPython
	case name == "node", name == "nodejs", name == "bun", name == "deno":
		return langNode
	case versioned(name, "perl"):
		return langPerl
	case versioned(name, "ruby"):
		return langRuby
	case versioned(name, "php"):
		return langPHP
	}
	return langNone
}

// versioned reports whether name is base followed by an optional version
// of digits and dots ("python3.12").
func versioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// viaOf is the Via of commands run from an inline program.
var viaOf = [...]string{
	langPython: "python -c", langNode: "node -e", langPerl: "perl -e", langRuby: "ruby -e", langPHP: "php -r",
}

// interpSpec describes an interpreter's command-line options (python(1),
// node(1), perlrun(1), ruby(1), php(1)).
type interpSpec struct {
	// code are the short options whose value is program text.
	code string
	// value are short options taking a value: the rest of the word, else
	// the next word.
	value string
	// attached are short options whose value is only the rest of the word
	// (perl -i.bak -F:).
	attached string
	// digits are short options followed only by optional digits (perl
	// -l -0777, ruby -W2).
	digits string
	// codeLong are long options whose value is program text.
	codeLong []string
	// valueLong are long options taking the next word as value.
	valueLong []string
	// module are short options after which the program comes from
	// elsewhere (python -m, php -f): no inline or stdin program.
	module string
	// nextWord makes code options take the next word even inside a
	// cluster (node -pe CODE).
	nextWord bool
	// last makes the code option end the options (python -c).
	last bool
}

var interpSpecs = [...]interpSpec{
	langPython: {code: "c", value: "WXQ", module: "m", last: true},
	langNode: {code: "ep", value: "rC", codeLong: []string{"eval", "print"}, nextWord: true,
		valueLong: []string{"require", "import", "input-type", "loader", "experimental-loader", "conditions",
			"title", "env-file", "inspect-port", "redirect-warnings", "stack-trace-limit"}},
	langPerl: {code: "eE", value: "IMm", attached: "ixFdDV", digits: "l0C"},
	langRuby: {code: "e", value: "rICE", attached: "FiKx", digits: "0WT"},
	langPHP:  {code: "rBRE", value: "dczStF", module: "f"},
}

// inlineCode returns the program texts of an interpreter command: its
// -c/-e/-r/--eval values, or the static text it reads on stdin when it
// has neither code nor a script operand (python3 <<'EOF', echo … | perl,
// python3 - <<< …). fromStdin reports the latter.
func (w *walker) inlineCode(cmd *Command, l lang) (code []Word, fromStdin, ok bool) {
	args := cmd.Args
	switch cmd.Name {
	case "deno":
		// deno eval [OPTIONS] CODE
		if len(args) < 3 || args[1].Value != "eval" {
			return nil, false, false
		}
		for _, a := range args[2:] {
			if a.Dynamic || !strings.HasPrefix(a.Value, "-") {
				return []Word{a}, false, true
			}
		}
		return nil, false, false
	case "bun":
		if len(args) > 1 && !args[1].Dynamic && !strings.HasPrefix(args[1].Value, "-") {
			return nil, false, false // bun run, bun install, … (bun exec: see shellRunner)
		}
	}
	spec := interpSpecs[l]
	operand := false
	i := 1
scan:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Dynamic:
			operand = true
			break scan
		case v == "--":
			operand = i+1 < len(args) && args[i+1].Value != "-"
			break scan
		case v == "-":
			break scan
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v[2:], "=")
			switch {
			case contains(spec.codeLong, name) && eq:
				code = append(code, Word{Raw: a.Raw, Value: val, Prefix: val})
			case contains(spec.codeLong, name) && i+1 < len(args):
				i++
				code = append(code, args[i])
			case contains(spec.valueLong, name) && !eq:
				i++
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				c := v[j : j+1]
				switch {
				case strings.Contains(spec.module, c):
					return nil, false, false
				case strings.Contains(spec.code, c):
					if spec.nextWord || j == len(v)-1 {
						if i+1 < len(args) {
							i++
							code = append(code, args[i])
						}
						if !spec.nextWord {
							j = len(v)
						}
					} else {
						t := v[j+1:]
						code = append(code, Word{Raw: a.Raw, Value: t, Prefix: t})
						j = len(v)
					}
					if spec.last {
						return code, false, true
					}
				case strings.Contains(spec.value, c):
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				case strings.Contains(spec.attached, c):
					j = len(v)
				case strings.Contains(spec.digits, c):
					for j+1 < len(v) && (v[j+1] >= '0' && v[j+1] <= '9' || v[j+1] == 'x' && c == "0") {
						j++
					}
				}
			}
		default:
			operand = true
			break scan
		}
	}
	if len(code) > 0 {
		return code, false, true
	}
	if operand && !isStdinFile(args[i].Value) {
		return nil, false, false
	}
	text, ok := w.stdinText(cmd, 0)
	if !ok {
		return nil, true, false
	}
	return []Word{{Raw: text, Value: text, Prefix: text}}, true, true
}

// isStdinFile reports whether a script operand names standard input.
func isStdinFile(v string) bool {
	switch v {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// interp reads the inline program of a python/node/perl/ruby/php command
// for the commands it hands to a shell or runs, and re-reads each as shell
// text in a child process of cmd (Via "python -c", "node -e", "perl -e",
// "ruby -e", "php -r"; Depth+1). Program text only known at run time is
// left to the analyzers.
func (w *walker) interp(cmd *Command, l lang, f frame) {
	code, fromStdin, ok := w.inlineCode(cmd, l)
	if !ok {
		return
	}
	for _, c := range code {
		if c.Dynamic || w.err != nil {
			continue
		}
		texts, used, ok := commandsOf(l, c.Value, w.opt.MaxNodes-w.nodes)
		w.nodes += used
		if !ok {
			w.fail(&LimitError{Limit: "nodes", Max: w.opt.MaxNodes})
			return
		}
		for _, text := range texts {
			if w.err != nil {
				return
			}
			ch := w.child(cmd, f, viaOf[l])
			if fromStdin {
				ch.stdin = Stdin{}
				ch.redirs = outputRedirects(cmd.Redirects)
			}
			w.runProgram(text, cmd.Cwd, ch)
		}
	}
}

// outputRedirects drops the redirections that set standard input.
func outputRedirects(rs []Redirect) []Redirect {
	var out []Redirect
	for _, r := range rs {
		if _, in := stdinOf([]Redirect{r}, ""); !in {
			out = append(out, r)
		}
	}
	return out
}

// runProgram re-reads a command string taken out of program text. Text
// that does not parse as shell is not a syntax error of the command line
// (the extraction is a reading, not a parse): it becomes one command whose
// program is Dynamic. A word holding runtimeHole after quote removal
// (inside single quotes: 'rm -rf '"'"+d+"'") is made Dynamic.
func (w *walker) runProgram(text, cwd string, c frame) {
	if w.err != nil {
		return
	}
	start := len(*w.out)
	saved := w.cwd
	w.cwd = cwd
	defer func() { w.cwd = saved }()
	file, err := w.parse(text, c.depth)
	var se *SyntaxError
	switch {
	case errors.As(err, &se):
		x := w.command([]Word{{Raw: text, Dynamic: true}}, c)
		w.finish(x, nil, c)
		w.emit(x, c.feeds)
		return
	case err != nil:
		w.fail(err)
		return
	}
	c.src = text
	w.stmts(file.Stmts, c)
	if !strings.Contains(text, runtimeHole) {
		return
	}
	for _, x := range (*w.out)[start:] {
		for i := range x.Args {
			holeDynamic(&x.Args[i])
		}
		for i := range x.Redirects {
			holeDynamic(&x.Redirects[i].Target)
		}
		x.Name = commandName(x.Args)
	}
}

// holeDynamic makes a static word that still holds runtimeHole Dynamic.
func holeDynamic(a *Word) {
	if a.Dynamic {
		return
	}
	k := strings.Index(a.Value, runtimeHole)
	if k < 0 {
		return
	}
	a.Dynamic = true
	a.Prefix = a.Value[:k]
	a.Value = strings.ReplaceAll(a.Value, runtimeHole, "")
}
