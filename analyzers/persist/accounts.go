package persist

import (
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

func (k *checker) account(c *shell.Command, why string) {
	k.ask(quote(c), RuleAccount, catAccount, why,
		"Do not create, change or delete accounts, groups or passwords; tell the user the exact command and let them run it")
}

// accountTool: programs whose every use changes accounts, passwords or
// directory entries (useradd, adduser, userdel, deluser, chgpasswd,
// newusers, dsenableroot, ldapadd, ldapmodify, ldapdelete); --help and
// --version pass. groupdel and delgroup, which share userdel's entry,
// only change groups; "adduser USER GROUP" and "addgroup USER GROUP"
// add a member.
func (k *checker) accountTool(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	switch c.Name {
	case "groupdel", "delgroup":
		k.groupWarn(c)
		return
	}
	k.account(c, c.Name+" changes the machine's user accounts, groups or passwords, which decide who can log in and act as whom")
}

// usermod's entry holds usermod, groupmod and gpasswd: gpasswd and
// usermod change memberships or accounts (ask); groupmod changes a group
// (members named with -U/-a, or gid 0, ask; else warn).
func (k *checker) usermod(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	if c.Name == "groupmod" {
		gid0 := false
		for _, g := range values(c, "gid") {
			gid0 = gid0 || g.Value == "0"
		}
		if has(c, "append", "unlock") || gid0 {
			k.account(c, "groupmod changes the members of a group, or gives it group id 0 (root's group)")
			return
		}
		k.groupWarn(c)
		return
	}
	k.accountTool(c)
}

// group: creating a group grants nothing by itself (warn); naming
// members (-U/--users, addgroup USER GROUP) or a group id of 0 asks.
func (k *checker) group(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	members := has(c, "users")
	for _, g := range values(c, "gid") {
		members = members || g.Value == "0"
	}
	if c.Name == "addgroup" && len(operands(c)) >= 2 {
		members = true
	}
	if members {
		k.account(c, c.Name+" changes the members of a group, or gives a group id 0 (root's group)")
		return
	}
	k.groupWarn(c)
}

func (k *checker) groupWarn(c *shell.Command) {
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" changes the machine's groups",
		"Tell the user the exact command if a group is needed")
}

// samba: smbpasswd and pdbedit change Samba's own user database, which
// grants file-share access but no login: warn (pdbedit -L/-w only list).
func (k *checker) samba(c *shell.Command) {
	if helpOnly(c) || has(c, "list", "smbpasswd-style", "h", "L") {
		return
	}
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" changes Samba's user database, which decides who may use the machine's file shares",
		"Tell the user the exact command if a share account is needed")
}

// passwd (and chpasswd, its entry's kin): every use but passwd
// -S/--status (read-only) and help; plain passwd asks too, since it is
// interactive.
func (k *checker) passwd(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	if c.Name == "chpasswd" {
		k.accountTool(c)
		return
	}
	if has(c, "status") {
		return
	}
	who := "the current user's"
	if u := c.Inv.OperandsOf(programs.User); len(u) > 0 {
		who = u[0].Raw + "'s"
	}
	k.account(c, "it changes "+who+" password or password state")
}

// chsh, chfn: changing another user's shell asks; another user's details
// (chfn: name, room, phone) warn. The caller's own pass.
func (k *checker) chsh(c *shell.Command) {
	u := c.Inv.OperandsOf(programs.User)
	if len(u) == 0 || helpOnly(c) {
		return
	}
	if u[0].Dynamic && strings.Contains(u[0].Raw, "USER") || !u[0].Dynamic && (u[0].Value == k.user || k.user == "") {
		return
	}
	if c.Name == "chfn" {
		k.warn(quote(c), RuleAccount, catAccount, "chfn changes the details of another account ("+u[0].Raw+")",
			"Change only your own account's details")
		return
	}
	k.account(c, "chsh changes the login shell of another account ("+u[0].Raw+"); giving a system account a shell opens it for logins")
}

// chage: every change (-l only lists).
func (k *checker) chage(c *shell.Command) {
	if has(c, "list") || helpOnly(c) || len(c.Args) < 2 {
		return
	}
	k.account(c, "chage changes when an account and its password expire; it can reactivate a locked account")
}

// pw (FreeBSD): user/group add, mod, del, lock, unlock, in the
// "useradd" spelling and the "user add" one.
func (k *checker) pw(c *shell.Command) {
	verb, second := operand(c, 0), operand(c, 1)
	switch {
	case verb == "user" || verb == "group":
		verb += second // "pw user mod" is "pw usermod"
	case second == "user" || second == "group":
		verb = second + verb // and so is "pw mod user"
	}
	switch {
	case strings.HasSuffix(verb, "show") || strings.HasSuffix(verb, "next"):
	case strings.HasPrefix(verb, "user") || strings.HasPrefix(verb, "group") || verb == "lock" || verb == "unlock":
		k.account(c, "pw "+operand(c, 0)+" changes the machine's user accounts or groups")
	}
}

// dscl (macOS): -create, -delete, -append, -merge, -change, -passwd on
// any node change directory records (users, groups, admin membership);
// the commands also come without the dash ("dscl . create …").
func (k *checker) dscl(c *shell.Command) {
	if has(c, "change") {
		k.account(c, "dscl changes the directory's user and group records (accounts, passwords, admin membership)")
		return
	}
	for _, w := range operands(c) {
		switch strings.ToLower(w.Value) {
		case "create", "delete", "append", "merge", "change", "passwd":
			k.account(c, "dscl "+w.Value+" changes the directory's user and group records (accounts, passwords, admin membership)")
			return
		}
	}
}

// sysadminctl (macOS): -addUser, -deleteUser, -resetPasswordFor,
// -secureTokenOn/Off, -autologin; -guestAccount on and guest share
// access on.
func (k *checker) sysadminctl(c *shell.Command) {
	if has(c, "add-user", "delete-user", "reset-password", "secure-token", "autologin") {
		k.account(c, "sysadminctl changes the machine's user accounts or passwords")
		return
	}
	for _, v := range values(c, "guest-account", "guest-share") {
		if strings.EqualFold(v.Value, "on") {
			k.account(c, "sysadminctl turns a guest login or guest file sharing on")
			return
		}
	}
}

// dseditgroup (macOS): -o edit/create/delete changes group membership.
func (k *checker) dseditgroup(c *shell.Command) {
	for _, o := range values(c, "operation") {
		switch strings.ToLower(o.Value) {
		case "edit", "create", "delete":
			k.account(c, "dseditgroup -o "+o.Value+" changes group membership (admin membership gives root)")
			return
		}
	}
}

// visudo, vipw, vigr edit sudoers, passwd or group in an editor: with
// EDITOR/VISUAL set on the command the "editor" is any program (ask);
// otherwise it needs a terminal the agent does not have (warn). visudo
// -c only checks.
func (k *checker) visudo(c *shell.Command) {
	if has(c, "check") || helpOnly(c) {
		return
	}
	what := "the password file"
	switch c.Name {
	case "visudo":
		what = "sudoers, which decides who may act as root"
	case "vigr":
		what = "the group file"
	}
	if editorSet(c) {
		k.account(c, c.Name+" edits "+what+" with a program named in EDITOR/VISUAL")
		return
	}
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" edits "+what+" in an interactive editor",
		"Show the user the change instead")
}

// samba-tool user|group add/delete/setpassword/addmembers….
func (k *checker) sambaTool(c *shell.Command) {
	switch operand(c, 0) {
	case "user", "group":
		switch operand(c, 1) {
		case "", "list", "show", "listmembers", "getpassword":
			return
		}
		k.account(c, "samba-tool "+operand(c, 0)+" "+operand(c, 1)+" changes domain accounts or groups")
	}
}
