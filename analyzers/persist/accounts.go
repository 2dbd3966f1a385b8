package persist

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).accountTool, "useradd", "adduser", "usermod", "userdel", "deluser", "gpasswd", "chpasswd",
		"chgpasswd", "newusers",
		"dsenableroot", "ldapadd", "ldapmodify", "ldapdelete")
	register((*checker).samba, "smbpasswd", "pdbedit")
	register((*checker).passwd, "passwd")
	register((*checker).group, "groupadd", "addgroup", "groupmod", "groupdel", "delgroup")
	register((*checker).chsh, "chsh", "chfn")
	register((*checker).chage, "chage")
	register((*checker).pw, "pw")
	register((*checker).dscl, "dscl")
	register((*checker).sysadminctl, "sysadminctl")
	register((*checker).dseditgroup, "dseditgroup")
	register((*checker).visudo, "visudo", "vipw", "vigr")
	register((*checker).sambaTool, "samba-tool")
}

func (k *checker) account(c *shell.Command, why string) {
	k.ask(quote(c), RuleAccount, catAccount, why,
		"Do not create, change or delete accounts, groups or passwords; tell the user the exact command and let them run it")
}

// accountTool: programs whose every use changes accounts or groups; --help
// and --version pass.
func (k *checker) accountTool(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	k.account(c, c.Name+" changes the machine's user accounts, groups or passwords, which decide who can log in and act as whom")
}

// group: creating, renaming or deleting a group grants nothing by itself
// (warn); naming members (-U/--users, groupmod -a) or a group id of 0
// asks. Membership through gpasswd, usermod -G and adduser USER GROUP
// asks in accountTool.
func (k *checker) group(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	a := parse(c.Args[1:], spec{vals: "gKpPRUn", long: []string{"gid=", "key=", "password=", "prefix=", "root=", "users=", "new-name=", "append", "force", "non-unique", "system"}})
	members := a.has("-U", "--users", "-a", "--append")
	for _, g := range a.values("-g", "--gid") {
		members = members || g.Value == "0"
	}
	if members {
		k.account(c, c.Name+" changes the members of a group, or gives a group id 0 (root's group)")
		return
	}
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" changes the machine's groups",
		"Tell the user the exact command if a group is needed")
}

// helpOnly reports an argv that only asks for help or a version.
func helpOnly(c *shell.Command) bool {
	for _, w := range c.Args[1:] {
		switch w.Value {
		case "--help", "-h", "--version", "-V", "-?":
			return true
		}
	}
	return false
}

// samba: smbpasswd and pdbedit change Samba's own user database, which
// grants file-share access but no login: warn (pdbedit -L/-w only list).
func (k *checker) samba(c *shell.Command) {
	for _, w := range c.Args[1:] {
		switch w.Value {
		case "-L", "--list", "-Lv", "-Lw", "-w", "--smbpasswd-style", "--help", "-h":
			return
		}
	}
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" changes Samba's user database, which decides who may use the machine's file shares",
		"Tell the user the exact command if a share account is needed")
}

// passwd: every use but -S/--status (read-only) and help; plain passwd
// asks too, since it is interactive.
func (k *checker) passwd(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "rRnxwi", long: []string{"root=", "repository=", "prefix=", "mindays=", "maxdays=", "warndays=", "inactive=", "status", "all", "stdin", "lock", "unlock", "delete", "expire", "keep-tokens", "quiet"}})
	if a.has("-S", "--status") || helpOnly(c) {
		return
	}
	who := "the current user's"
	if u := a.operand(0); u != "" {
		who = u + "'s"
	}
	k.account(c, "it changes "+who+" password or password state")
}

// chsh, chfn: changing another user's shell asks; another user's
// details (chfn: name, room, phone) warn. The caller's own pass.
func (k *checker) chsh(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "sfrwhoR", long: []string{"shell=", "full-name=", "room=", "work-phone=", "home-phone=", "other=", "root=", "list-shells", "help", "version"}})
	u := a.operands
	if len(u) == 0 {
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
	a := parse(c.Args[1:], spec{vals: "dEImMRWP", long: []string{"lastday=", "expiredate=", "inactive=", "mindays=", "maxdays=", "root=", "warndays=", "prefix=", "list", "iso8601", "help"}})
	if a.has("-l", "--list") || helpOnly(c) || len(c.Args) < 2 {
		return
	}
	k.account(c, "chage changes when an account and its password expire; it can reactivate a locked account")
}

// pw (FreeBSD): user/group add, mod, del, lock, unlock, and the
// "useradd"-style spellings.
func (k *checker) pw(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "VR", posix: true})
	verb, second := a.lower(0), a.lower(1)
	switch {
	case verb == "user" || verb == "group":
		verb += second // "pw user mod" is "pw usermod"
	case second == "user" || second == "group":
		verb = second + verb // and so is "pw mod user"
	}
	switch {
	case strings.HasSuffix(verb, "show") || strings.HasSuffix(verb, "next"):
	case strings.HasPrefix(verb, "user") || strings.HasPrefix(verb, "group") || verb == "lock" || verb == "unlock":
		k.account(c, "pw "+a.operand(0)+" changes the machine's user accounts or groups")
	}
}

// dscl (macOS): -create, -delete, -append, -merge, -change, -passwd on
// any node change directory records (users, groups, admin membership).
func (k *checker) dscl(c *shell.Command) {
	for _, w := range c.Args[1:] {
		switch strings.ToLower(w.Value) {
		case "-create", "-delete", "-append", "-merge", "-change", "-changei", "-passwd", "create", "delete", "append", "merge", "change", "passwd":
			k.account(c, "dscl "+w.Value+" changes the directory's user and group records (accounts, passwords, admin membership)")
			return
		}
	}
}

// sysadminctl (macOS): -addUser, -deleteUser, -resetPasswordFor,
// -guestAccount on, -adminUser changes, -secureTokenOn/Off.
func (k *checker) sysadminctl(c *shell.Command) {
	args := c.Args[1:]
	for i, w := range args {
		v := strings.ToLower(w.Value)
		switch v {
		case "-adduser", "-deleteuser", "-resetpasswordfor", "-securetokenon", "-securetokenoff", "-autologin":
			k.account(c, "sysadminctl "+w.Value+" changes the machine's user accounts or passwords")
			return
		case "-guestaccount", "-smbguestaccess", "-afpguestaccess":
			if i+1 < len(args) && strings.EqualFold(args[i+1].Value, "on") {
				k.account(c, "sysadminctl "+w.Value+" on opens a guest login to the machine")
				return
			}
		}
	}
}

// dseditgroup (macOS): -o edit/create/delete changes group membership.
func (k *checker) dseditgroup(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "oaditrnupPTLqvmN"})
	for _, o := range a.values("-o") {
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
	a := parse(c.Args[1:], spec{vals: "f", long: []string{"file=", "check", "quiet", "strict", "owner", "perms", "help", "version"}})
	if a.has("-c", "--check") || helpOnly(c) {
		return
	}
	what := map[string]string{"visudo": "sudoers, which decides who may act as root", "vipw": "the password file", "vigr": "the group file"}[c.Name]
	if editorSet(c) {
		k.account(c, c.Name+" edits "+what+" with a program named in EDITOR/VISUAL")
		return
	}
	k.warn(quote(c), RuleAccount, catAccount, c.Name+" edits "+what+" in an interactive editor",
		"Show the user the change instead")
}

// samba-tool user|group add/delete/setpassword/addmembers….
func (k *checker) sambaTool(c *shell.Command) {
	a := parse(c.Args[1:], spec{posix: true})
	switch a.lower(0) {
	case "user", "group":
		switch a.lower(1) {
		case "", "list", "show", "listmembers", "getpassword":
			return
		}
		k.account(c, "samba-tool "+a.operand(0)+" "+a.operand(1)+" changes domain accounts or groups")
	}
}
