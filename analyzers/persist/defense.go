package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).auditctl, "auditctl")
	register((*checker).spctl, "spctl")
	register((*checker).csrutil, "csrutil")
	register((*checker).tmutil, "tmutil")
	register((*checker).chattr, "chattr", "chflags")
	register((*checker).timestomp, "touch")
	register((*checker).journalctl, "journalctl")
	register((*checker).logDelete, "rm", "shred", "unlink", "srm", "wipe")
	register((*checker).find, "find")
	register((*checker).trap, "trap")
	register((*checker).declare, "export", "declare", "typeset", "readonly", "local")
	register((*checker).killSecurity, "pkill", "killall")
	register((*checker).socketfilterfw, "socketfilterfw")
	register((*checker).historyBuiltin, "history")
	register((*checker).mokutil, "mokutil")
	register((*checker).mdatp, "mdatp")
	register((*checker).ufwLogging, "ufw")
	register((*checker).logErase, "log")
	register((*checker).xattr, "xattr")
}

// securityServices are audit, logging and endpoint-security services
// (patterns as systemctl and launchd name them, lower case; "*" matches
// any run of characters). The firewall and sshd are the ops analyzer's.
var securityServices = []string{
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
}

// securityService reports whether a unit, job or process name is one of
// securityServices.
func securityService(name string) bool {
	n := strings.ToLower(path.Base(name))
	for _, suf := range []string{".service", ".socket", ".plist", "@"} {
		n = strings.TrimSuffix(n, suf)
	}
	for _, s := range securityServices {
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

// securityUnits reports stopping, disabling or killing a security
// service.
func (k *checker) securityUnits(c *shell.Command, units []shell.Word, how string) {
	for _, u := range units {
		if u.Dynamic || !securityService(u.Value) {
			continue
		}
		k.r.Tag(toolwall.TagProcessControl, "", u.Value)
		k.ask(quote(c), RuleSecurityStop, catDefense,
			how+" switches off "+u.Value+", an audit, logging or security service; what runs afterwards goes unrecorded",
			"Leave security and logging services running; if one is in your way, tell the user why")
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

// killSecurity: pkill/killall naming a security daemon.
func (k *checker) killSecurity(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.Value, "-") {
			continue
		}
		if securityService(strings.Trim(w.Value, "^$")) {
			k.securityUnits(c, []shell.Word{{Raw: w.Raw, Value: strings.Trim(w.Value, "^$")}}, c.Name)
			return
		}
	}
}

// auditctl: -D deletes every rule, -e 0 disables auditing; -d/-W remove
// a rule.
func (k *checker) auditctl(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "abcdefFhkmpSrRwWv"})
	off := a.has("-D")
	for _, e := range a.values("-e") {
		off = off || e.Value == "0"
	}
	if !off && len(a.values("-d", "-W")) == 0 {
		return
	}
	k.ask(quote(c), RuleAuditOff, catDefense, "it deletes audit rules or switches the kernel audit system off, so nothing that follows is recorded",
		"Leave auditing as it is; if a rule is in your way, tell the user which")
}

// spctl --master-disable / --global-disable / --disable turn Gatekeeper
// off; --add adds an exception.
func (k *checker) spctl(c *shell.Command) {
	for _, w := range c.Args[1:] {
		switch strings.ToLower(w.Value) {
		case "--master-disable", "--global-disable", "--disable", "--add":
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches Gatekeeper off (or adds an exception), so unsigned programs run unchecked",
				"Leave Gatekeeper on; open the one program once through Finder, or ask the user")
			return
		}
	}
}

// csrutil disable (SIP), csrutil authenticated-root disable.
func (k *checker) csrutil(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if strings.EqualFold(w.Value, "disable") || strings.EqualFold(w.Value, "clear") {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches System Integrity Protection off, which keeps even root from changing the system",
				"Leave SIP on; ask the user")
			return
		}
	}
}

// socketfilterfw --setglobalstate off (macOS application firewall).
func (k *checker) socketfilterfw(c *shell.Command) {
	for i, w := range c.Args[1:] {
		if strings.HasPrefix(w.Value, "--setglobalstate") && (strings.HasSuffix(w.Value, "=off") || i+2 < len(c.Args) && strings.EqualFold(c.Args[i+2].Value, "off")) {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches the macOS application firewall off",
				"Leave the firewall on, or ask the user")
			return
		}
	}
}

// mokutil --disable-validation turns Secure Boot checking off; --import
// enrolls a key the boot loader then trusts.
func (k *checker) mokutil(c *shell.Command) {
	for _, w := range c.Args[1:] {
		switch w.Value {
		case "--disable-validation", "--import", "--reset":
			k.ask(quote(c), RuleKernel, catPersist, "mokutil "+w.Value+" changes which kernels and modules Secure Boot trusts",
				"Ask the user to do it")
			return
		}
	}
}

// mdatp (Microsoft Defender): config … --value disabled switches a
// protection off.
func (k *checker) mdatp(c *shell.Command) {
	a := parse(c.Args[1:], spec{long: []string{"value="}})
	if a.lower(0) != "config" {
		return
	}
	for _, v := range a.values("--value") {
		if strings.EqualFold(v.Value, "disabled") {
			k.ask(quote(c), RuleProtectionOff, catDefense, "it switches a Microsoft Defender protection off",
				"Leave endpoint protection on; if it blocks your work, tell the user what it blocked")
			return
		}
	}
}

// ufw logging off stops the firewall's log (ufw disable is the ops
// analyzer's).
func (k *checker) ufwLogging(c *shell.Command) {
	a := parse(c.Args[1:], spec{})
	if a.lower(0) == "logging" && a.lower(1) == "off" {
		k.ask(quote(c), RuleLogTamper, catDefense, "it switches the firewall's log off, so blocked and allowed connections go unrecorded",
			"Leave firewall logging on, or ask the user")
	}
}

// logErase: macOS "log erase" deletes the unified log.
func (k *checker) logErase(c *shell.Command) {
	a := parse(c.Args[1:], spec{})
	if a.lower(0) == "erase" {
		k.ask(quote(c), RuleLogTamper, catDefense, "log erase deletes the macOS unified log; what was logged is gone",
			"Leave the log alone; read it with `log show --last 1h`")
	}
}

// xattr -d/-c com.apple.quarantine removes the flag that makes
// Gatekeeper check a downloaded program (warn: developers do it for apps
// they trust).
func (k *checker) xattr(c *shell.Command) {
	del := false
	for _, w := range c.Args[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "dc") {
			del = true
		}
		if del && v == "com.apple.quarantine" {
			k.warn(quote(c), RuleProtectionOff, catDefense, "removing com.apple.quarantine lets the program run without a Gatekeeper check",
				"Only do this for a program the user downloaded and trusts")
			return
		}
	}
}

// tmutil: disable, delete, deletelocalsnapshots, thinlocalsnapshots,
// delete-backups (Time Machine backups are the way back after damage).
func (k *checker) tmutil(c *shell.Command) {
	a := parse(c.Args[1:], spec{})
	switch v := a.lower(0); v {
	case "disable", "delete", "deletelocalsnapshots", "thinlocalsnapshots", "delete-backups", "disablelocal", "removedestination":
		k.ask(quote(c), RuleBackupDelete, catDefense, "tmutil "+v+" switches Time Machine off or deletes backups, the way back after damage",
			"Leave backups alone; ask the user to free space if that is the goal")
	}
}

// chattr +i/-i/+a/-a (chflags schg/noschg/uchg/nouchg) on a system,
// persistence or startup file.
func (k *checker) chattr(c *shell.Command) {
	flip := false
	var targets []shell.Word
	for _, w := range c.Args[1:] {
		v := w.Value
		switch {
		case c.Name == "chattr" && len(v) > 1 && (v[0] == '+' || v[0] == '-' || v[0] == '=') && strings.ContainsAny(v[1:], "ia"):
			flip = true
		case c.Name == "chflags" && (strings.Contains(v, "schg") || strings.Contains(v, "uchg") || strings.Contains(v, "sappnd") || strings.Contains(v, "uappnd")):
			flip = true
		case strings.HasPrefix(v, "-"):
		default:
			targets = append(targets, w)
		}
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
		if j := k.judge(p); j.Rule != "" || isLog(p) {
			k.ask(quote(c), RuleImmutable, catDefense, "it changes the immutable or append-only flag of "+p+"; that locks a planted file in place or unlocks a protected one for editing",
				"Leave file attributes of system and startup files alone, or ask the user")
			return
		}
	}
}

// timestomp: touch -r/-t/-d/--date/--reference on a system, persistence
// or startup file backdates it (ATT&CK T1070.006).
func (k *checker) timestomp(c *shell.Command) {
	a := parse(c.Args[1:], touchSpec)
	if !stomps(a) {
		return
	}
	for _, t := range a.operands {
		p := k.abs(c, t)
		if p == "" {
			continue
		}
		if j := k.judge(p); j.Rule != "" || isLog(p) {
			k.warn(quote(c), RuleTimestomp, catDefense, "it sets the timestamps of "+p+" by hand, which hides when a system or startup file was changed",
				"Leave timestamps of system files alone")
			return
		}
	}
}

// stomps reports touch options that set times by hand.
func stomps(a argv) bool { return a.has("-r", "-t", "-d", "--reference", "--date") }

// journalctl --vacuum-time/--vacuum-size/--vacuum-files (with or without
// --rotate) deletes journal files.
func (k *checker) journalctl(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.Value, "--vacuum-") {
			k.ask(quote(c), RuleLogTamper, catDefense, "it deletes archived system journal files; what was logged is gone",
				"Leave the journal alone; read it with `journalctl -u <unit> --since …`, or ask the user to free space")
			return
		}
	}
}

// logDelete: rm, shred, unlink, srm, wipe of a system log.
func (k *checker) logDelete(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.Value, "-") && !w.Dynamic {
			continue
		}
		p := k.abs(c, w)
		if p == "" {
			p = k.prefixAbs(w)
		}
		if p != "" && isLog(p) {
			k.logAsk(c, p)
			return
		}
	}
}

func (k *checker) logAsk(c *shell.Command, p string) {
	k.ask(quote(c), RuleLogTamper, catDefense, "it deletes or overwrites "+p+", a system log or audit record; erasing logs hides what was done on the machine",
		"Leave logs alone; read them with `tail`/`journalctl`, or ask the user to rotate them")
}

// findLogs: find under a log directory with -delete, or -exec/-execdir/
// -ok of rm, shred, truncate or a redirect-free emptying program.
func (k *checker) findLogs(c *shell.Command) {
	var roots []string
	destroys := false
	for i, w := range c.Args[1:] {
		v := w.Value
		switch {
		case v == "-delete":
			destroys = true
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			if i+2 < len(c.Args) {
				switch path.Base(c.Args[i+2].Value) {
				case "rm", "shred", "truncate", "unlink", "srm", "wipe", "cp", "dd":
					destroys = true
				}
			}
		case !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "(") && !strings.HasPrefix(v, "!") && len(roots) == i:
			if p := k.abs(c, w); p != "" {
				roots = append(roots, p)
			}
		}
	}
	if !destroys {
		return
	}
	for _, p := range roots {
		if isLog(p) {
			k.logAsk(c, p)
			return
		}
	}
}

// hookVars are shell variables whose value the shell runs or expands at
// every prompt or command.
var hookVars = map[string]bool{"PROMPT_COMMAND": true, "PS0": true, "PS1": true, "PS2": true, "PS4": true, "precmd_functions": true, "preexec_functions": true}

// hookActions are what a prompt hook does when it logs or sends what the
// user types: read the history or the current command, append to a file,
// send it over the network (lower case).
var hookActions = []string{"history", "bash_command", ">>", "tee", "logger", "curl", "wget", "/dev/tcp", "/dev/udp", "nc ", "ncat", "socat"}

// assigns: PROMPT_COMMAND=… and PS0–PS4 holding a command substitution,
// when the hook logs or sends what is typed (a prompt that only shows the
// host name or a git branch passes).
func (k *checker) assigns(c *shell.Command, as []string) {
	for _, a := range as {
		n, v, ok := strings.Cut(a, "=")
		n = strings.TrimSuffix(n, "+")
		if !ok || !hookVars[n] {
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
	for _, w := range c.Args[1:] {
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
	a := parse(c.Args[1:], spec{})
	if len(a.operands) < 2 || a.operand(0) == "" || a.operand(0) == "-" {
		return
	}
	for _, s := range a.operands[1:] {
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
	a := parse(c.Args[1:], spec{vals: "d"})
	if !a.has("-w", "-a") || len(a.operands) == 0 {
		return
	}
	f := a.operands[0]
	if f.Value == "/dev/null" || isHistoryName(f.Value) {
		return
	}
	k.historyAsk(c, "it writes the shell history, which often holds passwords and tokens typed on the command line, to "+f.Raw)
}
