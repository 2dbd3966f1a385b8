package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// knownVars decides which variables of a top-level script the reader may
// resolve from the script's own assignments ("d=~; rm -rf $d"), and
// which assignment nodes set them. It is conservative: a name qualifies
// only when every assignment to it is an unconditional statement of the
// top-level list (NAME=value with no command, not backgrounded, not in a
// pipeline, && / || chain, loop, branch, function or subshell), and the
// script has no construct that could assign variables out of sight: eval,
// source / ., read, mapfile/readarray, getopts, printf -v, declare and
// friends, let and arithmetic, unset, ${x:=…}, or an IFS assignment. The
// walk records values in source order as it executes those statements.
func knownVars(file *syntax.File) map[*syntax.Assign]bool {
	eligible := map[*syntax.Assign]bool{}
	for _, st := range file.Stmts {
		ce, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || st.Background || st.Coprocess || st.Negated || len(ce.Args) > 0 {
			continue
		}
		for _, a := range ce.Assigns {
			if a.Name != nil && !a.Naked && !a.Append && a.Index == nil && a.Array == nil && a.Value != nil {
				eligible[a] = true
			}
		}
	}
	if len(eligible) == 0 {
		return nil
	}
	bad := map[string]bool{}
	opaque := false
	syntax.Walk(file, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil {
				if x.Name.Value == "IFS" {
					opaque = true
				}
				if !eligible[x] {
					bad[x.Name.Value] = true
				}
			}
		case *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd, *syntax.ArithmExp:
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
			if len(x.Args) > 0 {
				switch name := litOf(x.Args[0]); name {
				case "eval", "source", ".", "read", "mapfile", "readarray", "getopts", "unset", "export",
					"declare", "typeset", "local", "readonly", "let", "printf", "set", "shift", "alias":
					if name != "printf" || hasV(x) {
						opaque = true
					}
				}
			}
		}
		return !opaque
	})
	if opaque {
		return nil
	}
	for a := range eligible {
		if bad[a.Name.Value] {
			delete(eligible, a)
		}
	}
	return eligible
}

// litOf is the literal text of a word without expansions, or "".
func litOf(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	return w.Lit()
}

// hasV reports whether a printf call has a -v option.
func hasV(ce *syntax.CallExpr) bool {
	for _, a := range ce.Args[1:] {
		if v := litOf(a); v == "-v" || strings.HasPrefix(v, "-v") && len(v) > 2 {
			return true
		}
	}
	return false
}

// plainValue reports whether a resolved value stays one word however it
// is expanded: non-empty, no whitespace, no glob characters.
func plainValue(v string) bool {
	return v != "" && !strings.ContainsAny(v, " \t\n*?[")
}
