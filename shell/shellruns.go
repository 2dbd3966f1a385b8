package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Variables whose value the shell runs by itself, and how (bash manual
// §5.2 "Bash Variables", §6.9 "Controlling the Prompt"; dash(1) ENV).
const (
	runsCode   = iota + 1 // the value is commands: PROMPT_COMMAND before each prompt
	runsPrompt            // a prompt string: its substitutions run when it is shown
	runsFile              // a file the shell reads first: BASH_ENV (non-interactive bash), ENV (interactive sh)
)

var shellRuns = map[string]int{
	"PROMPT_COMMAND": runsCode,
	"PS0":            runsPrompt, "PS1": runsPrompt, "PS2": runsPrompt, "PS4": runsPrompt,
	"BASH_ENV": runsFile, "ENV": runsFile,
}

// hookFuncs are the functions a shell calls by itself: bash's handler for
// a command it cannot find, zsh's handler and hooks.
var hookFuncs = map[string]bool{
	"command_not_found_handle": true, "command_not_found_handler": true,
	"precmd": true, "preexec": true, "chpwd": true, "periodic": true, "zshexit": true,
	"TRAPEXIT": true, "TRAPDEBUG": true, "TRAPZERR": true, "TRAPERR": true,
}

// shellRun reads the value of an assignment that the shell runs by
// itself (see shellRuns) as what it runs: commands, a prompt's
// substitutions, or a file sourced. Commands or a file known only at run
// time are a command whose program cannot be named; a prompt known only
// at run time adds nothing (its substitutions ran when it was assigned).
func (w *walker) shellRun(assign Word, f frame) {
	name, value, ok := strings.Cut(assign.Value, "=")
	if !ok {
		return
	}
	kind := shellRuns[strings.TrimSuffix(name, "+")]
	if kind == 0 {
		return
	}
	c := f.nested(name)
	c.depth++
	if assign.Dynamic {
		if kind == runsPrompt {
			return
		}
		x := w.command([]Word{{Raw: assign.Raw, Dynamic: true}}, c)
		w.finish(x, nil, c)
		w.emit(x, nil)
		return
	}
	switch kind {
	case runsCode:
		w.reparse(value, c)
	case runsPrompt:
		w.promptText(value, c)
	case runsFile:
		src := Word{Raw: "source", Value: "source", Prefix: "source"}
		x := w.command([]Word{src, {Raw: value, Value: value, Prefix: value}}, c)
		w.finish(x, nil, c)
		w.emit(x, nil)
		w.follow(x, c, true)
	}
}

// procFile reports an assignment of a file the shell reads first whose
// value is a process substitution (BASH_ENV=<(…)): the shell sources
// what the substitution prints.
func procFile(assign Word) bool {
	name, value, ok := strings.Cut(assign.Raw, "=")
	return ok && assign.Dynamic && shellRuns[name] == runsFile && strings.HasPrefix(value, "<(") && strings.HasSuffix(value, ")")
}

// sourcedCmd is a source command standing for a file a shell reads
// first, and its frame.
type sourcedCmd struct {
	cmd *Command
	f   frame
}

// sourcedFiles emits, for each BASH_ENV=<(…) of a command, a source of
// the substitution, before the substitution's own commands (as bash
// <(…) is emitted before them); the caller follows each once the
// substitutions are walked, reading what they print.
func (w *walker) sourcedFiles(assigns []Word, f frame) []sourcedCmd {
	var out []sourcedCmd
	for _, aw := range assigns {
		name, value, _ := strings.Cut(aw.Raw, "=")
		c := f.nested(name)
		c.depth++
		src := Word{Raw: "source", Value: "source", Prefix: "source"}
		x := w.command([]Word{src, {Raw: value, Dynamic: true}}, c)
		w.finish(x, nil, c)
		w.emit(x, nil)
		out = append(out, sourcedCmd{x, c})
	}
	return out
}

// promptText walks the substitutions of a prompt string, which run when
// the prompt is shown (${p@P} shows one at once).
func (w *walker) promptText(value string, c frame) {
	if strings.ContainsAny(value, "$`") {
		w.reparse(`: "`+strings.ReplaceAll(value, `"`, `\"`)+`"`, c)
	}
}

// promptOp reads ${name@P}: the value of name expanded as a prompt, where
// the script sets it; a value from outside the script adds nothing, as
// for a prompt assigned at run time.
func (w *walker) promptOp(p *syntax.ParamExp, f *frame) {
	if p.Exp == nil || p.Exp.Op != syntax.OtherParamOps || p.Exp.Word == nil || p.Exp.Word.Lit() != "P" || p.Param == nil {
		return
	}
	if v, ok := f.scope.vars[p.Param.Value]; ok {
		c := f.nested("${@P}")
		c.pos = f.pos
		c.depth++
		w.promptText(v, c)
	}
}

// subscriptCode reads the substitutions in an array subscript held by a
// static value ("x[$(rm -rf ~)]"): bash evaluates a variable's value as
// arithmetic wherever one is expected ([[ $v -eq 0 ]], let, declare -i,
// $((v))), and a subscript's substitution then runs.
func (w *walker) subscriptCode(value string, f frame) {
	if !strings.Contains(value, "[$(") && !strings.Contains(value, "[`") {
		return
	}
	c := f.nested("arithmetic subscript")
	c.depth++
	w.promptText(value, c)
}
