package destroy

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// permLongs are GNU chmod/chown/chgrp long options.
var permLongs = []string{"recursive", "reference", "changes", "silent", "quiet", "verbose",
	"no-preserve-root", "preserve-root", "dereference", "no-dereference", "from", "help", "version"}

var (
	chmodSpec = optSpec{long: permLongs, longArg: []string{"reference", "from"}, modes: true}
	chownSpec = optSpec{long: permLongs, longArg: []string{"reference", "from"}}
)

// perms checks chmod, chown and chgrp (n): -R on /, home or a system root
// is denied (c138–c145), except the user-owned prefixes (/usr/local,
// Homebrew's) and other users' homes (chown -R bob /home/bob is a repair);
// chmod granting execute is tagged.
func (a *run) perms(c *shell.Command, n string, args []shell.Word) {
	spec := chownSpec
	if n == "chmod" {
		spec = chmodSpec
	}
	p := parseArgs(args[1:], spec)
	if p.has("help", "version") {
		return
	}
	ops := p.operands
	mode := ""
	if _, ref := p.val("reference"); !ref && len(ops) > 0 {
		mode = ops[0].Value
		ops = ops[1:]
	}
	recursive := p.has("R", "recursive")
	for _, w := range ops {
		t := a.env.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		if n == "chmod" && grantsExec(mode) {
			a.r.Tag(toolwall.TagMakeExecutable, t.abs, "")
		}
		if a.env.systemWrite(t.base) {
			a.r.Tag(toolwall.TagSystemWrite, t.abs, "")
		}
		if !recursive {
			continue
		}
		if cls := a.env.classify(t); (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base) {
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes "+map[bool]string{true: "permissions", false: "ownership"}[n == "chmod"]+
				" of everything under "+a.env.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. "+
				"Change only the files you mean, inside the project.")
		}
	}
}

// userPrefixes are system paths users commonly own (Homebrew's
// prefixes): chown -R of them is routine, not a broken system.
var userPrefixes = []string{"/usr/local", "/opt/homebrew", "/home/linuxbrew"}

// userPrefix reports whether p is inside a userPrefixes entry.
func userPrefix(p string) bool {
	for _, u := range userPrefixes {
		if under(p, u) {
			return true
		}
	}
	return false
}

// grantsExec reports whether a chmod mode gives execute permission to
// anyone: an octal mode with an odd digit among its last three (755,
// 0700), or a symbolic clause adding or setting x or X (+x, u+x, a=rx).
func grantsExec(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		for i := max(0, len(mode)-3); i < len(mode); i++ {
			if (mode[i]-'0')&1 == 1 {
				return true
			}
		}
		return false
	}
	adding := false
	for i := 0; i < len(mode); i++ {
		switch mode[i] {
		case '+', '=':
			adding = true
		case '-', ',':
			adding = false
		case 'x', 'X':
			if adding {
				return true
			}
		}
	}
	return false
}
