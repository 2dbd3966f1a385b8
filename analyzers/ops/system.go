package ops

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).power, "shutdown", "reboot", "halt", "poweroff")
	register((*checker).initLevel, "init", "telinit")
	register((*checker).systemctl, "systemctl")
	register((*checker).service, "service", "rc-service")
	register((*checker).kill, "kill")
	register((*checker).pkill, "pkill")
	register((*checker).killall, "killall")
	register((*checker).killall5, "killall5")
	register((*checker).nft, "nft")
	register((*checker).ufw, "ufw")
	register((*checker).pfctl, "pfctl")
	register((*checker).setenforce, "setenforce")
	register((*checker).crontab, "crontab")
	register((*checker).historyBuiltin, "history")
	register((*checker).histVars, "export", "declare", "typeset", "readonly", "local", "unset", "set")
	register((*checker).histFileDelete, "rm", "shred", "unlink", "truncate", "srm", "wipe", "cp", "mv", "ln", "install")
	register((*checker).lsTags, "ls")
	register((*checker).permTags, "stat", "id", "getfacl", "namei", "lsattr")
	register((*checker).findTags, "find")
	register((*checker).sudoBare, "sudo", "doas")
	register((*checker).processTag, "skill", "sv", "supervisorctl")
	register((*checker).loginctl, "loginctl")
	register((*checker).launchctl, "launchctl")
	register((*checker).firewallCmd, "firewall-cmd")
	register((*checker).sysrqWrite, "tee", "dd")
}

// processTag tags process control for the tools that have no rule of
// their own.
func (k *checker) processTag(cmdCtx) {
	k.r.Tag(toolwall.TagProcessControl, "", "")
}

func (k *checker) systemAsk(x cmdCtx, rule, why, instead string) {
	k.ask(x, rule, catSystem, why, instead)
}

// power: shutdown (except -c, -k), reboot, halt, poweroff.
func (k *checker) power(x cmdCtx) {
	k.processTag(x)
	p := parseArgs(x.args[1:], &optSpec{short: shorts("rhHPckft:"), long: kinds("help", "reboot", "halt", "poweroff", "no-wall", "wtmp-only", "force", "no-wtmp", "no-sync")})
	if p.has("--help", "-c", "-k", "--wtmp-only", "-w") {
		return
	}
	k.systemAsk(x, "system.power", "it shuts down or restarts the machine, ending every session and job on it",
		"Ask the user to do it; restart only the service you changed (`systemctl restart <unit>`)")
}

// initLevel: init / telinit 0, 6, 1, s switch the machine off, restart it
// or drop it to single-user mode.
func (k *checker) initLevel(x cmdCtx) {
	k.processTag(x)
	if len(x.args) < 2 {
		return
	}
	switch strings.ToLower(x.args[1].Value) {
	case "0", "6", "1", "s", "single", "emergency", "rescue":
		k.systemAsk(x, "system.power", "it switches the machine's runlevel to halt, reboot or single-user mode, ending every session",
			"Ask the user to do it")
	}
}

var systemctlSpec = &optSpec{
	short: shorts("H:M:t:p:s:n:o:laqfiPr"),
	long: kinds("host=", "machine=", "type=", "property=", "signal=", "lines=", "output=", "state=",
		"kill-whom=", "root=", "job-mode=", "when=", "message=", "boot-loader-entry=", "reboot-argument=",
		"now", "user", "system", "global", "force", "no-block", "quiet", "no-wall", "no-reload",
		"no-ask-password", "runtime", "all", "full", "no-pager", "no-legend", "dry-run", "wait"),
	abbrev: true,
}

// sshUnits and firewallUnits are the units whose stop cuts remote access
// or opens the machine.
var (
	sshUnits      = []string{"ssh", "sshd", "openssh", "openssh-server", "opensshd", "dropbear"}
	firewallUnits = []string{"firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent", "pf"}
)

// systemctl: poweroff/reboot/halt/kexec/rescue/emergency, isolate to such a
// target, and stop/disable/mask/kill of sshd or the firewall.
func (k *checker) systemctl(x cmdCtx) {
	p := parseArgs(x.args[1:], systemctlSpec)
	verb := p.operand(0)
	switch {
	case verb == "" || verb == "status" || verb == "show" || verb == "cat" || verb == "help" ||
		strings.HasPrefix(verb, "list-") || strings.HasPrefix(verb, "is-"):
		return
	}
	k.processTag(x)
	var units []shell.Word
	if len(p.operands) > 1 {
		units = p.operands[1:]
	}
	switch verb {
	case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency":
		k.systemAsk(x, "system.power", "systemctl "+verb+" shuts down, restarts or isolates the machine, ending every session and job on it",
			"Ask the user to do it; restart only the service you changed (`systemctl restart <unit>`)")
	case "isolate":
		for _, u := range units {
			switch strings.TrimSuffix(u.Value, ".target") {
			case "rescue", "emergency", "poweroff", "reboot", "halt", "runlevel0", "runlevel1", "runlevel6":
				k.systemAsk(x, "system.power", "isolating "+u.Value+" stops every other service and session",
					"Ask the user to do it")
				return
			}
		}
	case "stop", "disable", "mask", "kill", "freeze":
		k.unitStop(x, units, "systemctl "+verb)
	case "start", "restart", "reload-or-restart", "try-restart":
		for _, u := range units {
			switch u.Value {
			case "poweroff.target", "reboot.target", "halt.target", "kexec.target", "rescue.target", "emergency.target":
				k.systemAsk(x, "system.power", "starting "+u.Value+" shuts down, restarts or isolates the machine",
					"Ask the user to do it")
				return
			}
		}
	}
}

// sysrqWrite: tee /proc/sysrq-trigger, dd of=/proc/sysrq-trigger; tee or
// dd onto the SELinux enforce file (but an echo of 1).
func (k *checker) sysrqWrite(x cmdCtx) {
	for _, w := range x.args[1:] {
		if w.Value == "/proc/sysrq-trigger" || w.Value == "of=/proc/sysrq-trigger" {
			k.systemAsk(x, "system.power", "writing to /proc/sysrq-trigger can reboot, power off or crash the kernel at once",
				"Ask the user to do it")
			return
		}
		v := strings.TrimPrefix(w.Value, "of=")
		if v == "/sys/fs/selinux/enforce" || v == "/selinux/enforce" {
			if text, ok := stdinText(x.cmd); ok && strings.TrimSpace(text) == "1" {
				return
			}
			k.systemAsk(x, "system.selinux-off", "writing to the SELinux enforce file switches enforcement off for the whole machine",
				"Fix the denial with a policy change (`audit2allow`), or ask the user")
			return
		}
	}
}

// loginctl: poweroff, reboot, halt, kexec.
func (k *checker) loginctl(x cmdCtx) {
	k.processTag(x)
	p := parseArgs(x.args[1:], &optSpec{short: shorts("H:M:p:s:n:o:"), long: kinds("host=", "machine=", "property=", "signal=", "lines=", "output=", "kill-whom=")})
	switch p.operand(0) {
	case "poweroff", "reboot", "halt", "kexec":
		k.systemAsk(x, "system.power", "loginctl "+p.operand(0)+" shuts down or restarts the machine, ending every session and job on it",
			"Ask the user to do it")
	}
}

// launchctl (macOS): unload, bootout, disable, stop or remove of the SSH
// daemon (com.openssh.sshd, ssh.plist).
func (k *checker) launchctl(x cmdCtx) {
	k.processTag(x)
	p := parseArgs(x.args[1:], &optSpec{short: shorts("wFS:D:")})
	switch p.operand(0) {
	case "unload", "bootout", "disable", "stop", "remove", "kill":
	default:
		return
	}
	for _, w := range p.operands[1:] {
		if b := baseName(w.Value); strings.Contains(b, "openssh") || b == "ssh.plist" || strings.Contains(b, "sshd") {
			k.systemAsk(x, "system.sshd-stop", "stopping the SSH daemon cuts off remote access to the machine",
				"Ask the user to do it")
			return
		}
	}
}

// firewallCmd: firewalld's default zone set to trusted accepts everything.
func (k *checker) firewallCmd(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("set-default-zone=", "zone=")})
	if o, ok := p.last("--set-default-zone"); ok && o.value == "trusted" {
		k.firewallOff(x, "making trusted the default zone lets every connection through the firewall")
	}
	if p.has("--panic-on") {
		k.networkCut(x, "firewalld panic mode drops every packet, SSH included")
	}
}

// unitStop checks units being stopped for sshd and the firewall.
func (k *checker) unitStop(x cmdCtx, units []shell.Word, how string) {
	for _, u := range units {
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(u.Value, ".service"), ".socket"), "@")
		switch {
		case matchUnit(name, sshUnits):
			k.systemAsk(x, "system.sshd-stop", how+" of the SSH server cuts off remote access to the machine, possibly for good",
				"Use `systemctl restart` or `reload` to apply a change, or ask the user")
			return
		case matchUnit(name, firewallUnits):
			k.systemAsk(x, "system.firewall-off", how+" of the firewall leaves every port of the machine open",
				"Change the one rule you need (`ufw allow <port>`), or ask the user")
			return
		}
	}
}

// matchUnit reports whether name, a unit pattern as systemctl reads it
// (systemctl matches globs itself, quoted or not), names one of units.
func matchUnit(name string, units []string) bool {
	for _, u := range units {
		if ok, _ := path.Match(name, u); ok || name == u {
			return true
		}
	}
	return false
}

// service: "service NAME stop" (SysV / OpenRC).
func (k *checker) service(x cmdCtx) {
	k.processTag(x)
	p := parseArgs(x.args[1:], &optSpec{})
	if len(p.operands) >= 2 && p.operands[1].Value == "stop" {
		k.unitStop(x, p.operands[:1], x.name+" stop")
	}
}

// initScript: "/etc/init.d/NAME stop".
func (k *checker) initScript(x cmdCtx) {
	k.processTag(x)
	if len(x.args) >= 2 && x.args[1].Value == "stop" {
		k.unitStop(x, []shell.Word{{Value: path.Base(x.args[0].Value)}}, x.args[0].Value+" stop")
	}
}

// kill: a pid of -1 signals every process the user may signal (kill(2)),
// which kills the session and everything else the user runs. A pid list
// only known at run time warns.
func (k *checker) kill(x cmdCtx) {
	k.processTag(x)
	args := x.args[1:]
	sig, sigSet := "TERM", false
	i := 0
loop:
	for i < len(args) {
		v := args[i].Value
		switch {
		case v == "--":
			i++
			break loop
		case v == "-l" || v == "-L" || v == "--list" || v == "--table":
			return
		case v == "-s" || v == "-n" || v == "--signal":
			if i+1 < len(args) {
				sig = args[i+1].Value
			}
			sigSet = true
			i += 2
		case strings.HasPrefix(v, "--signal="):
			sig, sigSet = strings.TrimPrefix(v, "--signal="), true
			i++
		case !sigSet && strings.HasPrefix(v, "-") && len(v) > 1:
			sig, sigSet = v[1:], true
			i++
		default:
			break loop
		}
	}
	if sig == "0" {
		return
	}
	pids := args[min(i, len(args)):]
	if killInit(pids) {
		k.systemAsk(x, "system.kill-all", "pid 1 is init (in a container, its main process): signalling it takes every process down with it",
			"Kill the processes you mean by pid or name (`pkill -f '<pattern>'`)")
		return
	}
	for _, w := range pids {
		if w.Value == "-1" && !w.Dynamic {
			k.killAll(x)
			return
		}
	}
	if x.cmd != nil && x.cmd.Stdin.Kind == shell.StdinSubstitute && x.cmd.Parent != nil {
		if text, ok := stdinText(x.cmd.Parent); ok && containsField(text, "-1") {
			k.killAll(x)
			return
		}
	}
	if anyDynamic(pids) || (x.cmd != nil && x.cmd.Stdin.Kind == shell.StdinSubstitute) {
		k.warn(x, "system.kill-dynamic", catSystem,
			"the processes it signals are only known at run time",
			"Check the pid list first (`pgrep -a <name>`)")
	}
}

func (k *checker) killAll(x cmdCtx) {
	k.systemAsk(x, "system.kill-all", "a pid of -1 signals every process the user owns, the session and the agent included",
		"Kill the processes you mean by pid or name (`pkill -f '<pattern>'`)")
}

// containsField reports whether f is a white-space separated field of s.
func containsField(s, f string) bool {
	for _, w := range strings.Fields(s) {
		if w == f {
			return true
		}
	}
	return false
}

var pkillSpec = &optSpec{
	short: shorts("efinoxvcahAHd:g:G:P:s:t:u:U:F:r:q:LO:"),
	long: kinds("signal=", "euid=", "uid=", "group=", "pgroup=", "parent=", "session=", "terminal=",
		"pidfile=", "runstates=", "ns=", "nslist=", "older=", "queue=", "full", "ignore-case",
		"newest", "oldest", "exact", "inverse", "count", "ignore-ancestors", "logpidfile", "require-handler", "echo"),
}

// pkill: all processes of a user (a -u/-U selection and no pattern), or
// the SSH server.
func (k *checker) pkill(x cmdCtx) {
	k.processTag(x)
	args := x.args[1:]
	if len(args) > 0 && isSignalWord(args[0].Value) {
		args = args[1:]
	}
	p := parseArgs(args, pkillSpec)
	user := p.has("-u", "-U", "--euid", "--uid")
	narrowed := p.has("-P", "--parent", "-g", "--pgroup", "-s", "--session", "-t", "--terminal", "-F", "--pidfile")
	if user && len(p.operands) == 0 && !narrowed {
		k.systemAsk(x, "system.kill-all", "it signals every process of the user, the session and the agent included",
			"Name the process to stop (`pkill -u <user> <name>`)")
		return
	}
	if matchesAll(p.operands) {
		k.systemAsk(x, "system.kill-all", "the pattern matches every process, the session and the agent included",
			"Name the process to stop")
		return
	}
	k.killSSHD(x, p.operands)
}

// matchesAll reports a single pgrep-style pattern that matches every
// process name: "", ".", ".*", "^", "$".
func matchesAll(patterns []shell.Word) bool {
	if len(patterns) != 1 || patterns[0].Dynamic {
		return false
	}
	switch patterns[0].Value {
	case "", ".", ".*", "^", "$", "^.*$", ".+":
		return true
	}
	return false
}

// killall: every process of a user (-u and no names), or the SSH server.
func (k *checker) killall(x cmdCtx) {
	k.processTag(x)
	args := x.args[1:]
	if len(args) > 0 && isSignalWord(args[0].Value) {
		args = args[1:]
	}
	p := parseArgs(args, &optSpec{short: shorts("Eegiqrvwy:o:s:u:Z:VIn:"), long: kinds("user=", "signal=", "older-than=", "younger-than=", "context=", "ns=", "exact", "ignore-case", "process-group", "interactive", "quiet", "regexp", "verbose", "wait")})
	if p.has("-u", "--user") && len(p.operands) == 0 || p.has("-r", "--regexp") && matchesAll(p.operands) {
		k.systemAsk(x, "system.kill-all", "it signals every process of the user, the session and the agent included",
			"Name the process to stop (`killall -u <user> <name>`)")
		return
	}
	k.killSSHD(x, p.operands)
}

func (k *checker) killSSHD(x cmdCtx, patterns []shell.Word) {
	for _, w := range patterns {
		name := path.Base(strings.Trim(w.Value, "^$"))
		if name == "sshd" || name == "ssh" {
			k.systemAsk(x, "system.sshd-stop", "killing the SSH server cuts off remote access to the machine",
				"Use `systemctl reload ssh` to apply a change, or ask the user")
			return
		}
	}
}

// isSignalWord reports "-9", "-KILL", "-SIGTERM": a leading signal of
// pkill and killall.
func isSignalWord(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	body := v[1:]
	digits, upper := true, true
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c < '0' || c > '9' {
			digits = false
		}
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			upper = false
		}
	}
	return digits || upper && len(body) > 1
}

// killall5 signals every process outside the caller's session.
func (k *checker) killall5(x cmdCtx) {
	k.processTag(x)
	k.systemAsk(x, "system.kill-all", "killall5 signals every process on the machine outside this session",
		"Kill the processes you mean by pid or name")
}

var iptablesSpec = &optSpec{
	short: shorts("A:C:D:R:I:L::S::M:F::Z::N:X::E:P:Vh::o:p:s:d:j:i:fbvw::W::nt:m:xc:g:46"),
	long: kinds("append=", "check=", "delete=", "replace=", "insert=", "list=?", "list-rules=?",
		"flush=?", "zero=?", "new-chain=", "delete-chain=?", "rename-chain=", "policy=", "table=",
		"jump=", "goto=", "protocol=", "source=", "destination=", "in-interface=", "out-interface=",
		"match=", "numeric", "verbose", "exact", "line-numbers", "wait=?", "modprobe=", "version", "help"),
	abbrev: true,
}

// iptables, ip6tables (and their -legacy / -nft builds): -F / --flush
// removes every rule of a table.
func (k *checker) iptables(x cmdCtx) {
	p := parseArgs(x.args[1:], iptablesSpec)
	if p.has("-F", "--flush") {
		k.firewallOff(x, "flushing the firewall rules leaves every port of the machine open")
		return
	}
	k.iptablesLockout(x, &p)
}

func (k *checker) firewallOff(x cmdCtx, why string) {
	k.systemAsk(x, "system.firewall-off", why,
		"Add or remove the one rule you need, or ask the user")
}

// nft: flush of any rule set, table or chain, and delete of a table or
// chain. nft also takes the whole command as one word.
func (k *checker) nft(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("f:I:D:cansjeyNSTuv")})
	if p.has("-c") {
		return
	}
	var f []string
	for _, w := range p.operands {
		f = append(f, strings.Fields(strings.ToLower(w.Value))...)
	}
	if len(f) == 0 {
		return
	}
	if f[0] == "flush" || (f[0] == "delete" && len(f) > 1 && (f[1] == "table" || f[1] == "chain")) {
		k.firewallOff(x, "nft "+f[0]+" removes firewall rules and can leave every port of the machine open")
	}
}

// ufw: disable, reset, and default allow of incoming traffic.
func (k *checker) ufw(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{long: kinds("force", "dry-run")})
	if p.has("--dry-run") {
		return
	}
	switch p.operand(0) {
	case "disable", "reset":
		k.firewallOff(x, "ufw "+p.operand(0)+" switches the firewall off")
	case "default":
		if p.operand(1) == "allow" && (p.operand(2) == "" || p.operand(2) == "incoming") {
			k.firewallOff(x, "ufw default allow lets every incoming connection through")
		}
	}
}

// pfctl: -d disables pf; -F all / -F rules flushes it.
func (k *checker) pfctl(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("a:AdD:eqf:F:ghi:k:K:mMnNOo:Pp:rRs:St:T:vx:z")})
	if p.has("-n") {
		return
	}
	flush := false
	for _, o := range p.values("-F") {
		switch strings.ToLower(o.value) {
		case "all", "rules", "a", "r":
			flush = true
		}
	}
	if p.has("-d") || flush {
		k.firewallOff(x, "pfctl -d / -F switches the packet filter off or empties it")
	}
}

// setenforce 0 puts SELinux in permissive mode.
func (k *checker) setenforce(x cmdCtx) {
	if len(x.args) > 1 && (x.args[1].Value == "0" || strings.EqualFold(x.args[1].Value, "permissive")) {
		k.systemAsk(x, "system.selinux-off", "it switches SELinux enforcement off for the whole machine",
			"Fix the denial with a policy change (`audit2allow`), or ask the user")
	}
}

// crontab: -r removes the user's crontab without a prompt; installing
// /dev/null or an empty stdin does the same.
func (k *checker) crontab(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("u:lerisnTc:x:")})
	wipe := p.has("-r")
	if !wipe && !p.has("-l", "-e", "-T") {
		switch p.operand(0) {
		case "/dev/null":
			wipe = true
		case "-":
			wipe = emptyStdin(x.cmd)
		}
	}
	if wipe {
		k.systemAsk(x, "system.crontab-remove", "it deletes every cron job of the user without a copy",
			"Save it first (`crontab -l > crontab.bak`) and edit out only the job you mean")
	}
}

// emptyStdin reports whether c certainly reads nothing but white space:
// an empty heredoc, or a pipe from true, ":" or an echo / printf of static
// blank text.
func emptyStdin(c *shell.Command) bool {
	if c == nil {
		return false
	}
	switch c.Stdin.Kind {
	case shell.StdinHeredoc:
		return !c.Stdin.Dynamic && strings.TrimSpace(c.Stdin.Text) == ""
	case shell.StdinPipe:
		from := c.Stdin.From
		if from == nil || len(from.Args) == 0 || anyDynamic(from.Args) {
			return false
		}
		switch from.Name {
		case "true", ":":
			return true
		case "echo", "printf":
			text, _ := stdinText(c)
			return strings.TrimSpace(strings.ReplaceAll(text, `\n`, "")) == ""
		}
	}
	return false
}

// historyFiles are shell and client history files.
var historyFiles = []string{".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history",
	".ash_history", ".mysql_history", ".psql_history", ".python_history", ".node_repl_history",
	".sqlite_history", "fish_history", ".lesshst", ".rediscli_history", ".dbshell"}

// isHistoryFile reports whether w names one of historyFiles or is
// $HISTFILE. w may be a
// glob such as ~/.*_history; as in the shell, a pattern that does not
// start with "." matches no dot file (and fish_history only by name).
func isHistoryFile(w shell.Word) bool {
	if w.Dynamic && strings.Contains(w.Raw, "HISTFILE") {
		return true
	}
	base := path.Base(w.Value)
	for _, h := range historyFiles {
		if base == h {
			return true
		}
		if !w.Glob || !strings.HasPrefix(h, ".") || !strings.HasPrefix(base, ".") {
			continue
		}
		if ok, _ := path.Match(base, h); ok {
			return true
		}
	}
	return false
}

func (k *checker) historyAsk(x cmdCtx) {
	k.systemAsk(x, "system.history-wipe", "it erases or switches off the shell history, the record of what was run on this machine",
		"Leave the history alone; if a secret got into it, tell the user which entry")
}

// historyBuiltin: history -c (and -w to /dev/null) clears the history.
func (k *checker) historyBuiltin(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("cd:anrwps")})
	if p.has("-c") || (p.has("-w") && p.operand(0) == "/dev/null") {
		k.historyAsk(x)
	}
}

// histVars: unset HISTFILE, export HISTFILE=/dev/null, HISTSIZE=0,
// set +o history.
func (k *checker) histVars(x cmdCtx) {
	for i, w := range x.args[1:] {
		v := w.Value
		switch {
		case x.name == "unset":
			if v == "HISTFILE" {
				k.historyAsk(x)
				return
			}
		case x.name == "set":
			if v == "+o" && i+2 < len(x.args) && x.args[i+2].Value == "history" {
				k.historyAsk(x)
				return
			}
		default:
			if histAssign(v) {
				k.historyAsk(x)
				return
			}
		}
	}
}

// histAssign reports an assignment that switches history saving off.
func histAssign(a string) bool {
	n, v, ok := strings.Cut(a, "=")
	if !ok {
		return false
	}
	switch n {
	case "HISTFILE":
		return v == "" || v == "/dev/null"
	case "HISTSIZE", "HISTFILESIZE", "SAVEHIST":
		return v == "0"
	}
	return false
}

// history checks what every command does apart from its argv: leading
// assignments and truncating redirections that wipe shell history, and a
// write to /proc/sysrq-trigger.
func (k *checker) history(c *shell.Command) {
	x := cmdCtx{cmd: c, args: c.Args, name: c.Name}
	if len(x.args) == 0 {
		x.args = words(c.Assigns)
	}
	for _, a := range c.Assigns {
		if histAssign(a) {
			k.historyAsk(x)
			return
		}
	}
	if k.selinuxWrite(c, x) {
		return
	}
	for _, r := range c.Redirects {
		if r.Writes() && r.Target.Value == "/proc/sysrq-trigger" {
			x.args = append(append([]shell.Word{}, x.args...), shell.Word{Value: r.Op + r.Target.Value})
			k.systemAsk(x, "system.power", "writing to /proc/sysrq-trigger can reboot, power off or crash the kernel at once",
				"Ask the user to do it")
			return
		}
		switch r.Op {
		case ">", ">|", "&>", "<>":
			if isHistoryFile(r.Target) {
				x.args = append(append([]shell.Word{}, x.args...), shell.Word{Value: r.Op + r.Target.Value})
				k.historyAsk(x)
				return
			}
		}
	}
}

// histFileDelete: rm, shred, truncate, unlink of a history file (a glob
// included); cp, mv, ln, install onto one (the last operand, by name).
func (k *checker) histFileDelete(x cmdCtx) {
	targets := x.args[1:]
	switch x.name {
	case "cp", "mv", "ln", "install":
		if len(targets) < 2 || targets[len(targets)-1].Glob {
			return
		}
		targets = targets[len(targets)-1:]
	}
	for _, w := range targets {
		if isHistoryFile(w) {
			k.historyAsk(x)
			return
		}
	}
}

// lsTags tags a long listing (ls -l, -la, -n, -g, -o, --format=long).
func (k *checker) lsTags(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("I:T:w:"), long: kinds("format=", "color=?", "sort=", "time=", "time-style=", "block-size=", "hide=", "ignore=", "tabsize=", "width=", "quoting-style=", "indicator-style=")})
	long := p.has("-l", "-n", "-g", "-o")
	if o, ok := p.last("--format"); ok && (o.value == "long" || o.value == "verbose") {
		long = true
	}
	if long {
		operands := p.operands
		if len(operands) == 0 {
			operands = []shell.Word{{Value: "."}}
		}
		k.permTag(x, operands)
	}
}

// permTags tags stat, id, getfacl, namei, lsattr.
func (k *checker) permTags(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("c:")})
	k.permTag(x, p.operands)
}

// findTags tags find … -perm.
func (k *checker) findTags(x cmdCtx) {
	for _, w := range x.args[1:] {
		if w.Value == "-perm" {
			k.permTag(x, x.args[1:2])
			return
		}
	}
}

// sudoBare handles sudo / doas left as the command (nothing to unwrap):
// sudo -l lists privileges.
func (k *checker) sudoBare(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("u:g:h:p:C:D:r:t:U:T:"), long: kinds("list", "user=", "group=", "host=", "prompt=", "other-user=")})
	if p.has("-l", "--list") {
		k.permTag(x, nil)
	}
}

// permTag tags permission inspection, with the first static operand made
// absolute as the path.
func (k *checker) permTag(x cmdCtx, operands []shell.Word) {
	p := ""
	if len(operands) > 0 && !operands[0].Dynamic && !strings.HasPrefix(operands[0].Value, "-") {
		p = paths.Abs(operands[0].Value, k.cwd(x))
	}
	k.r.Tag(toolwall.TagPermInspect, p, "")
}

// privWrappers are the privilege-raising programs.
var privWrappers = map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true}

// privilege reports priv.sudo for a privileged command when nothing else
// was found (seed 000 scores "sudo" 0.6, the Medium band: warn).
func (k *checker) privilege(c *shell.Command) {
	via := c.Name
	for _, w := range c.Wrappers {
		if privWrappers[w] {
			via = w
			break
		}
	}
	x := cmdCtx{cmd: c, args: c.Args, name: c.Name}
	k.warn(x, "priv.sudo", catPrivilege,
		"it runs with raised privilege ("+via+"), where a mistake reaches the whole system",
		"Run it without "+via+" if it does not need root")
}
