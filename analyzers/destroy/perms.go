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

// Options of the attribute tools: setfacl (ACLs), chcon (SELinux labels),
// chflags (BSD file flags). chattr is read by hand (its modes look like
// options).
var (
	setfaclSpec = optSpec{shortArg: "mMxX",
		long: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file", "remove-all", "remove-default",
			"default", "no-mask", "mask", "recursive", "logical", "physical", "restore", "test", "help", "version"},
		longArg: []string{"modify", "modify-file", "remove", "remove-file", "set", "set-file", "restore"}}
	chconSpec = optSpec{shortArg: "urtl",
		long: []string{"user", "role", "type", "range", "reference", "recursive", "dereference", "no-dereference",
			"preserve-root", "no-preserve-root", "verbose", "help", "version"},
		longArg: []string{"user", "role", "type", "range", "reference"}}
	chflagsSpec = optSpec{}
)

// attrs checks setfacl, chcon, chflags and chattr (n) run recursively on
// /, home or a system root: they rewrite the access rules, security labels
// or flags of every file there, which breaks the system or the account
// like chmod -R does (perms.recursive-on-root).
func (a *run) attrs(c *shell.Command, n string, args []shell.Word) {
	var recursive bool
	var ops []shell.Word
	switch n {
	case "chattr":
		for i := 1; i < len(args); i++ {
			w := args[i]
			v := w.Value
			switch {
			case w.Dynamic:
				ops = append(ops, w)
			case v == "":
			case v == "-v" || v == "-p":
				i++
			case len(v) > 1 && v[0] == '-' && strings.Trim(v[1:], "RVf") == "":
				recursive = recursive || strings.Contains(v, "R")
			case v[0] == '-' || v[0] == '+' || v[0] == '=':
			default:
				ops = append(ops, w)
			}
		}
	default:
		spec := map[string]optSpec{"setfacl": setfaclSpec, "chcon": chconSpec, "chflags": chflagsSpec}[n]
		p := parseArgs(args[1:], spec)
		if p.has("help", "version") {
			return
		}
		recursive = p.has("R", "recursive")
		ops = p.operands
		switch {
		case n == "chflags" && len(ops) > 0:
			ops = ops[1:] // the flags
		case n == "chcon" && !p.has("u", "r", "t", "l", "user", "role", "type", "range", "reference") && len(ops) > 0:
			ops = ops[1:] // the context
		}
	}
	if !recursive {
		return
	}
	what := map[string]string{"setfacl": "access control lists", "chcon": "SELinux labels",
		"chflags": "file flags", "chattr": "file attributes"}[n]
	for _, w := range ops {
		t := a.env.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		if cls := a.env.classify(t); (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base) {
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it rewrites the "+what+" of everything under "+
				a.env.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. "+
				"Change only the files you mean, inside the project.")
		}
	}
}
