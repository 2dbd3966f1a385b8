package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// perms checks the permission, owner and attribute changes of a command
// (Chmods and Chowns effects: chmod, chown, chgrp, setfacl, chattr, chcon,
// chflags, setcap): -R on /, home or a system root is denied (c138–c145),
// except the user-owned prefixes (/usr/local, Homebrew's) and other users'
// homes (chown -R bob /home/bob is a repair); chmod granting execute is
// tagged; write permission for others (o+w, a+w, 777, 666) outside the
// project asks (perms.world-writable); setuid and setgid bits and
// root-equivalent capabilities are denied (privilege).
func (a *run) perms(c *shell.Command, prog string) {
	for _, x := range c.Effects {
		if x.Kind != shell.Chmods && x.Kind != shell.Chowns {
			continue
		}
		t, e := a.target(c, x, prog)
		if t.dynamic {
			if f := a.finder(c); f != nil && x.Kind == shell.Chmods && worldWritable(x.Mode) {
				// find DIR -exec chmod 777 {} +: the files are under DIR
				for _, s := range findStarts(f) {
					if ft, fe := a.target(f, s, "find"); !ft.dynamic && fe == &a.env {
						a.worldWritable(c, ft)
					}
				}
			}
			continue
		}
		if e == &a.env {
			if (prog == "chmod" || prog == "shx") && grantsExec(x.Mode) {
				a.r.Tag(toolwall.TagMakeExecutable, t.abs, "")
			}
			if a.env.systemWrite(t.base) {
				a.r.Tag(toolwall.TagSystemWrite, t.abs, "")
			}
			if x.Kind == shell.Chmods && worldWritable(x.Mode) {
				a.worldWritable(c, t)
			}
		}
		if !x.Recursive {
			continue
		}
		if cls := e.classify(t); (cls == clsRoot || cls == clsSystem || cls == clsHome) && !userPrefix(t.base) {
			a.deny("perms.recursive-on-root", quote(c)+" was refused: it changes "+permWhat(prog, x.Kind)+
				" of everything under "+e.describe(t, cls)+", which breaks the system or your account and cannot be undone by hand. "+
				"Change only the files you mean, inside the project.")
		}
	}
	a.setuid(c, prog)
}

// worldWritable asks about write permission for every user on t when t
// is outside the project (perms.world-writable).
func (a *run) worldWritable(c *shell.Command, t target) {
	if a.env.project != "" && under(t.base, a.env.project) {
		return
	}
	a.ask("perms.world-writable", quote(c)+" needs confirmation: it lets every user of the machine write to "+t.abs+
		", outside the project, so anyone can change or replace what is there and what runs from it. "+
		"Give write permission to the owner or the group only (u+w, g+w, 755, 664), or ask the user.")
}

// finder returns the find whose files c is handed: through -exec (c's
// parent, or an ancestor through sh -c) or find … | xargs c; nil for
// none.
func (a *run) finder(c *shell.Command) *shell.Command {
	if f := a.fedByFind(c); f != nil {
		return f
	}
	for p := c.Parent; p != nil; p = p.Parent {
		if progName(p) == "find" {
			return p
		}
	}
	return nil
}

// permWhat names what a permission tool changes, for a reason.
func permWhat(prog string, k shell.EffectKind) string {
	switch prog {
	case "setfacl":
		return "the access control lists"
	case "chcon":
		return "the SELinux labels"
	case "chflags":
		return "the file flags"
	case "chattr":
		return "the file attributes"
	case "setcap":
		return "the file capabilities"
	}
	if k == shell.Chowns {
		return "ownership"
	}
	return "permissions"
}

// setuid denies a mode that sets the set-user-ID or set-group-ID bit
// (chmod u+s, chmod 4755, g+s, 2755, install -m 4755) and setcap of a
// capability that amounts to root (cap_setuid, cap_sys_admin, …): a
// program marked so runs with its owner's or the capability's power for
// whoever starts it, which is how a copied shell becomes a root shell
// (privilege). The set-group-ID bit on directories only
// (find … -type d -exec chmod g+s {} +, a shared group directory) passes.
func (a *run) setuid(c *shell.Command, prog string) {
	v := c.Inv
	var modes []shell.Word
	switch prog {
	case "chmod", "shx":
		modes = v.OperandsOf(programs.Mode)
		for _, r := range v.Values("reference") {
			if !r.Dynamic && setuidProgram(path.Base(r.Value)) {
				modes = append(modes, shell.Word{Value: "u+s", Raw: r.Raw})
			}
		}
	case "install":
		modes = v.Values("mode")
	case "setcap":
		if v.Has("remove") {
			return
		}
		for _, w := range v.OperandsOf(programs.Mode) {
			if cap := rootCapability(w.Value); cap != "" {
				a.deny("perms.capabilities", quote(c)+" was refused: it gives a program the capability "+cap+
					", which lets whoever runs it act as root. Leave privilege changes to the user.")
				return
			}
		}
		return
	default:
		return
	}
	for _, m := range modes {
		if m.Dynamic {
			continue
		}
		suid, sgid := setsID(m.Value)
		if !suid && (!sgid || a.dirsOnly(c)) {
			continue
		}
		bit := "set-user-ID"
		if !suid {
			bit = "set-group-ID"
		}
		a.deny("perms.setuid", quote(c)+" was refused: it sets the "+bit+" bit, so the program runs with its owner's "+
			"rights for whoever starts it (a setuid copy of a shell is a root shell). Leave privilege changes to the user.")
		return
	}
}

// setuidProgram reports whether a program is one that systems install
// set-user-ID root: chmod --reference to it copies the bit.
func setuidProgram(name string) bool {
	switch name {
	case "passwd", "sudo", "sudoedit", "su", "mount", "umount", "ping", "chsh", "chfn", "newgrp", "gpasswd",
		"pkexec", "fusermount", "fusermount3", "doas", "crontab", "at":
		return true
	}
	return false
}

// setsID reports whether a chmod mode sets the set-user-ID bit (suid) or
// the set-group-ID bit (sgid): an octal mode of four or more digits whose
// special digit has 4 or 2 (4755, 02775), or a symbolic clause adding or
// setting s (u+s, +s, g=rxs).
func setsID(mode string) (suid, sgid bool) {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		if len(mode) < 4 {
			return false, false
		}
		d := mode[len(mode)-4] - '0'
		return d&4 != 0, d&2 != 0
	}
	for clause := range strings.SplitSeq(mode, ",") {
		rest := strings.TrimLeft(clause, "ugoa")
		who := clause[:len(clause)-len(rest)]
		adding := false
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '+', '=':
				adding = true
			case '-':
				adding = false
			case 's':
				if !adding {
					continue
				}
				if who == "" || strings.ContainsAny(who, "ua") {
					suid = true
				}
				if who == "" || strings.ContainsAny(who, "ga") {
					sgid = true
				}
			}
		}
	}
	return suid, sgid
}

// rootCapability returns the first capability in a setcap capability
// text that is raised (=, + with e or p) and amounts to root, or "": a
// text without capability names ("=ep") raises them all.
func rootCapability(text string) string {
	for clause := range strings.FieldsSeq(text) {
		names, flags, ok := strings.Cut(clause, "=")
		if !ok {
			i := strings.IndexAny(clause, "+")
			if i < 0 {
				continue
			}
			names, flags = clause[:i], clause[i+1:]
		}
		if !strings.ContainsAny(flags, "ep") {
			continue
		}
		if names == "" || names == "all" {
			return "all"
		}
		for n := range strings.SplitSeq(names, ",") {
			switch n = strings.ToLower(strings.TrimSpace(n)); n {
			case "cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search",
				"cap_sys_ptrace", "cap_sys_module", "cap_chown", "cap_fowner", "cap_sys_rawio", "cap_bpf":
				return n
			}
		}
	}
	return ""
}

// dirsOnly reports whether the files a chmod works on come from a find
// that only yields directories (-type d), through -exec or xargs.
func (a *run) dirsOnly(c *shell.Command) bool {
	f := a.finder(c)
	if f == nil || f.Inv == nil {
		return false
	}
	for _, w := range f.Inv.Values("type") {
		if !w.Dynamic && w.Value == "d" {
			return true
		}
	}
	return false
}

// userPrefix reports whether p is inside a system path users commonly own
// (Homebrew's prefixes): chown -R of them is routine, not a broken system.
func userPrefix(p string) bool {
	return under(p, "/usr/local") || under(p, "/opt/homebrew") || under(p, "/home/linuxbrew")
}

// worldWritable reports whether a chmod mode gives write permission to
// others: an octal mode whose last digit has 2 (777, 666, 0002), or a
// symbolic clause for o or a adding or setting w (o+w, a+rw, a=rwx). A
// clause without who (+w) is masked by the umask and does not count, and
// neither does a mode that sets the sticky bit (1777, +t): a shared
// directory like /tmp, where nobody may remove or rename another user's
// entries.
func worldWritable(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		sticky := len(mode) >= 4 && (mode[len(mode)-4]-'0')&1 != 0
		return !sticky && (mode[len(mode)-1]-'0')&2 != 0
	}
	if strings.Contains(mode, "t") && !strings.Contains(mode, "-t") {
		return false
	}
	for clause := range strings.SplitSeq(mode, ",") {
		rest := strings.TrimLeft(clause, "ugoa")
		who := clause[:len(clause)-len(rest)]
		if !strings.ContainsAny(who, "oa") {
			continue
		}
		adding := false
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '+', '=':
				adding = true
			case '-':
				adding = false
			case 'w':
				if adding {
					return true
				}
			}
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
