package remote

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// lang is the language family of an interpreter.
type lang uint8

const (
	notInterp lang = iota
	langShell
	langPython
	langPerl
	langRuby
	langNode
	langPHP
	langLua
	langPwsh
	langAwk
	langTcl
	langJulia
	// langJVM: JavaScript run on the Java platform (jrunscript), with
	// the Java class library at hand.
	langJVM
	// langGo: Go source, run by go run.
	langGo
	// langOther: R, AppleScript — read for where their program comes
	// from, not for what it does.
	langOther
)

var langNames = [...]string{"", "shell", "Python", "Perl", "Ruby", "Node.js", "PHP", "Lua", "PowerShell", "awk", "Tcl", "Julia", "JavaScript (JVM)", "Go", "script"}

// langOf maps a catalog entry's language to the family the one-liner
// rules know.
func langOf(l string) lang {
	switch l {
	case "sh":
		return langShell
	case "python":
		return langPython
	case "perl":
		return langPerl
	case "ruby":
		return langRuby
	case "node":
		return langNode
	case "php":
		return langPHP
	case "lua":
		return langLua
	case "pwsh":
		return langPwsh
	case "awk":
		return langAwk
	case "tcl":
		return langTcl
	case "julia":
		return langJulia
	case "jvm":
		return langJVM
	case "go":
		return langGo
	case "applescript", "r":
		return langOther
	}
	return notInterp
}

// program is what an interpreter command will run.
type program struct {
	lang lang
	// stdin is set when the program text is read from standard input.
	stdin bool
	// code holds inline program text (-c, -e, eval arguments).
	code []shell.Word
	// file is the script operand, when there is one.
	file *shell.Word
	// encoded is set for PowerShell -EncodedCommand.
	encoded bool
}

// codeText joins the inline code as the interpreter sees it (dynamic
// parts dropped).
func (p program) codeText() string {
	var parts []string
	for _, w := range p.code {
		parts = append(parts, w.Value)
	}
	return strings.Join(parts, "\n")
}

// codeDynamic reports whether part of the inline code is only known at run
// time.
func (p program) codeDynamic() bool {
	for _, w := range p.code {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// isStdinPath reports whether a script operand names standard input.
func isStdinPath(s string) bool {
	switch s {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// programOf reads what an interpreter command runs from its invocation
// (its catalog entry gives the language and which operands and option
// values are code, a script file, or say that the program comes on
// stdin). ok is false when c is no interpreter or runs nothing of its
// own (bash --version, python -m module). The login shells of sudo -s,
// sudo -i, doas -s and a plain su, which the reader leaves in place when
// they are given no command, read their program from stdin.
// shebangLang is the language of a script's #! line (#!/usr/bin/python3,
// #!/usr/bin/env -S node), notInterp when it names none.
func shebangLang(text string) lang {
	first, _, _ := strings.Cut(text, "\n")
	first, _, _ = strings.Cut(first, `\n`) // printf's format, as written
	if !strings.HasPrefix(first, "#!") {
		return notInterp
	}
	fields := strings.Fields(strings.TrimPrefix(first, "#!"))
	if len(fields) > 1 && path.Base(fields[0]) == "env" {
		fields = fields[1:]
		for len(fields) > 1 && strings.HasPrefix(fields[0], "-") {
			fields = fields[1:]
		}
	}
	if len(fields) == 0 {
		return notInterp
	}
	if p := programs.Lookup(path.Base(fields[0])); p != nil {
		return langOf(p.Lang)
	}
	return notInterp
}

func programOf(c *shell.Command) (program, bool) {
	v := c.Inv
	pr := v.Program()
	if pr == nil {
		return program{}, false
	}
	switch root := pr.Root().Name; root {
	case "sudo", "doas", "su", "runuser":
		if len(v.OperandsOf(programs.Argv)) > 0 || v.Has("command", "session-command") {
			return program{}, false
		}
		if root == "su" || root == "runuser" || v.Has("shell", "login") {
			return program{lang: langShell, stdin: true}, true
		}
		return program{}, false
	case "trap", "make", "sed":
		return program{}, false
	}
	p := program{lang: langOf(pr.Lang)}
	if p.lang == notInterp || v.Has("version", "help") {
		return program{}, false
	}
	p.code = append(v.ValuesOf(programs.Code, programs.Shell), v.OperandsOf(programs.Code, programs.Shell, programs.ShellJoin)...)
	if p.lang == langPwsh {
		p = pwsh(c, p)
	}
	files := append(v.ValuesOf(programs.Exec), v.OperandsOf(programs.Exec, programs.Source)...)
	if len(files) > 0 && len(p.code) == 0 {
		f := files[0]
		p.file = &f
		p.stdin = !f.Dynamic && isStdinPath(f.Value)
	}
	if v.Stdin == programs.Code {
		p.stdin = true
	}
	if len(p.code) == 1 && !p.code[0].Dynamic && p.code[0].Value == "-" && p.lang == langPwsh {
		p.code, p.stdin = nil, true // pwsh -Command -
	}
	return p, p.stdin || len(p.code) > 0 || p.file != nil
}

// pwsh completes a PowerShell reading: its parameters are
// case-insensitive and may be abbreviated, so a parameter the catalog
// does not list that abbreviates -EncodedCommand, -Command or -File is
// that parameter; -EncodedCommand's value is base64 code.
func pwsh(c *shell.Command, p program) program {
	v := c.Inv
	if v.Has("encoded-command") {
		p.encoded = true
	}
	for _, o := range v.Opts {
		if o.Known {
			continue
		}
		n := strings.ToLower(strings.TrimLeft(o.Spelling, "-"))
		switch {
		case len(n) >= 2 && strings.HasPrefix("encodedcommand", n):
			p.encoded = true
			if ops := v.OperandsOf(programs.Exec, programs.None); len(ops) > 0 && len(p.code) == 0 {
				p.code = ops[:1]
			}
		case len(n) >= 3 && strings.HasPrefix("command", n):
			if len(p.code) == 0 {
				p.code = v.OperandsOf(programs.Exec, programs.None)
			}
		}
	}
	return p
}
