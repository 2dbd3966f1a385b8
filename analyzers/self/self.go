package self

import (
	"context"
	"fmt"
	"path"
	"slices"
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

// Files are toolwall's own files.
type Files struct {
	// Own are absolute paths (configuration, state database, binary);
	// relative ones are ignored.
	Own []string
	// Home are paths relative to the home directory of each call (where
	// an install puts them: "go/bin/toolwall", ".config/toolwall/…").
	Home []string
}

// New returns the analyzer for toolwall's own files. Claude Code's
// settings files are derived per call from its home and project.
func New(files Files) *analysis.Analyzer {
	var clean []string
	for _, p := range files.Own {
		if path.IsAbs(p) {
			clean = append(clean, path.Clean(p))
		}
	}
	rel := slices.Clone(files.Home)
	return &analysis.Analyzer{
		Name:  "self",
		Doc:   "refuses changes to toolwall's own configuration, state and binary; asks before changes to Claude Code's settings",
		Tools: []string{toolwall.ToolBash, toolwall.ToolWrite, toolwall.ToolEdit, toolwall.ToolMultiEdit, toolwall.ToolNotebookEdit},
		Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
			own := clean
			if h := in.Call.Home; h != "" && len(rel) > 0 {
				own = slices.Clone(clean)
				for _, p := range rel {
					own = append(own, path.Join(h, p))
				}
			}
			run(own, in, r)
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

// treeChangers change everything under a directory operand (rm -r, mv
// of a parent, chmod -R, an archive extracted into it): for these, naming
// a directory that holds a protected file counts as touching the file.
var treeChangers = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "chmod": true, "chown": true, "chgrp": true,
	"chattr": true, "setfacl": true, "shred": true, "unzip": true, "trash": true, "trash-put": true,
}

// copiers change only their last operand (the destination); their
// sources are read.
var copiers = map[string]bool{"cp": true, "rsync": true, "install": true, "ln": true}

// tarExtracts reports whether a tar command extracts (x, --extract, --get)
// rather than creating or listing an archive.
func tarExtracts(c *shell.Command) bool {
	for i, w := range c.Args[1:] {
		v := w.Value
		switch {
		case v == "--extract" || v == "--get":
			return true
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") || i == 0:
			if strings.ContainsRune(v, 'x') {
				return true
			}
		}
	}
	return false
}

// findChanges reports whether a find command deletes or runs commands on
// what it finds.
func findChanges(c *shell.Command) bool {
	for _, w := range c.Args[1:] {
		switch w.Value {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir":
			return true
		}
	}
	return false
}

// findNames returns the -name / -iname patterns of a find command.
func findNames(c *shell.Command) []string {
	var out []string
	for i := 1; i+1 < len(c.Args); i++ {
		if v := c.Args[i].Value; v == "-name" || v == "-iname" {
			out = append(out, strings.ToLower(c.Args[i+1].Value))
		}
	}
	return out
}

// touches returns the first protected file that p names (exactly or as a
// glob) or, when tree is set, holds as a directory; names, when given,
// are find's -name patterns, one of which must match the file's name.
func touches(p string, protected []string, tree bool, names []string) (string, bool) {
	for _, f := range protected {
		if len(names) > 0 && !slices.ContainsFunc(names, func(n string) bool {
			ok, _ := path.Match(n, strings.ToLower(path.Base(f)))
			return ok
		}) {
			continue
		}
		if p == f || tree && paths.Under(f, p) {
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
		if f, ok := touches(p, own, false, nil); ok {
			report(call.Tool+" of "+p, f, true)
		} else if f, ok := touches(p, ask, false, nil); ok {
			report(call.Tool+" of "+p, f, false)
		}
		return
	}
	if in.Script == nil {
		return
	}
	for _, c := range in.Script.Commands {
		if f, deny, ok := indirect(c, own, ask, call.Home); ok {
			report("`"+c.String()+"`", f, deny)
			continue
		}
		tree := treeChangers[c.Name] || c.Name == "find" && findChanges(c) || c.Name == "tar" && tarExtracts(c)
		var names []string
		if c.Name == "find" {
			names = findNames(c)
		}
		check := func(w shell.Word, writes bool) {
			if w.Dynamic || w.Value == "" || strings.HasPrefix(w.Value, "-") && !writes {
				return
			}
			p := paths.Abs(w.Value, c.Cwd)
			if f, ok := touches(p, own, tree && !writes, names); ok {
				report("`"+c.String()+"`", f, true)
			} else if f, ok := touches(p, ask, tree && !writes, names); ok {
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
		last := len(c.Args) - 1
		for i, w := range c.Args[1:] {
			if v, ok := strings.CutPrefix(w.Value, "of="); ok && c.Name == "dd" {
				w.Value = v
			}
			if copiers[c.Name] {
				tree = i+1 == last
			}
			check(w, false)
		}
	}
}

// interpreters run code given on their command line.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "pypy": true, "pypy3": true, "node": true,
	"nodejs": true, "bun": true, "deno": true, "perl": true, "ruby": true, "php": true, "lua": true,
	"osascript": true, "pwsh": true, "powershell": true,
}

// indirect finds changes to protected files that name them indirectly:
// a Go build whose output is toolwall's binary (go install of a package
// of the same name, go build -o), inline interpreter code that mentions a
// protected file (os.remove, writeFileSync, open(…, 'w')), and Claude
// Code's own "claude config" changes. It returns the file, whether the
// change is denied (toolwall's own) or asked (Claude's settings).
func indirect(c *shell.Command, own, ask []string, home string) (string, bool, bool) {
	switch {
	case c.Name == "go" && (c.Arg(1) == "install" || c.Arg(1) == "build"):
		for _, out := range goOutputs(c) {
			for _, f := range own {
				if out == f || path.Base(out) == path.Base(f) && c.Arg(1) == "install" && !strings.Contains(path.Base(f), ".") {
					return f, true, true
				}
			}
		}
	case interpreters[c.Name]:
		code := strings.Join(argValues(c), " ")
		for _, f := range own {
			if mentions(code, f, home) {
				return f, true, true
			}
		}
		for _, f := range ask {
			if mentions(code, f, home) {
				return f, false, true
			}
		}
	case c.Name == "claude" && c.Arg(1) == "config" && slices.Contains([]string{"set", "add", "remove", "reset"}, c.Arg(2)):
		if len(ask) > 0 {
			return ask[0], false, true
		}
	}
	return "", false, false
}

// argValues returns the values of c's arguments.
func argValues(c *shell.Command) []string {
	var out []string
	for _, w := range c.Args[1:] {
		out = append(out, w.Value)
	}
	return out
}

// mentions reports whether code names file f: its absolute path, or its
// path below home (as in os.path.expanduser("~/…") or HOME + "/…").
func mentions(code, f, home string) bool {
	if strings.Contains(code, f) {
		return true
	}
	if home != "" && paths.StrictlyUnder(f, home) {
		return strings.Contains(code, strings.TrimPrefix(f, home+"/"))
	}
	return false
}

// goOutputs lists the files a go install or go build command writes, as
// far as they are known: go build -o FILE (or DIR/ plus the package's
// last element), and for go install the last element of each package
// (where it lands depends on GOBIN, so only its name is known; the caller
// compares names).
func goOutputs(c *shell.Command) []string {
	var out, pkgs []string
	o := ""
	args := c.Args[2:]
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-o" && i+1 < len(args):
			o = paths.Abs(args[i+1].Value, c.Cwd)
			if strings.HasSuffix(args[i+1].Value, "/") {
				o += "/"
			}
			i++
		case strings.HasPrefix(v, "-o="):
			o = paths.Abs(v[3:], c.Cwd)
		case strings.HasPrefix(v, "-"):
		default:
			pkgs = append(pkgs, v)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{c.Cwd}
	}
	for _, p := range pkgs {
		p, _, _ = strings.Cut(p, "@")
		name := path.Base(paths.Abs(p, c.Cwd))
		switch {
		case o != "" && strings.HasSuffix(o, "/"):
			out = append(out, path.Join(o, name))
		case o != "":
			out = append(out, o)
		default:
			out = append(out, "/"+name)
		}
	}
	return out
}
