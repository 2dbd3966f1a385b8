package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxCandidates bounds the values a command word's variable may take for
// the reader to judge each of them; a variable with more stays unresolved.
const maxCandidates = 8

// candidate is what the reader knows about one variable of a top-level
// script whose every assignment is a static literal.
type candidate struct {
	// values are the distinct values its assignments give, in source
	// order.
	values []string
	// from is the byte offset where the variable is set on every path:
	// the end of the first top-level statement that assigns it whatever
	// branch runs; -1 when no statement does.
	from int
}

// candidateVars finds the variables of a top-level script that can only
// hold a value written literally in it ("[ "$(uname)" = FreeBSD ] &&
// cmd=lastlogin || cmd=lastlog; $cmd"), so that a command word naming one
// of them can be read as each of its values. It is conservative: a name
// qualifies when every assignment to it, anywhere in the script (branches,
// loops, functions, subshells), is NAME=value with a plain static value
// (no expansion, quote-free or simply quoted, no blank, glob or tilde, at
// most maxCandidates values), and the script has no construct that could
// assign it out of sight: eval, source / ., read, mapfile/readarray,
// getopts, printf -v, wait -p, unset, declare and its kin on that name or
// with options, let and arithmetic, ${x=…}, trap, alias, coproc, a for or
// select loop over it, a {NAME}> redirection, an IFS assignment, or a command word that is
// neither literal nor such a variable itself. Names bash sets by itself
// (PWD, RANDOM, OPTARG, …) never qualify.
func candidateVars(file *syntax.File) map[string]*candidate {
	vals := map[string][]string{}
	bad := map[string]bool{}
	words := map[string]bool{} // variables used as a command word
	opaque := false
	syntax.Walk(file, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name == nil {
				if x.Value != nil && x.Value.Lit() == "" {
					opaque = true // a declare option or name only known at run time
				}
				return true
			}
			name := x.Name.Value
			v, ok := literalValue(x.Value)
			if name == "IFS" {
				opaque = true
			}
			if x.Naked || x.Append || x.Index != nil || x.Array != nil || !ok || !plainValue(v) {
				bad[name] = true
			} else if !slices.Contains(vals[name], v) {
				vals[name] = append(vals[name], v)
			}
		case *syntax.Redirect:
			if x.N != nil && strings.HasPrefix(x.N.Value, "{") {
				bad[strings.Trim(x.N.Value, "{}")] = true // exec {fd}>f sets fd
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				if a.Name != nil {
					bad[a.Name.Value] = true
				} else if x.Variant.Value != "export" {
					opaque = true // declare -n, -g, -a …: names may alias
				}
			}
		case *syntax.LetClause, *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.CoprocClause:
			opaque = true
		case *syntax.ForClause:
			if it, ok := x.Loop.(*syntax.WordIter); ok {
				bad[it.Name.Value] = true
			}
		case *syntax.ParamExp:
			if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				opaque = true
			}
		case *syntax.CallExpr:
			if !plainCommandWord(x, words) {
				opaque = true
			}
		}
		return !opaque
	})
	if opaque {
		return nil
	}
	out := map[string]*candidate{}
	for name, vs := range vals {
		if bad[name] || bashSets(name) || len(vs) > maxCandidates {
			continue
		}
		out[name] = &candidate{values: vs, from: -1}
	}
	// a command named through a variable must not run code that could
	// assign out of sight (x=$(…); $x 'c=rm', or x=eval)
	for name := range words {
		c := out[name]
		if c == nil {
			return nil
		}
		for _, v := range c.values {
			if assigner(baseName(v)) {
				return nil
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	for name, c := range out {
		for _, st := range file.Stmts {
			if assigns(st, name) == always {
				c.from = int(st.End().Offset())
				break
			}
		}
	}
	return out
}

// plainCommandWord reports whether a simple command's command word (after
// the builtins command and builtin and their options) is a literal that
// cannot assign variables out of sight, or a lone expansion of a variable,
// which it adds to words (each must turn out to be a candidate whose
// values assign nothing). A command of assignments only is plain.
func plainCommandWord(ce *syntax.CallExpr, words map[string]bool) bool {
	args := ce.Args
	if len(args) == 0 {
		return true
	}
	for len(args) > 1 {
		if lit, _ := literalValue(args[0]); lit != "command" && lit != "builtin" {
			break
		}
		args = args[1:]
		for len(args) > 1 && strings.HasPrefix(args[0].Lit(), "-") {
			args = args[1:]
		}
	}
	if name, ok := loneVar(args[0]); ok {
		words[name] = true
		return true
	}
	lit, ok := literalValue(args[0])
	if !ok {
		// a path from home (~/bin/tool) names no builtin; anything else
		// (\eval, "$(…)") may
		l := args[0].Lit()
		return strings.HasPrefix(l, "~") && !strings.ContainsAny(l, "\\$`") && !pattern(l)
	}
	if lit == "" || pattern(lit) {
		return false // a glob or brace expansion may make any name (e?al)
	}
	switch lit {
	case "printf":
		return !hasV(ce)
	case "wait":
		for _, a := range args[1:] {
			if v := a.Lit(); v == "" || strings.HasPrefix(v, "-") && strings.Contains(v, "p") {
				return false
			}
		}
		return true
	}
	return !assigner(baseName(lit))
}

// pattern reports whether a command word may expand to other words: glob
// characters (*, ?, [ with a later ]) or braces.
func pattern(s string) bool {
	if strings.ContainsAny(s, "*?{") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// assigner reports the builtins that may set a variable whose name is not
// an assignment word of the script (or run text that may).
func assigner(name string) bool {
	switch name {
	case "eval", "source", ".", "read", "mapfile", "readarray", "getopts", "unset", "trap", "alias",
		"declare", "typeset", "local", "readonly", "export", "let", "set", "shopt", "enable", "fc", "caller":
		return true
	}
	return false
}

// bashSets reports variables whose value bash sets or changes by itself,
// so that what the script wrote into them is not what they hold later.
func bashSets(name string) bool {
	switch name {
	case "_", "PWD", "OLDPWD", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "REPLY", "OPTARG", "OPTIND", "OPTERR",
		"HISTCMD", "BASHPID", "BASHOPTS", "SHELLOPTS", "PPID", "UID", "EUID", "GROUPS", "HOSTNAME", "COLUMNS", "LINES",
		"EPOCHSECONDS", "EPOCHREALTIME", "PIPESTATUS", "FUNCNAME", "COMP_WORDS", "BASH_ARGV0":
		return true
	}
	return strings.HasPrefix(name, "BASH_")
}

// loneVar returns the variable a word expands, when the word is nothing
// but $name, ${name}, "$name" or "${name}".
func loneVar(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok {
		if dq.Dollar || len(dq.Parts) != 1 {
			return "", false
		}
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Flags != nil || pe.Excl || pe.Length || pe.Width || pe.IsSet ||
		pe.NestedParam != nil || pe.Index != nil || len(pe.Modifiers) > 0 || pe.Slice != nil ||
		pe.Repl != nil || pe.Names != 0 || pe.Exp != nil {
		return "", false
	}
	name := pe.Param.Value
	if name == "" || !(name[0] == '_' || name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return "", false // positional and special parameters
	}
	return name, true
}

// literalValue returns the value of an assignment's word when it has no
// expansion at all: unquoted text without backslashes or a tilde,
// '…', or "…" without $, ` and \.
func literalValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\~") {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				return "", false
			}
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.ContainsAny(l.Value, "\\$`") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// outcome says on which completions of a statement a variable is
// certainly assigned.
type outcome struct{ ok, fail bool }

// always is an outcome where the variable is assigned however the
// statement completes.
var always = outcome{true, true}

// assigns says whether running st certainly assigns name in this shell,
// by how st completes (success or failure); a branch, loop, pipeline,
// subshell or background job it might skip or run in a child counts as
// no.
func assigns(st *syntax.Stmt, name string) outcome {
	if st == nil || st.Background || st.Coprocess {
		return outcome{}
	}
	o := assignsCmd(st.Cmd, name)
	if st.Negated {
		o.ok, o.fail = o.fail, o.ok
	}
	return o
}

func assignsCmd(c syntax.Command, name string) outcome {
	switch x := c.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			for _, a := range x.Assigns {
				if a.Name != nil && a.Name.Value == name {
					return always // a literal assignment cannot fail
				}
			}
		}
	case *syntax.BinaryCmd:
		l, r := assigns(x.X, name), assigns(x.Y, name)
		switch x.Op {
		case syntax.AndStmt:
			// success: both ran; failure: X failed, or X succeeded and Y failed
			return outcome{ok: l.ok || r.ok, fail: l.fail && (l.ok || r.fail)}
		case syntax.OrStmt:
			// success: X succeeded, or X failed and Y succeeded; failure: both failed
			return outcome{ok: l.ok && (l.fail || r.ok), fail: l.fail || r.fail}
		}
	case *syntax.Block:
		return assignsList(x.Stmts, name)
	case *syntax.IfClause:
		return assignsIf(x, name)
	case *syntax.TimeClause:
		return assigns(x.Stmt, name)
	}
	return outcome{}
}

// assignsList is the outcome of a list run in order: once a statement
// certainly assigned, the rest cannot undo it.
func assignsList(list []*syntax.Stmt, name string) outcome {
	if len(list) == 0 {
		return outcome{}
	}
	for _, st := range list[:len(list)-1] {
		if assigns(st, name) == always {
			return always
		}
	}
	return assigns(list[len(list)-1], name)
}

// assignsIf: the condition always runs; otherwise every branch, an else
// included, must assign.
func assignsIf(x *syntax.IfClause, name string) outcome {
	if assignsList(x.Cond, name) == always {
		return always
	}
	if x.Else == nil || assignsList(x.Then, name) != always {
		return outcome{}
	}
	if !x.Else.ThenPos.IsValid() { // else
		if assignsList(x.Else.Then, name) == always {
			return always
		}
		return outcome{}
	}
	return assignsIf(x.Else, name) // elif
}

// candidatesOf returns the values a command word may take: ce's first
// word is a lone expansion of a candidate variable certainly set before
// ce in the top-level script.
func (w *walker) candidatesOf(ce *syntax.CallExpr, f frame) []string {
	if w.top == nil || len(ce.Args) == 0 || f.depth != 0 || f.src != w.script.Source || f.define {
		return nil
	}
	name, ok := loneVar(ce.Args[0])
	if !ok {
		return nil
	}
	if !w.candsRead { // only scripts with such a word pay for the search
		w.cands, w.candsRead = candidateVars(w.top), true
	}
	c := w.cands[name]
	if c == nil || c.from < 0 || int(ce.Pos().Offset()) < c.from {
		return nil
	}
	return c.values
}
