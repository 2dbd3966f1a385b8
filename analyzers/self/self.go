package self

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids.
const (
	// RuleTamper (deny): a call would change toolwall's own files.
	RuleTamper = "self.tamper"
	// RuleSettings (ask): a call would change Claude Code's settings, where
	// the toolwall hook is configured.
	RuleSettings = "self.settings"
)

// readOnly are commands that only read the files they name.
var readOnly = map[string]bool{
	"cat": true, "less": true, "more": true, "head": true, "tail": true, "ls": true,
	"stat": true, "file": true, "wc": true, "grep": true, "egrep": true, "fgrep": true,
	"rg": true, "diff": true, "cmp": true, "sha256sum": true, "sha1sum": true,
	"md5sum": true, "test": true, "[": true, "realpath": true, "readlink": true,
	"du": true, "jq": true, "bat": true, "echo": true, "printf": true, "toolwall": true,
	"which": true, "type": true, "command": true, "dirname": true, "basename": true,
}

// New returns the analyzer for toolwall's own files own (absolute paths:
// configuration, state database, binary). Claude Code's settings files
// are derived per call from its home and project.
func New(own []string) *analysis.Analyzer {
	var clean []string
	for _, p := range own {
		if path.IsAbs(p) {
			clean = append(clean, path.Clean(p))
		}
	}
	return &analysis.Analyzer{
		Name:  "self",
		Doc:   "refuses changes to toolwall's own configuration, state and binary; asks before changes to Claude Code's settings",
		Tools: []string{toolwall.ToolBash, toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit, toolwall.ToolNotebookEdit},
		Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
			run(clean, in, r)
		},
	}
}

// settings lists Claude Code's settings files for a call.
func settings(call toolwall.Call) []string {
	var out []string
	for _, base := range []string{call.Home, call.Project} {
		if base != "" {
			out = append(out, base+"/.claude/settings.json", base+"/.claude/settings.local.json")
		}
	}
	if call.Home != "" {
		out = append(out, call.Home+"/.claude.json")
	}
	return out
}

// touches returns the first protected file that p names or contains.
func touches(p string, protected []string) (string, bool) {
	for _, f := range protected {
		if paths.Under(f, p) {
			return f, true
		}
		if ok, _ := path.Match(p, f); ok {
			return f, true
		}
	}
	return "", false
}

func run(own []string, in *analysis.Input, r *analysis.Report) {
	call := in.Call
	ask := settings(call)
	report := func(what, target string, deny bool) {
		if deny {
			r.Add(toolwall.Finding{Rule: RuleTamper, Category: "self", Score: 0.95, Action: toolwall.Deny,
				Reason: fmt.Sprintf("%s was refused: it would change %s, one of toolwall's own files, which would switch off or weaken the checks on this agent's tool calls. Ask the user to make this change themselves.", what, target)})
			return
		}
		r.Add(toolwall.Finding{Rule: RuleSettings, Category: "self", Score: 0.6, Action: toolwall.Ask,
			Reason: fmt.Sprintf("%s needs confirmation: it would change %s, Claude Code's settings, where toolwall's hook is configured. Ask the user to confirm the change.", what, target)})
	}
	if call.Tool != toolwall.ToolBash {
		field := "file_path"
		if call.Tool == toolwall.ToolNotebookEdit {
			field = "notebook_path"
		}
		p, ok := call.Field(field)
		if !ok {
			return
		}
		p = paths.Abs(paths.Expand(p, call.Home), call.Cwd)
		if f, ok := touches(p, own); ok {
			report(call.Tool+" of "+p, f, true)
		} else if f, ok := touches(p, ask); ok {
			report(call.Tool+" of "+p, f, false)
		}
		return
	}
	if in.Script == nil {
		return
	}
	for _, c := range in.Script.Commands {
		check := func(w shell.Word, writes bool) {
			if w.Dynamic || w.Value == "" || strings.HasPrefix(w.Value, "-") && !writes {
				return
			}
			p := paths.Abs(w.Value, c.Cwd)
			if f, ok := touches(p, own); ok {
				report("`"+c.String()+"`", f, true)
			} else if f, ok := touches(p, ask); ok {
				report("`"+c.String()+"`", f, false)
			}
		}
		for _, rd := range c.Redirects {
			if rd.Writes() {
				check(rd.Target, true)
			}
		}
		if readOnly[c.Name] || len(c.Args) < 2 {
			continue
		}
		for _, w := range c.Args[1:] {
			if v, ok := strings.CutPrefix(w.Value, "of="); ok && c.Name == "dd" {
				w.Value = v
			}
			check(w, false)
		}
	}
}
