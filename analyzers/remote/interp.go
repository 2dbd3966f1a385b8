package remote

import (
	"strings"

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
	// langOther: Tcl, expect, R, Julia, AppleScript — read for where
	// their program comes from, not for what it does.
	langOther
)

var langNames = [...]string{"", "shell", "Python", "Perl", "Ruby", "Node.js", "PHP", "Lua", "PowerShell", "awk", "script"}

// shells that read a script from stdin when given no operand.
var shellNames = map[string]bool{
	"sh": true, "bash": true, "rbash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"pdksh": true, "ksh93": true, "ash": true, "yash": true, "posh": true, "fish": true,
	"csh": true, "tcsh": true,
}

// langOf returns the interpreter family of a command name.
func langOf(name string) lang {
	switch {
	case shellNames[name], name == "source", name == ".", name == "eval":
		return langShell
	case versioned(name, "python"), versioned(name, "pypy"):
		return langPython
	case versioned(name, "perl"):
		return langPerl
	case versioned(name, "ruby"), name == "jruby":
		return langRuby
	case name == "node", name == "nodejs", name == "bun":
		return langNode
	case versioned(name, "php"):
		return langPHP
	case versioned(name, "lua"), name == "luajit":
		return langLua
	case name == "pwsh", name == "powershell", name == "powershell.exe", name == "pwsh.exe":
		return langPwsh
	case name == "awk", name == "gawk", name == "mawk", name == "nawk":
		return langAwk
	case name == "deno":
		return langNode
	case name == "tclsh", name == "wish", name == "expect", name == "osascript", name == "julia", name == "rscript",
		name == "sudo", name == "doas", name == "su", name == "runuser":
		return langOther
	}
	return notInterp
}

// versioned reports whether name is base followed by an optional version
// ("python3", "python3.12", "perl5.36").
func versioned(name, base string) bool {
	rest, ok := strings.CutPrefix(name, base)
	return ok && strings.Trim(rest, "0123456789.") == ""
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

// optSpec describes an interpreter's options: which short options take a
// value (attached or in the next word), which introduce inline code, and
// which long options take a value.
type optSpec struct {
	valueShort string
	codeShort  string
	codeLong   []string
	valueLong  []string
	// noExec options make the interpreter run nothing (--version, -h).
	noExec []string
}

var specs = map[lang]optSpec{
	langShell: {valueShort: "oO", codeShort: "c", valueLong: []string{"--rcfile", "--init-file"},
		noExec: []string{"--version", "--help"}},
	langPython: {valueShort: "WXQm", codeShort: "c", valueLong: []string{"--check-hash-based-pycs"},
		noExec: []string{"-V", "--version", "-h", "--help"}},
	langPerl: {valueShort: "IMmCx", codeShort: "eE", noExec: []string{"-v", "-V", "-h", "--version", "--help", "-c"}},
	langRuby: {valueShort: "IrCEWFxK", codeShort: "e", noExec: []string{"-v", "--version", "-h", "--help", "-c"}},
	langNode: {valueShort: "r", codeShort: "ep", codeLong: []string{"--eval", "--print"},
		valueLong: []string{"--require", "--import", "--input-type", "--loader", "--experimental-loader", "--conditions", "--title", "--env-file"},
		noExec:    []string{"-v", "--version", "-h", "--help", "-c", "--check"}},
	langPHP: {valueShort: "dcfBRFEz", codeShort: "r", noExec: []string{"-v", "--version", "-h", "--help", "-l", "-m", "-i"}},
	langLua: {valueShort: "l", codeShort: "e", noExec: []string{"-v"}},
	// tclsh/wish take none; expect -c, osascript -e, julia -e take code.
	langOther: {valueShort: "fl", codeShort: "ce", noExec: []string{"-v", "--version", "-h", "--help"}},
}

// sudoValue are sudo's and doas's options that take the next word.
var sudoValue = map[string]bool{"-u": true, "-g": true, "-C": true, "-D": true, "-h": true, "-p": true, "-r": true,
	"-t": true, "-T": true, "-U": true, "--user": true, "--group": true, "--chdir": true, "--host": true,
	"--prompt": true, "--role": true, "--type": true, "--close-from": true, "--command-timeout": true,
	"--other-user": true, "-c": true}

// loginShell reads what is left of sudo -s / sudo -i / doas -s / su /
// runuser -l when the shell reader found no command to run: the user's
// shell, which reads its program from standard input.
func loginShell(name string, args []shell.Word) (program, bool) {
	p := program{lang: langShell}
	shellFlag, operands := name == "su" || name == "runuser", 0
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case args[i].Dynamic:
			return p, false
		case sudoValue[v]:
			i++
		case strings.HasPrefix(v, "--"):
			shellFlag = shellFlag || v == "--shell" || v == "--login"
		case strings.HasPrefix(v, "-") && len(v) > 1:
			shellFlag = shellFlag || strings.ContainsAny(v[1:], "si")
		case v == "-":
		default:
			operands++
		}
	}
	// su and runuser take a user name; anything more is a command.
	if !shellFlag || operands > map[bool]int{true: 1, false: 0}[name == "su" || name == "runuser"] {
		return p, false
	}
	p.stdin = true
	return p, true
}

// awkProgram reads awk's argv: -f FILE (program file), -e/--source TEXT
// (gawk), else the first operand is the program text.
func awkProgram(p program, args []shell.Word) (program, bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-F" || v == "-v" || v == "--assign" || v == "--field-separator":
			i++
		case v == "-f" || v == "--file":
			if i+1 < len(args) {
				p.file = &args[i+1]
			}
			return p, true
		case (v == "-e" || v == "--source") && i+1 < len(args):
			p.code = append(p.code, args[i+1])
			i++
		case v == "--":
			if i+1 < len(args) && len(p.code) == 0 {
				p.code = args[i+1 : i+2]
			}
			return p, len(p.code) > 0
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			if len(p.code) == 0 {
				p.code = args[i : i+1]
			}
			return p, true
		}
	}
	return p, len(p.code) > 0
}

// programOf reads what an interpreter command runs from its argv. ok is
// false when c is no interpreter or runs nothing (bash --version).
func programOf(c *shell.Command) (program, bool) {
	l := langOf(c.Name)
	if l == notInterp {
		return program{}, false
	}
	p := program{lang: l}
	args := c.Args[1:]
	switch c.Name {
	case "sudo", "doas", "su", "runuser":
		return loginShell(c.Name, args)
	case "awk", "gawk", "mawk", "nawk":
		return awkProgram(p, args)
	case "deno", "bun":
		// deno run FILE|URL|-, deno eval CODE, bun run FILE|-.
		if len(args) > 0 && (args[0].Value == "run" || args[0].Value == "eval") {
			for i := 1; i < len(args); i++ {
				v := args[i].Value
				if strings.HasPrefix(v, "-") && v != "-" {
					continue
				}
				if args[0].Value == "eval" {
					p.code = args[i : i+1]
					return p, true
				}
				return operand(p, args, i, false)
			}
			return p, false
		}
		if c.Name == "deno" {
			return p, false
		}
	case "rscript":
		// Rscript reads a program from stdin only when told "-".
		if len(args) == 0 || args[len(args)-1].Value != "-" {
			return p, false
		}
		p.stdin = true
		return p, true
	case "eval":
		p.code = args
		return p, len(args) > 0
	case "source", ".":
		if len(args) == 0 {
			return p, false
		}
		p.file = &args[0]
		p.stdin = isStdinPath(args[0].Value)
		return p, true
	}
	if l == langPwsh {
		return pwshProgram(p, args)
	}
	spec := specs[l]
	hasCode, sawS := false, false
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		if args[i].Dynamic && strings.HasPrefix(args[i].Prefix, "-") {
			continue
		}
		switch {
		case a == "--":
			i++
			switch {
			case i >= len(args):
				return finish(p, hasCode)
			case hasCode && l == langShell:
				p.code = append(p.code, args[i])
				return p, true
			case hasCode:
				return p, true
			}
			return operand(p, args, i, sawS)
		case contains(spec.noExec, a):
			return p, false
		case strings.HasPrefix(a, "--"):
			name, _, hasEq := strings.Cut(a, "=")
			switch {
			case contains(spec.codeLong, name):
				hasCode = true
				if hasEq {
					p.code = append(p.code, shell.Word{Value: a[len(name)+1:]})
				} else if i+1 < len(args) {
					i++
					p.code = append(p.code, args[i])
				}
			case contains(spec.valueLong, name) && !hasEq:
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1, l == langShell && strings.HasPrefix(a, "+") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				ch := a[j]
				if l == langShell && ch == 's' {
					sawS = true
				}
				if strings.IndexByte(spec.codeShort, ch) >= 0 {
					hasCode = true
					if l == langShell {
						break // sh -c: the code is the first operand
					}
					if j+1 < len(a) {
						p.code = append(p.code, shell.Word{Value: a[j+1:]})
					} else if i+1 < len(args) {
						i++
						p.code = append(p.code, args[i])
					}
					break
				}
				if strings.IndexByte(spec.valueShort, ch) >= 0 {
					if ch == 'm' && l == langPython {
						return p, false // python -m module runs no script from here
					}
					if j+1 == len(a) {
						i++
					}
					break
				}
			}
		case l == langShell && hasCode:
			p.code = append(p.code, args[i])
			return p, true
		default:
			if hasCode {
				return p, true
			}
			return operand(p, args, i, sawS)
		}
	}
	return finish(p, hasCode)
}

func operand(p program, args []shell.Word, i int, sawS bool) (program, bool) {
	if sawS {
		p.stdin = true
		return p, true
	}
	p.file = &args[i]
	p.stdin = isStdinPath(args[i].Value)
	return p, true
}

// finish ends an argv without operands: inline code, or the program is
// read from stdin.
func finish(p program, hasCode bool) (program, bool) {
	if hasCode {
		return p, len(p.code) > 0
	}
	p.stdin = true
	return p, true
}

// pwshProgram reads PowerShell's case-insensitive, prefix-matched
// parameters: -Command/-c (code, "-" for stdin), -EncodedCommand/-enc/-e/
// -ec (base64 code), -File/-f (script file).
func pwshProgram(p program, args []shell.Word) (program, bool) {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Value)
		next := func() *shell.Word {
			if i+1 < len(args) {
				i++
				return &args[i]
			}
			return nil
		}
		switch {
		case a == "-c" || a == "-command" || a == "/c" || (len(a) > 3 && strings.HasPrefix("-command", a)):
			rest := args[i+1:]
			if len(rest) == 1 && rest[0].Value == "-" {
				p.stdin = true
				return p, true
			}
			p.code = rest
			return p, len(rest) > 0
		case a == "-e" || a == "-ec" || a == "-enc" || (len(a) > 4 && strings.HasPrefix("-encodedcommand", a)):
			if w := next(); w != nil {
				p.code, p.encoded = []shell.Word{*w}, true
				return p, true
			}
			return p, false
		case a == "-f" || a == "-file" || (len(a) > 3 && strings.HasPrefix("-file", a)):
			if w := next(); w != nil {
				p.file = w
				p.stdin = isStdinPath(w.Value)
				return p, true
			}
			return p, false
		case a == "-v" || a == "-version" || a == "-h" || a == "-help" || a == "-?":
			return p, false
		case strings.HasPrefix(a, "-"):
			if pwshTakesValue(a) {
				i++
			}
		default:
			p.file = &args[i]
			return p, true
		}
	}
	p.stdin = true
	return p, true
}

// pwshValueParams are PowerShell's parameters that take a value. The
// host accepts any unambiguous prefix (-ex Bypass, -w Hidden, -wd /tmp).
var pwshValueParams = []string{"-executionpolicy", "-workingdirectory", "-configurationname", "-outputformat",
	"-inputformat", "-windowstyle", "-settingsfile", "-custompipename", "-configurationfile"}

// pwshTakesValue reports whether a lower-cased parameter names one of
// pwshValueParams, in full, by a known short form (-ep, -wd, -of, -if) or
// by a prefix of at least two letters after the dash (-e alone is
// -EncodedCommand and is handled before).
func pwshTakesValue(a string) bool {
	switch a {
	case "-ep", "-ex", "-wd", "-of", "-if", "-w":
		return true
	}
	if len(a) < 3 {
		return false
	}
	for _, p := range pwshValueParams {
		if strings.HasPrefix(p, a) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
