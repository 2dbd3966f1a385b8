package unresolved

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/programs"
)

// Rule ids.
const (
	// RuleCommand (ask): a command whose program is unknown.
	RuleCommand = "unresolved.command"
)

// Analyzer asks about Bash commands whose program toolwall cannot name. In
// RootContext it reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:  "unresolved",
	Rules: rules,
	Doc:   "asks about commands whose program comes from a variable, an array, a command substitution or a glob",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Script == nil || in.Call.IsRoot() {
		return
	}
	for _, c := range in.Script.Commands {
		if len(c.Args) == 0 || c.BuiltAtRunTime() {
			// code built at run time (sh -c "$CMD") is the remote
			// analyzer's interp.dynamic-command
			continue
		}
		w := c.Args[0]
		var why string
		switch {
		case len(c.Candidates) > 0:
			// the reader emitted the command once per value; the other
			// analyzers judge each. Raising privilege through a name
			// kept out of sight is the exception.
			if p := privileged(c.Candidates); p != "" {
				r.Add(toolwall.Finding{Rule: RuleCommand, Category: "unresolved", Score: 0.6, Action: toolwall.Ask,
					Reason: fmt.Sprintf("%s needs confirmation: its program comes from a variable that can be %s, which raises privilege where a reader of the command does not see it. Write %s out literally if the command needs it.", c.Shown(), p, p)})
				return
			}
			continue
		case w.Dynamic && c.Name == "":
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

// privileged returns the first of a command word's candidate values that
// names a program the catalog marks privileged (sudo, doas, pkexec, …),
// or "".
func privileged(values []string) string {
	for _, v := range values {
		name := v[strings.LastIndexByte(v, '/')+1:]
		if p := programs.Lookup(name); p != nil && p.Privileged {
			return v
		}
	}
	return ""
}
