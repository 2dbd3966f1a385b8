package shell

import (
	"errors"
	"strings"

	"github.com/toolwall/toolwall/programs"
)

// langOf returns the inline-program language of a command name, from
// its catalog entry.
func langOf(name string) lang {
	if p := programs.Lookup(name); p != nil {
		return langByName(p.Lang)
	}
	return langNone
}

// viaOf is the Via of commands run from an inline program.
var viaOf = [...]string{
	langPython: "python -c", langNode: "node -e", langPerl: "perl -e", langRuby: "ruby -e", langPHP: "php -r",
	langLua: "lua -e", langR: "Rscript -e", langJulia: "julia -e", langAppleScript: "osascript -e",
}

// isStdinFile reports whether a script operand names standard input.
func isStdinFile(v string) bool {
	switch v {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
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
	file, text, err := w.parse(text, c.depth)
	var se *SyntaxError
	switch {
	case errors.As(err, &se):
		x := w.command([]Word{{Raw: text, Dynamic: true}}, c)
		x.built = strings.Contains(text, runtimeHole)
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
		if len(x.Args) > 0 && x.Args[0].Dynamic && strings.Contains(x.Args[0].Raw, runtimeHole) {
			x.built = true
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
	a.code = a.Value
	a.Value = strings.ReplaceAll(a.Value, runtimeHole, "")
}
