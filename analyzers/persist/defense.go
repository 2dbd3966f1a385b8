package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// securityService reports whether a unit, job or process name is an
// audit, logging or endpoint-security service, or the scheduler, and
// says which. Patterns are matched as systemctl and launchd name them,
// lower case; "*" matches any run of characters. The firewall and sshd
// are the ops analyzer's.
func securityService(name string) (string, bool) {
	n := strings.ToLower(path.Base(name))
	for _, suf := range [...]string{".service", ".socket", ".plist", "@"} {
		n = strings.TrimSuffix(n, suf)
	}
	match := func(list []string) bool {
		for _, s := range list {
			if ok, _ := path.Match(s, n); ok {
				return true
			}
			// systemctl, pkill and launchctl take patterns too: "audit*".
			if ok, _ := path.Match(n, strings.TrimSuffix(s, "*")); ok && strings.ContainsAny(n, "*?[") {
				return true
			}
		}
		return false
	}
	if len(n) > 128 {
		return "", false // no user text of unbounded size as a pattern
	}
	if match([]string{
		"auditd", "auditbeat", "audispd", "go-audit", "apparmor", "osqueryd", "osquery", "falcon-sensor", "falcond",
		"com.crowdstrike.*", "wazuh*", "ossec*", "sysmon*", "rsyslog", "syslog", "syslogd", "syslog-ng", "systemd-journald",
		"com.apple.syslogd", "com.apple.auditd", "mdatp", "com.microsoft.wdav*", "sentinel*", "cbagentd", "cbdaemon",
		"carbonblack*", "cylance*", "elastic-agent", "elastic-endpoint", "clamav*", "clamd", "freshclam", "fail2ban",
		"aide", "tripwire", "snort", "suricata", "zeek", "santad", "com.google.santa*", "xagt", "qualys-cloud-agent",
		"tanium*", "taniumclient", "nessusagent", "filebeat", "fluentd", "fluent-bit", "td-agent", "splunkd", "splunkforwarder",
		"amazon-cloudwatch-agent", "google-fluentd", "datadog-agent", "lkrg", "tetragon", "falco*",
		"com.carbonblack.*", "com.sentinelone.*", "at.obdev.littlesnitch*", "com.opendns.*", "com.jamf.protect*",
		"com.objective-see.*", "com.eset.*", "esets*", "com.sophos.*", "sophos*", "com.malwarebytes.*", "com.cisco.amp*",
		"com.paloaltonetworks.*", "traps_pmd", "mfetpd", "cbsensor", "com.apple.security.syspolicy*",
	}) {
		return "an audit, logging or security service; what runs afterwards goes unrecorded", true
	}
	if match([]string{"cron", "crond", "cronie", "anacron", "atd", "fcron", "com.vix.cron", "com.apple.atrun"}) {
		return "the scheduler that runs the machine's log rotation, backups and updates (ATT&CK T1489)", true
	}
	return "", false
}

// securityUnits reports stopping, disabling or killing a security
// service or the scheduler.
func (k *checker) securityUnits(c *shell.Command, units []shell.Word, how string) {
	for _, u := range units {
		if u.Dynamic {
			continue
		}
		why, ok := securityService(u.Value)
		if !ok {
			continue
		}
		k.r.Tag(toolwall.TagProcessControl, "", u.Value)
		k.ask(quote(c), RuleSecurityStop, catDefense,
			how+" switches off "+u.Value+", "+why,
			"Leave security, logging and scheduling services running; if one is in your way, tell the user why")
		return
	}
}

// initScript: /etc/init.d/NAME stop and /etc/rc.d/NAME stop.
func (k *checker) initScript(c *shell.Command) {
	if len(c.Args) < 2 || c.Args[0].Dynamic {
		return
	}
	switch c.Args[1].Value {
	case "stop", "onestop", "forcestop", "disable":
		k.securityUnits(c, c.Args[:1], path.Base(c.Args[0].Value)+" "+c.Args[1].Value)
	}
}

// killSecurity: pkill and killall naming a security daemon or the
// scheduler (pgrep, which shares their entry, only looks).
func (k *checker) killSecurity(c *shell.Command) {
	if c.Name != "pkill" && c.Name != "killall" {
		return
	}
	for _, w := range operands(c) {
		n := strings.Trim(w.Value, "^$")
		if _, ok := securityService(n); ok {
			k.securityUnits(c, []shell.Word{{Raw: w.Raw, Value: n, Prefix: n}}, c.Name)
			return
		}
	}
}

// killByLookup: kill of process ids looked up by name in the same line
// (kill $(pgrep cron), kill `pidof auditd`): the names pgrep and pidof
// look up, in the substitutions that follow the kill command, are what
// it kills.
func (k *checker) killByLookup(all []*shell.Command, i int, c *shell.Command) {
	dyn := false
	for _, w := range c.Args[1:] {
		dyn = dyn || w.Dynamic && (strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`"))
	}
	if !dyn {
		return
	}
	for _, n := range all[i+1:] {
		if n.Via != "$()" {
			break
		}
		if n.Name != "pgrep" && n.Name != "pidof" {
			continue
		}
		for _, w := range operands(n) {
			if v := strings.Trim(w.Value, "^$"); !w.Dynamic {
				if _, ok := securityService(v); ok {
					k.securityUnits(c, []shell.Word{{Raw: w.Raw, Value: v, Prefix: v}}, "kill of "+n.Name+" "+w.Raw)
					return
				}
			}
		}
	}
}

// auditctl: -D deletes every rule, -e 0 disables auditing, -d/-W remove
// a rule and --signal TERM stops the audit daemon (defense.audit-off);
// any other change of the configuration asks as defense.audit-change,
// with its own reason for a rule on execve (every program run logged
// with its arguments, the way keystroke loggers record a shell).
func (k *checker) auditctl(c *shell.Command) {
	off := has(c, "delete-all", "delete-rule", "unwatch")
	for _, e := range values(c, "enabled") {
		off = off || e.Value == "0"
	}
	for _, s := range values(c, "signal") {
		off = off || strings.EqualFold(s.Value, "term") || strings.EqualFold(s.Value, "sigterm") || strings.EqualFold(s.Value, "stop") || s.Value == "15"
	}
	if off {
		k.ask(quote(c), RuleAuditOff, catDefense, "it deletes audit rules or switches the kernel audit system off, so nothing that follows is recorded",
			"Leave auditing as it is; if a rule is in your way, tell the user which")
		return
	}
	if !has(c, "append-rule", "prepend-rule", "watch", "rules-file", "enabled", "backlog", "failure", "rate", "message",
		"move-tree", "backlog_wait_time", "loginuid-immutable", "reset-lost") {
		return
	}
	for _, s := range values(c, "syscall") {
		for _, n := range strings.Split(strings.ToLower(s.Value), ",") {
			if n == "execve" || n == "execveat" || n == "all" {
				k.askShown(c, RuleAuditChange, catDefense, "it makes the kernel log every program run on the machine with its arguments, which records passwords and tokens typed on command lines",
					"Leave the audit rules as they are; ask the user to add the rule if it is needed")
				return
			}
		}
	}
	k.askShown(c, RuleAuditChange, catDefense, "it changes the kernel audit configuration, which decides what the machine records about what runs on it",
		"Leave the audit configuration to the user; list it with `auditctl -l`")
}

// spctl --master-disable / --global-disable / --disable turn Gatekeeper
// off; --add adds an exception.
func (k *checker) spctl(c *shell.Command) {
	if has(c, "disable", "add") {
		k.ask(quote(c), RuleProtectionOff, catDefense, "it switches Gatekeeper off (or adds an exception), so unsigned programs run unchecked",
			"Leave Gatekeeper on; open the one program once through Finder, or ask the user")
	}
}

// csrutil disable (SIP), csrutil authenticated-root disable, clear.
func (k *checker) csrutil(c *shell.Command) {
	for _, w := range operands(c) {
		if strings.EqualFold(w.Value, "disable") || strings.EqualFold(w.Value, "clear") {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches System Integrity Protection off, which keeps even root from changing the system",
				"Leave SIP on; ask the user")
			return
		}
	}
}

// socketfilterfw --setglobalstate off (macOS application firewall).
func (k *checker) socketfilterfw(c *shell.Command) {
	for _, v := range values(c, "global-state") {
		if strings.EqualFold(v.Value, "off") {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches the macOS application firewall off",
				"Leave the firewall on, or ask the user")
			return
		}
	}
}

// mdatp (Microsoft Defender): config … --value disabled switches a
// protection off.
func (k *checker) mdatp(c *shell.Command) {
	if operand(c, 0) != "config" {
		return
	}
	for _, v := range values(c, "value") {
		if strings.EqualFold(v.Value, "disabled") {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches a Microsoft Defender protection off",
				"Leave endpoint protection on; if it blocks your work, tell the user what it blocked")
			return
		}
	}
}

// security (macOS): keychain dumps and password reads; adding a trusted
// root certificate is defense.protection-off.
func (k *checker) security(c *shell.Command) {
	v := c.Inv
	if len(v.SubNames) == 0 {
		return
	}
	sub := strings.ToLower(v.SubNames[0])
	switch sub {
	case "dump-keychain", "export", "import":
		k.credAsk(c, RuleKeychain, "security "+sub+" reads or writes whole keychains, which hold the user's saved passwords and keys",
			"Do not touch the keychain; ask the user for the one secret you need", "~/Library/Keychains")
	case "find-generic-password", "find-internet-password":
		if has(c, "print-password", "print-password-stderr") {
			k.credAsk(c, RuleKeychain, "security "+sub+" -w/-g prints a saved password from the keychain",
				"Ask the user for the secret, or have the program read it from the keychain itself", "~/Library/Keychains")
		}
	case "add-trusted-cert", "trust-settings-import":
		k.ask(quote(c), RuleProtectionOff, catDefense, "it makes the system trust a new certificate authority, which lets its owner intercept every TLS connection",
			"Trust a certificate only for the one tool that needs it (e.g. NODE_EXTRA_CA_CERTS), or ask the user")
	}
}

// certctl trust FILE (FreeBSD) adds a certificate authority to the trust
// store; update-ca-certificates and update-ca-trust, which share the
// entry, only rebuild it from the anchor directories (a write there is
// judged in writes.go).
func (k *checker) certctl(c *shell.Command) {
	if c.Name == "certctl" && operand(c, 0) == "trust" && len(operands(c)) > 1 {
		k.ask(quote(c), RuleProtectionOff, catDefense, "it makes the system trust a new certificate authority, which lets its owner intercept every TLS connection",
			"Trust a certificate only for the one tool that needs it, or ask the user")
	}
}

// ufw logging off stops the firewall's log (ufw disable is the ops
// analyzer's).
func (k *checker) ufwLogging(c *shell.Command) {
	if operand(c, 0) == "logging" && operand(c, 1) == "off" {
		k.ask(quote(c), RuleLogTamper, catDefense, "it switches the firewall's log off, so blocked and allowed connections go unrecorded",
			"Leave firewall logging on, or ask the user")
	}
}

// logErase: macOS "log erase" deletes the unified log.
func (k *checker) logErase(c *shell.Command) {
	if c.Inv.Sub("erase") {
		k.ask(quote(c), RuleLogTamper, catDefense, "log erase deletes the macOS unified log; what was logged is gone",
			"Leave the log alone; read it with `log show --last 1h`")
	}
}

// xattr -d com.apple.quarantine removes the flag that makes Gatekeeper
// check a downloaded program before its first run (ATT&CK T1553.001):
// ask. xattr -c clears every attribute, the quarantine flag with the
// rest; developers clear build detritus that breaks codesign with it, so
// it only warns.
func (k *checker) xattr(c *shell.Command) {
	switch {
	case has(c, "delete") && operand(c, 0) == "com.apple.quarantine":
		k.askShown(c, RuleProtectionOff, catDefense, "removing com.apple.quarantine lets a downloaded program run without the Gatekeeper check of its signature",
			"Ask the user to open the program once through Finder, or to remove the flag themselves if they trust it")
	case has(c, "clear"):
		k.warn(quote(c), RuleProtectionOff, catDefense, "clearing every extended attribute also removes com.apple.quarantine, so a downloaded program runs without a Gatekeeper check",
			"Delete only the attribute you mean (`xattr -d NAME FILE`)")
	}
}

// tmutil: disable, delete, deletelocalsnapshots, thinlocalsnapshots,
// delete-backups (Time Machine backups are the way back after damage).
func (k *checker) tmutil(c *shell.Command) {
	switch v := operand(c, 0); v {
	case "disable", "delete", "deletelocalsnapshots", "thinlocalsnapshots", "delete-backups", "disablelocal", "removedestination":
		k.ask(quote(c), RuleBackupDelete, catDefense, "tmutil "+v+" switches Time Machine off or deletes backups, the way back after damage",
			"Leave backups alone; ask the user to free space if that is the goal")
	}
}

// chattr +i/-i/+a/-a (chflags schg/noschg/uchg/nouchg, their
// simmutable/uimmutable and append spellings) on a system, persistence
// or startup file; and the flag set (chattr +i/+a/=i, chflags without
// "no") on any file outside the project: only root can clear it, and a
// BSD or macOS system flag (schg, sappnd) not even root until a reboot
// into single-user mode (chflags(1)), so the file resists change and
// removal.
func (k *checker) chattr(c *shell.Command) {
	var targets []shell.Word
	flip, set := false, false
	if rootName(c) == "chattr" {
		// chattr's attribute changes are options to the catalog (+i,
		// -ia, named attr); "=ia" is an operand.
		for _, o := range c.Inv.Opts {
			if o.Name == "attr" {
				a := strings.TrimLeft(o.Spelling, "+-")
				if strings.ContainsAny(a, "ia") {
					flip = true
					set = set || strings.HasPrefix(o.Spelling, "+")
				}
			}
		}
		for _, w := range operands(c) {
			if v := w.Value; len(v) > 1 && v[0] == '=' {
				if strings.ContainsAny(v[1:], "ia") {
					flip, set = true, true
				}
				continue
			}
			targets = append(targets, w)
		}
	} else {
		ops := operands(c)
		if len(ops) < 2 {
			return
		}
		for _, f := range strings.Split(strings.ToLower(ops[0].Value), ",") {
			bare := strings.TrimPrefix(f, "no")
			switch bare {
			case "schg", "schange", "simmutable", "uchg", "uchange", "uimmutable", "sappnd", "sappend", "uappnd", "uappend":
				flip = true
				set = set || bare == f
			}
		}
		targets = ops[1:]
	}
	if !flip {
		return
	}
	for _, t := range targets {
		p := k.abs(c, t)
		if p == "" {
			p = k.prefixAbs(t)
		}
		if p == "" {
			continue
		}
		if j := judgePath(p, k.home, k.proj); j.level > levelNone || isLog(p) {
			k.ask(quote(c), RuleImmutable, catDefense, "it changes the immutable or append-only flag of "+p+"; that locks a planted file in place or unlocks a protected one for editing",
				"Leave file attributes of system and startup files alone, or ask the user")
			return
		}
		if set && !c.Remote && !paths.Under(p, k.proj) {
			k.ask(quote(c), RuleImmutable, catDefense, "it makes "+p+", outside the project, immutable or append-only; only root can undo that (a BSD or macOS system flag not even root until a reboot), and the file then resists change and removal",
				"Lock only files of the project, or ask the user")
			return
		}
	}
}

// stomps reports touch options that set times by hand.
func stomps(c *shell.Command) bool { return has(c, "reference", "date", "t") }

// timestomp: touch -r/-t/-d/--date/--reference on a system, persistence
// or startup file backdates it (ATT&CK T1070.006).
func (k *checker) timestomp(c *shell.Command) {
	if !stomps(c) {
		return
	}
	for _, t := range c.Inv.OperandsOf(programs.Create) {
		p := k.abs(c, t)
		if p == "" {
			continue
		}
		if j := judgePath(p, k.home, k.proj); j.level > levelNone || isLog(p) {
			k.warn(quote(c), RuleTimestomp, catDefense, "it sets the timestamps of "+p+" by hand, which hides when a system or startup file was changed",
				"Leave timestamps of system files alone")
			return
		}
	}
}

// journalctl --vacuum-time/--vacuum-size/--vacuum-files (with or without
// --rotate) deletes journal files.
func (k *checker) journalctl(c *shell.Command) {
	if has(c, "vacuum") {
		k.ask(quote(c), RuleLogTamper, catDefense, "it deletes archived system journal files; what was logged is gone",
			"Leave the journal alone; read it with `journalctl -u <unit> --since …`, or ask the user to free space")
	}
}

// logDelete: rm, shred, unlink, srm, wipe of a system log (its deletes
// and in-place overwrites).
func (k *checker) logDelete(c *shell.Command) {
	for _, e := range c.Effects {
		if e.Remote || e.Kind != shell.Deletes && e.Kind != shell.Modifies {
			continue
		}
		p := e.Path
		if p == "" {
			p = k.prefixAbs(e.Word)
		}
		if p != "" && isLog(p) {
			k.logAsk(c, p)
			return
		}
	}
}

func (k *checker) logAsk(c *shell.Command, p string) {
	k.ask(quote(c), RuleLogTamper, catDefense, "it deletes or overwrites "+p+", a system log, audit record or mailbox; erasing them hides what was done on the machine",
		"Leave logs alone; read them with `tail`/`journalctl`, or ask the user to rotate them")
}

// find: log deletion and key searches.
func (k *checker) find(c *shell.Command) {
	k.findLogs(c)
	k.keySearch(c)
}

// findLogs: find under a log directory with -delete, or -exec/-execdir/
// -ok of rm, shred, truncate or another program that destroys or
// overwrites what it is handed.
func (k *checker) findLogs(c *shell.Command) {
	destroys := has(c, "delete")
	for _, t := range k.findTails(c) {
		switch rootName(t) {
		case "rm", "shred", "truncate", "unlink", "srm", "cp", "dd":
			destroys = true
		}
	}
	if !destroys {
		return
	}
	for _, p := range findRoots(c) {
		if isLog(p) {
			k.logAsk(c, p)
			return
		}
	}
}

// findRoots are find's starting points, absolute.
func findRoots(c *shell.Command) []string {
	var out []string
	for _, e := range c.Effects {
		if e.From == "operand" && e.Path != "" && (e.Kind == shell.Reads || e.Kind == shell.Deletes) {
			out = append(out, e.Path)
		}
	}
	return out
}

// findTails are the commands find's -exec, -execdir, -ok and -okdir run
// (emitted after it, Via "find -exec").
func (k *checker) findTails(c *shell.Command) []*shell.Command {
	var out []*shell.Command
	for _, t := range k.in.Script.Commands {
		if t.Parent == c && t.Via == "find -exec" {
			out = append(out, t)
		}
	}
	return out
}

// hookVar reports shell variables whose value the shell runs or expands
// at every prompt or command.
func hookVar(n string) bool {
	switch n {
	case "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4", "precmd_functions", "preexec_functions":
		return true
	}
	return false
}

// hookActions are what a prompt hook does when it logs or sends what the
// user types: read the history or the current command, append to a file,
// send it over the network (lower case).
var hookActions = [...]string{"history", "bash_command", ">>", "tee", "logger", "curl", "wget", "/dev/tcp", "/dev/udp", "nc ", "ncat", "socat"}

// assigns: PROMPT_COMMAND=… and PS0–PS4 holding a command substitution,
// when the hook logs or sends what is typed (a prompt that only shows the
// host name or a git branch passes).
func (k *checker) assigns(c *shell.Command, as []string) {
	for _, a := range as {
		n, v, ok := strings.Cut(a, "=")
		n = strings.TrimSuffix(n, "+")
		if !ok || !hookVar(n) {
			continue
		}
		if n != "PROMPT_COMMAND" && !strings.Contains(v, "$(") && !strings.Contains(v, "`") {
			continue
		}
		l := strings.ToLower(v)
		logs := false
		for _, h := range hookActions {
			logs = logs || strings.Contains(l, h)
		}
		if !logs {
			continue
		}
		what := quote(c)
		if what == "" {
			what = clip(a)
		}
		k.ask(what, RuleShellHook, catDefense, "setting "+n+" makes the shell record or send what is typed at every prompt, the way keystroke loggers hook a shell",
			"Do not hook the shell; run the command you need directly")
		return
	}
}

// declare: export/declare/typeset/readonly/local NAME=VALUE of a hook
// variable.
func (k *checker) declare(c *shell.Command) {
	var as []string
	for _, w := range operands(c) {
		if strings.Contains(w.Raw, "=") {
			// Raw keeps "$(…)" and backticks that Value resolves away.
			n, _, _ := strings.Cut(w.Value, "=")
			_, rv, _ := strings.Cut(w.Raw, "=")
			as = append(as, n+"="+rv)
		}
	}
	k.assigns(c, as)
}

// trap 'CMD' DEBUG (and RETURN): runs CMD before every command.
func (k *checker) trap(c *shell.Command) {
	ops := operands(c)
	if len(ops) < 2 || ops[0].Value == "" || ops[0].Value == "-" {
		return
	}
	for _, s := range ops[1:] {
		switch strings.ToUpper(s.Value) {
		case "DEBUG", "RETURN":
			k.ask(quote(c), RuleShellHook, catDefense, "a DEBUG trap runs its command before every command the shell runs, the way keystroke loggers hook a shell",
				"Do not hook the shell; run the command you need directly")
			return
		}
	}
}

// historyBuiltin: history -w/-a FILE writes the session history to
// another file.
func (k *checker) historyBuiltin(c *shell.Command) {
	ops := operands(c)
	if !has(c, "w", "a") || len(ops) == 0 {
		return
	}
	f := ops[0]
	if f.Value == "/dev/null" || isHistoryName(f.Value) {
		return
	}
	k.historyAsk(c, "it writes the shell history, which often holds passwords and tokens typed on the command line, to "+f.Raw)
}
