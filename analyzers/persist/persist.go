package persist

import (
	"context"
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// Rule ids reported by [Analyzer]. Ids are stable: users switch rules off
// and hosts log by them.
const (
	// RuleWriteProtected (deny, 0.95): a shell write to a file whose change
	// runs code at boot, at login, on a schedule or as root, or decides who
	// may log in ([files.Judge]'s protected set plus [extraPlaces]).
	RuleWriteProtected = "persist.write-protected"
	// RuleWriteSensitive (ask, 0.6): a shell write to a file that runs code
	// later for this user (shell rc files, git hooks, the agent's settings,
	// Python startup hooks), or a write whose name is only known at run
	// time under such a place.
	RuleWriteSensitive = "persist.write-sensitive"
	// RuleWriteSystem: any other shell write under a system root; ask
	// (0.6) under the system's configuration, programs and libraries
	// (/etc, /bin, /sbin, /usr/bin, /usr/sbin, /lib*, /usr/lib*), warn
	// (0.45) elsewhere (/usr/local, /opt, /var, /srv, /usr/share, /root,
	// /sys, /Library, …).
	RuleWriteSystem = "persist.write-system"
	// RuleAccount (ask, 0.6): creating, changing or deleting user accounts,
	// groups and passwords (useradd, usermod, passwd, dscl, sysadminctl, …).
	RuleAccount = "persist.account"
	// RuleSchedule (ask, 0.6): installing something that runs later or at
	// boot: crontab FILE, at, systemd timers, systemctl enable, launchctl
	// load, login hooks, update-rc.d, chkconfig, rc-update.
	RuleSchedule = "persist.schedule"
	// RuleKernel (ask, 0.6): loading kernel modules or extensions, turning
	// kernel security knobs off, changing the boot loader.
	RuleKernel = "persist.kernel"

	// RuleAuditOff (ask, 0.6): deleting audit rules or switching auditing
	// off (auditctl -D, -d, -W, -e 0, --signal TERM).
	RuleAuditOff = "defense.audit-off"
	// RuleAuditChange (ask, 0.6): any other change of the kernel audit
	// configuration: adding rules or watches (auditctl -a, -A, -w; a rule
	// on execve logs every program run with its arguments, ATT&CK
	// T1056), loading a rule file (-R), enabling or locking auditing
	// (-e 1, -e 2), tuning it (-b, -f, -r, --backlog_wait_time), forging
	// a record (-m). Listing (-l) and status (-s) pass.
	RuleAuditChange = "defense.audit-change"
	// RuleSecurityStop (ask, 0.6): stopping, disabling, masking or killing
	// an audit, logging or endpoint-security service (auditd, apparmor,
	// osqueryd, falcon-sensor, wazuh, rsyslog, …).
	RuleSecurityStop = "defense.security-stop"
	// RuleProtectionOff (ask, 0.6): switching a platform protection off:
	// Gatekeeper (spctl --master-disable), SIP (csrutil disable), the macOS
	// application firewall, Microsoft Defender, trusting a new root
	// certificate, removing com.apple.quarantine (xattr -d); warn (0.45)
	// for clearing every extended attribute (xattr -c), which removes it
	// too.
	RuleProtectionOff = "defense.protection-off"
	// RuleBackupDelete (ask, 0.6): disabling Time Machine or deleting its
	// backups and snapshots (tmutil disable, delete, deletelocalsnapshots).
	RuleBackupDelete = "defense.backup-delete"
	// RuleImmutable (ask, 0.6): chattr +i/-i/+a/-a on a system,
	// persistence or startup file.
	RuleImmutable = "defense.immutable"
	// RuleTimestomp (warn, 0.45): touch -r/-t/-d on a system, persistence
	// or startup file: backdating it hides a change.
	RuleTimestomp = "defense.timestomp"
	// RuleLogTamper (ask, 0.6): emptying, deleting, shredding or editing
	// system logs and the audit trail (/var/log, /var/audit, wtmp),
	// vacuuming the journal, log erase (macOS), ufw logging off.
	RuleLogTamper = "defense.log-tamper"
	// RuleShellHook (ask, 0.6): hooking the shell so that a command runs
	// at every prompt or command: PROMPT_COMMAND, trap … DEBUG, a prompt
	// variable holding a command substitution (keystroke logging).
	RuleShellHook = "defense.shell-hook"

	// RuleDumpTool (ask, 0.6): a known credential dumper or cracker
	// (LaZagne, mimipenguin, mimikatz, pypykatz, secretsdump, unshadow;
	// hashcat and john on the shadow file).
	RuleDumpTool = "creddump.tool"
	// RuleProcessMemory (ask, 0.6): reading another process's memory
	// (/proc/PID/mem, /dev/mem, /proc/kcore, gcore, gdb attach with dump
	// commands, procdump).
	RuleProcessMemory = "creddump.process-memory"
	// RuleKeychain (ask, 0.6): reading or exporting the macOS keychain
	// (security dump-keychain, find-*-password -w/-g, export, import).
	RuleKeychain = "creddump.keychain"
	// RuleBrowserStore (ask, 0.6): touching a browser's saved passwords,
	// cookies or their key (Chrome/Chromium/Brave/Edge/Opera/Vivaldi
	// "Login Data", "Cookies", "Web Data", "Local State"; Firefox
	// logins.json, key4.db, key3.db, cookies.sqlite; Safari
	// Cookies.binarycookies).
	RuleBrowserStore = "creddump.browser-store"
	// RuleSecretSearch (ask, 0.6): a recursive search for passwords,
	// secrets or tokens over the whole file system, a home or /etc.
	RuleSecretSearch = "creddump.secret-search"
	// RuleHistory (ask, 0.6): searching shell history for passwords or
	// tokens, or copying it elsewhere.
	RuleHistory = "creddump.history"
	// RuleKeySearch (warn, 0.45): locating private keys and password
	// databases across the file system or a home (find / -name id_rsa);
	// ask (0.6) when find hands each one to a program that copies, prints
	// or sends it (-exec cp, cat, scp, …).
	RuleKeySearch = "creddump.key-search"
	// RulePrompt (ask, 0.6): a fake password dialog (osascript display
	// dialog … with hidden answer).
	RulePrompt = "creddump.fake-prompt"
	// RuleSniff (ask, 0.6): capturing live network traffic (tcpdump,
	// tshark, dumpcap, termshark, tcpflow, ngrep; reading a saved capture
	// passes; warn, 0.45, for tcpdump or tshark printing the headers of
	// at most 100 packets, -c, with nothing saved and no payload) and
	// active interception (ettercap, bettercap, arpspoof, responder;
	// mitmdump in transparent mode is not included).
	RuleSniff = "creddump.sniff"
)

// Analyzer finds persistence, account changes, defense impairment and
// credential dumping in Bash calls. It needs in.Script; a nil Script (a
// non-Bash call, or a command that did not parse) yields nothing. In
// [toolwall.RootContext] it reports nothing (the root helper gets
// only the catastrophic set).
var Analyzer = &analysis.Analyzer{
	Name:  "persist",
	Rules: rules,
	Doc: "persist stops shell commands that make something run later or as root (writes to cron, " +
		"systemd, launchd, boot and shell startup files; crontab, at, systemctl enable, launchctl load; " +
		"kernel modules), change accounts, switch audit, logging and security tools off or wipe logs, " +
		"and dump credentials (known dumpers, process memory, the keychain, browser password stores, " +
		"searches for passwords over a whole home or file system).",
	Tools: []string{toolwall.ToolBash},
	Run:   run,
}

// Finding scores (the gate's conventions: deny 0.95, ask 0.5–0.65, warn
// 0.4–0.5).
const (
	denyScore = 0.95
	askScore  = 0.6
	warnScore = 0.45
)

// Categories of findings.
const (
	catPersist  = "persistence"
	catAccount  = "account"
	catDefense  = "defense-impairment"
	catCredDump = "credential-access"
)

// checker holds the state of one Run.
type checker struct {
	in   *analysis.Input
	r    *analysis.Report
	home string
	proj string
	user string
	seen map[string]bool
	// depth counts shell text read from AppleScript's "do shell script"
	// (see applescript); one level is read.
	depth int
	// once holds the rules already reported for the writes of the
	// command being judged: one finding per rule and command (a copy
	// into a directory names the directory and the file in it).
	once map[string]bool
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in == nil || r == nil || in.Script == nil || in.Call.IsRoot() {
		return
	}
	k := &checker{in: in, r: r, home: in.Call.Home, proj: in.Call.Project, seen: map[string]bool{}}
	if k.proj == "" {
		k.proj = in.Call.Cwd
	}
	if k.home != "" {
		k.user = path.Base(k.home)
	}
	for i, c := range in.Script.Commands {
		if c == nil {
			continue
		}
		k.command(in.Script.Commands, i, c)
	}
}

// command runs every rule on one command. A command that runs on
// another host or inside a container (c.Remote) is judged for what it
// does there (an account made on a server is still an account), but its
// paths are not this machine's: only its writes that map back to host
// paths through a container's mounts are judged as writes here.
func (k *checker) command(all []*shell.Command, i int, c *shell.Command) {
	k.writes(c)
	k.assigns(c, c.Assigns)
	k.memoryWords(c)
	if len(c.Args) == 0 {
		return
	}
	k.wrapped(c)
	switch rootName(c) {
	// accounts.go
	case "useradd", "userdel", "chgpasswd", "dsenableroot", "ldapadd":
		k.accountTool(c)
	case "usermod":
		k.usermod(c)
	case "groupadd":
		k.group(c)
	case "passwd":
		k.passwd(c)
	case "chsh":
		k.chsh(c)
	case "chage":
		k.chage(c)
	case "pw":
		k.pw(c)
	case "dscl":
		k.dscl(c)
	case "sysadminctl":
		k.sysadminctl(c)
	case "dseditgroup":
		k.dseditgroup(c)
	case "visudo", "vipw":
		k.visudo(c)
	case "samba-tool":
		k.sambaTool(c)
	case "smbpasswd", "pdbedit":
		k.samba(c)
	// schedule.go
	case "crontab":
		k.crontab(c)
	case "at":
		k.at(c)
	case "systemctl":
		k.systemctl(c)
	case "launchctl":
		k.launchctl(c)
	case "defaults":
		k.defaults(c)
	case "osascript":
		k.osascript(c)
	case "update-rc.d":
		k.updateRCd(c)
	case "chkconfig":
		k.chkconfig(c)
	case "rc-update":
		k.rcUpdate(c)
	case "insserv":
		k.insserv(c)
	case "sysrc":
		k.sysrc(c)
	case "service":
		k.service(c)
	case "loginctl":
		k.loginctl(c)
	// kernel.go
	case "modprobe":
		k.modprobe(c)
	case "systemd-run":
		k.systemdRun(c)
	case "kextload":
		k.insmod(c)
	case "kmutil":
		k.kmutil(c)
	case "sysctl":
		k.sysctl(c)
	case "grub-install":
		k.grubInstall(c)
	case "efibootmgr":
		k.efibootmgr(c)
	case "mokutil":
		k.mokutil(c)
	// defense.go
	case "auditctl":
		k.auditctl(c)
	case "spctl":
		k.spctl(c)
	case "csrutil":
		k.csrutil(c)
	case "tmutil":
		k.tmutil(c)
	case "chattr", "chflags":
		if !c.Remote {
			k.chattr(c)
		}
	case "touch":
		if !c.Remote {
			k.timestomp(c)
		}
	case "journalctl":
		k.journalctl(c)
	case "rm", "shred", "unlink", "srm":
		k.logDelete(c)
	case "find":
		k.find(c)
	case "trap":
		k.trap(c)
	case "export":
		k.declare(c)
	case "pkill":
		k.killSecurity(c)
	case "kill":
		k.killByLookup(all, i, c)
	case "socketfilterfw":
		k.socketfilterfw(c)
	case "history":
		k.historyBuiltin(c)
	case "mdatp":
		k.mdatp(c)
	case "ufw":
		k.ufwLogging(c)
	case "log":
		k.logErase(c)
	case "xattr":
		k.xattr(c)
	case "security":
		k.security(c)
	case "update-ca-certificates":
		k.certctl(c)
	// creddump.go
	case "lazagne":
		k.dumpTool(c)
	case "hashcat":
		k.cracker(c)
	case "gcore":
		k.gcore(c)
	case "gdb", "lldb":
		k.gdb(c)
	case "grep", "rg", "ag", "ack":
		k.search(c)
	case "locate":
		k.locate(c)
	case "tcpdump", "tshark", "tcpflow", "ngrep":
		k.sniff(c)
	case "ettercap":
		k.intercept(c)
	}
	if v := c.Args[0].Value; !c.Args[0].Dynamic && (strings.HasPrefix(v, "/etc/init.d/") || strings.HasPrefix(v, "/etc/rc.d/")) {
		k.initScript(c)
	}
	k.browserWords(c)
	k.copiesHistory(c)
	k.interpreted(c)
}

// rootName is the canonical name of c's program in the catalog ("" when
// it has no entry): the entry's first name, so every name a program is
// installed under is judged alike (grm is rm, python3.12 is python).
func rootName(c *shell.Command) string {
	if p := c.Inv.Program(); p != nil {
		return p.Root().Name
	}
	return ""
}

// add reports a finding once per (rule, reason), and once per rule for
// the writes of one command.
func (k *checker) add(act toolwall.Action, rule, category, reason string) {
	key := rule + "\x00" + reason
	if k.seen[key] || k.once != nil && k.once[rule] {
		return
	}
	k.seen[key] = true
	if k.once != nil {
		k.once[rule] = true
	}
	score := askScore
	switch act {
	case toolwall.Deny:
		score = denyScore
	case toolwall.Warn:
		score = warnScore
	}
	k.r.Add(toolwall.Finding{Rule: rule, Category: category, Score: score, Action: act, Reason: reason})
}

// ask reports an Ask finding: "`what` needs confirmation: why. instead."
func (k *checker) ask(what, rule, category, why, instead string) {
	k.add(toolwall.Ask, rule, category, "`"+what+"` needs confirmation: "+why+". "+instead+".")
}

// askShown reports an Ask finding that quotes c as the model wrote it,
// wrappers and quoting kept ([shell.Command.Shown]).
func (k *checker) askShown(c *shell.Command, rule, category, why, instead string) {
	k.add(toolwall.Ask, rule, category, c.Shown()+" needs confirmation: "+why+". "+instead+".")
}

// deny reports a Deny finding.
func (k *checker) deny(what, rule, category, why, instead string) {
	k.add(toolwall.Deny, rule, category, refused(what, why, instead))
}

// warn reports a Warn finding; its reason says the command was let
// through.
func (k *checker) warn(what, rule, category, why, instead string) {
	k.add(toolwall.Warn, rule, category, "`"+what+"` was allowed with a warning: "+why+". "+instead+".")
}

func refused(what, why, instead string) string {
	return "`" + what + "` was refused: " + why + ". " + instead + "."
}

// quote renders a command for a reason, at most 160 bytes.
func quote(c *shell.Command) string {
	return clip(c.String())
}

// clip collapses white space and bounds s to 160 bytes.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// cwd is the directory c runs in, or the call's when the reader lost it.
func (k *checker) cwd(c *shell.Command) string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return k.in.Call.Cwd
}

// abs resolves a static word to an absolute, clean path ("" for a dynamic
// word or an empty one).
func (k *checker) abs(c *shell.Command, w shell.Word) string {
	if w.Dynamic || w.Value == "" {
		return ""
	}
	return paths.Abs(w.Value, k.cwd(c))
}

// prefixAbs resolves the certain leading part of a dynamic word when it
// is an absolute path or starts at home; "" otherwise.
func (k *checker) prefixAbs(w shell.Word) string {
	p := paths.Expand(w.Prefix, k.home)
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	return paths.Abs(p, "")
}

// operands returns the words of c's operands, in order.
func operands(c *shell.Command) []shell.Word {
	v := c.Inv
	if v == nil {
		return nil
	}
	out := make([]shell.Word, 0, len(v.Operands))
	for k := range v.Operands {
		out = append(out, v.Operand(k))
	}
	return out
}

// operand returns the value of operand i lower-cased, or "".
func operand(c *shell.Command, i int) string {
	if c.Inv == nil {
		return ""
	}
	return strings.ToLower(c.Inv.Operand(i).Value)
}

// has reports whether c's invocation has one of the named options.
func has(c *shell.Command, names ...string) bool {
	return c.Inv != nil && c.Inv.Parsed != nil && c.Inv.Has(names...)
}

// values returns the values of c's named options.
func values(c *shell.Command, names ...string) []shell.Word {
	if c.Inv == nil || c.Inv.Parsed == nil {
		return nil
	}
	return c.Inv.Values(names...)
}

// helpOnly reports an argv that only asks for help or a version.
func helpOnly(c *shell.Command) bool {
	if has(c, "help", "version") {
		return true
	}
	for _, w := range c.Args[1:] {
		switch w.Value {
		case "--help", "--version", "-?":
			return true
		}
	}
	return false
}

// baseName is the lower-cased last element of p.
func baseName(p string) string {
	return strings.ToLower(path.Base(p))
}
