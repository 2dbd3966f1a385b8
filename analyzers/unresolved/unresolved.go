package unresolved

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids.
const (
	// RuleCommand (ask): a command whose program is unknown.
	RuleCommand = "unresolved.command"
	// RuleLookalike (ask): an argument spelled with a character that looks
	// like an option's dash but is not one (‐‐hard, –rf): the program will
	// not read it as an option, so the command is broken or written to
	// slip past a filter that matches ASCII text.
	RuleLookalike = "unresolved.lookalike"
)

// Analyzer asks about Bash commands whose program toolwall cannot name. In
// RootContext it reports nothing (seed 004).
var Analyzer = &analysis.Analyzer{
	Name:  "unresolved",
	Doc:   "asks about commands whose program comes from a variable, an array, a command substitution or a glob",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Script == nil || in.Call.IsRoot() {
		return
	}
	for _, c := range in.Script.Commands {
		if len(c.Args) == 0 {
			continue
		}
		if a, ok := lookalike(c); ok {
			r.Add(toolwall.Finding{Rule: RuleLookalike, Category: "unresolved", Score: 0.6, Action: toolwall.Ask,
				Reason: fmt.Sprintf("%s needs confirmation: %q starts with a character that looks like a dash but is not one, so %s will not read it as an option. Type the option with ASCII '-'.", c.Shown(), a, c.Name)})
		}
		w := c.Args[0]
		var why string
		switch {
		case w.Dynamic:
			why = "its program comes from a variable, an array or a command substitution"
		case w.Glob:
			why = "its program name is a pattern the shell expands"
		default:
			continue
		}
		r.Add(toolwall.Finding{Rule: RuleCommand, Category: "unresolved", Score: 0.6, Action: toolwall.Ask,
			Reason: fmt.Sprintf("%s needs confirmation: %s, so toolwall cannot tell what it would run. Write the program's name out literally.", c.Shown(), why)})
		return
	}
}

// lookalike returns the first argument of c that starts with a Unicode
// dash look-alike (hyphen, non-breaking hyphen, figure dash, en and em
// dashes, horizontal bar, minus sign, small and full-width hyphen-minus).
// Only a word that then goes on with a letter counts (–rf, ‐‐hard), and
// not in the text echo and printf print.
func lookalike(c *shell.Command) (string, bool) {
	if c.Name == "echo" || c.Name == "printf" {
		return "", false
	}
	for _, a := range c.Args[1:] {
		if a.Dynamic || a.Value == "" {
			continue
		}
		v := a.Value
		n := 0
		for v != "" {
			r, size := utf8.DecodeRuneInString(v)
			if !dashLike(r) {
				break
			}
			v, n = v[size:], n+1
		}
		if n > 0 && v != "" && (v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
			return a.Value, true
		}
	}
	return "", false
}

// dashLike reports whether r looks like '-' and is not.
func dashLike(r rune) bool {
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\ufe58', '\ufe63', '\uff0d':
		return true
	}
	return false
}
