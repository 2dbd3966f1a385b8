package ops

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// systemFamily runs the system-control rules and the risk tags of
// process control and permission inspection.
func (k *checker) systemFamily(x cmdCtx) {
	switch x.name {
	case "shutdown":
		k.power(x)
	case "init":
		k.initLevel(x)
	case "systemctl":
		k.systemctl(x)
	case "service":
		k.service(x)
	case "kill":
		k.kill(x)
	case "pkill":
		k.pkill(x)
	case "killall5":
		k.processTag()
		k.systemAsk(x, "system.kill-all", "killall5 signals every process on the machine outside this session",
			"Kill the processes you mean by pid or name")
	case "supervisorctl":
		k.processTag()
	case "loginctl":
		k.loginctl(x)
	case "launchctl":
		k.launchctl(x)
	case "iptables", "iptables-restore", "iptables-apply", "iptables-save":
		k.iptables(x)
	case "nft":
		k.nft(x)
	case "ufw":
		k.ufw(x)
	case "pfctl":
		k.pfctl(x)
	case "firewall-cmd":
		k.firewallCmd(x)
	case "netsh":
		k.netsh(x)
	case "setenforce":
		k.setenforce(x)
	case "crontab":
		k.crontab(x)
	case "history":
		k.historyBuiltin(x)
	case "ip":
		k.ipRoute(x)
	case "ifconfig":
		k.ifDown(x)
	case "nmcli":
		k.nmcli(x)
	case "export", "declare", "typeset", "readonly", "local", "unset", "set":
		k.histVars(x)
	}
	k.permTags(x)
}

// processTag tags process control.
func (k *checker) processTag() {
	k.r.Tag(toolwall.TagProcessControl, "", "")
}

func (k *checker) systemAsk(x cmdCtx, rule, why, instead string) {
	k.ask(x, rule, catSystem, why, instead)
}

// power: shutdown (except -c, -k, --help, -w), reboot, halt, poweroff.
func (k *checker) power(x cmdCtx) {
	k.processTag()
	if x.has("help", "c", "k", "wtmp-only") {
		return
	}
	k.systemAsk(x, "system.power", "it shuts down or restarts the machine, ending every session and job on it",
		"Ask the user to do it; restart only the service you changed (`systemctl restart <unit>`)")
}

// initLevel: init / telinit 0, 6, 1, s switch the machine off, restart it
// or drop it to single-user mode.
func (k *checker) initLevel(x cmdCtx) {
	k.processTag()
	switch strings.ToLower(x.operand(0)) {
	case "0", "6", "1", "s", "single", "emergency", "rescue":
		k.systemAsk(x, "system.power", "it switches the machine's runlevel to halt, reboot or single-user mode, ending every session",
			"Ask the user to do it")
	}
}

// sshUnits and firewallUnits are the units whose stop cuts remote
// access or opens the machine.
var (
	sshUnits      = [...]string{"ssh", "sshd", "openssh", "openssh-server", "opensshd", "dropbear"}
	firewallUnits = [...]string{"firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent", "pf"}
)

// systemctl: poweroff/reboot/halt/kexec/rescue/emergency, isolate to such a
// target, start of such a target, and stop/disable/mask/kill/freeze of
// sshd or the firewall.
func (k *checker) systemctl(x cmdCtx) {
	verb := x.sub(0)
	switch {
	case verb == "" || verb == "status" || verb == "show" || verb == "cat" || verb == "help" ||
		strings.HasPrefix(verb, "list-") || strings.HasPrefix(verb, "is-"):
		return
	}
	k.processTag()
	units := x.operands()
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

// unitStop checks units being stopped for sshd and the firewall. A unit
// may be a pattern: systemctl matches globs itself, quoted or not.
func (k *checker) unitStop(x cmdCtx, units []shell.Word, how string) {
	for _, u := range units {
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(u.Value, ".service"), ".socket"), "@")
		switch {
		case matchUnit(name, sshUnits[:]):
			k.systemAsk(x, "system.sshd-stop", how+" of the SSH server cuts off remote access to the machine, possibly for good",
				"Use `systemctl restart` or `reload` to apply a change, or ask the user")
			return
		case matchUnit(name, firewallUnits[:]):
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
	k.processTag()
	if x.cmd.Name != "sv" && x.operand(1) == "stop" {
		k.unitStop(x, x.operands()[:1], x.cmd.Name+" stop")
	}
}

// initScript: "/etc/init.d/NAME stop".
func (k *checker) initScript(x cmdCtx) {
	k.processTag()
	if len(x.args) >= 2 && x.args[1].Value == "stop" {
		k.unitStop(x, []shell.Word{{Value: path.Base(x.args[0].Value)}}, x.args[0].Value+" stop")
	}
}

// kill: a pid of -1 signals every process the user may signal (kill(2)),
// which kills the session and everything else the user runs; pid 1 is
// init. The catalog reads kill's words one by one: the first -SIGNAL word
// (an option it does not list) is the signal, a later -N a process group.
// A pid list only known at run time warns.
func (k *checker) kill(x cmdCtx) {
	k.processTag()
	sig, sigSet := "TERM", false
	var pids []shell.Word
	for _, o := range x.inv.Opts {
		switch {
		case o.Name == "list" || o.Name == "L" || o.Name == "table":
			return
		case o.Name == "s" || o.Name == "n":
			sig, sigSet = x.inv.Value(o).Value, true
		case o.Known || o.Dynamic:
		case !sigSet:
			sig, sigSet = o.Name, true
		case strings.Trim(o.Name, "0123456789") == "":
			pids = append(pids, shell.Word{Raw: "-" + o.Name, Value: "-" + o.Name, Prefix: "-" + o.Name})
		}
	}
	if sig == "0" {
		return
	}
	pids = append(pids, x.operands()...)
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
	if x.cmd.Stdin.Kind == shell.StdinSubstitute && x.cmd.Parent != nil {
		if text, ok := stdinText(x.cmd.Parent); ok && containsField(text, "-1") {
			k.killAll(x)
			return
		}
	}
	if anyDynamic(pids) || x.cmd.Stdin.Kind == shell.StdinSubstitute {
		k.warn(x, "system.kill-dynamic", catSystem,
			"the processes it signals are only known at run time",
			"Check the pid list first (`pgrep -a <name>`)")
	}
}

// killInit: signalling pid 1 (init, or a container's entry process)
// takes the whole machine or container down.
func killInit(pids []shell.Word) bool {
	for _, w := range pids {
		if w.Value == "1" && !w.Dynamic {
			return true
		}
	}
	return false
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

// pkill and killall: every process of a user (a -u selection and no
// pattern), a pattern that matches every process, or the SSH server.
// pgrep only lists.
func (k *checker) pkill(x cmdCtx) {
	switch x.cmd.Name {
	case "pgrep":
		return
	case "skill", "snice":
		k.processTag()
		return
	}
	k.processTag()
	patterns := x.operands()
	user := x.has("euid", "uid", "user")
	if x.cmd.Name == "killall" {
		if user && len(patterns) == 0 || x.has("regexp") && matchesAll(patterns) {
			k.systemAsk(x, "system.kill-all", "it signals every process of the user, the session and the agent included",
				"Name the process to stop (`killall -u <user> <name>`)")
			return
		}
		k.killSSHD(x, patterns)
		return
	}
	narrowed := x.has("parent", "pgroup", "session", "terminal", "pidfile")
	if user && len(patterns) == 0 && !narrowed {
		k.systemAsk(x, "system.kill-all", "it signals every process of the user, the session and the agent included",
			"Name the process to stop (`pkill -u <user> <name>`)")
		return
	}
	if matchesAll(patterns) {
		k.systemAsk(x, "system.kill-all", "the pattern matches every process, the session and the agent included",
			"Name the process to stop")
		return
	}
	k.killSSHD(x, patterns)
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

// loginctl: poweroff, reboot, halt, kexec.
func (k *checker) loginctl(x cmdCtx) {
	k.processTag()
	switch verb := x.operand(0); verb {
	case "poweroff", "reboot", "halt", "kexec":
		k.systemAsk(x, "system.power", "loginctl "+verb+" shuts down or restarts the machine, ending every session and job on it",
			"Ask the user to do it")
	}
}

// launchctl (macOS): unload, bootout, disable, stop, remove or kill of the
// SSH daemon (com.openssh.sshd, ssh.plist).
func (k *checker) launchctl(x cmdCtx) {
	k.processTag()
	switch x.sub(0) {
	case "unload", "bootout", "disable", "stop", "remove", "kill":
	default:
		return
	}
	for _, w := range x.operands() {
		if b := baseName(w.Value); strings.Contains(b, "openssh") || b == "ssh.plist" || strings.Contains(b, "sshd") {
			k.systemAsk(x, "system.sshd-stop", "stopping the SSH daemon cuts off remote access to the machine",
				"Ask the user to do it")
			return
		}
	}
}

// setenforce 0 puts SELinux in permissive mode.
func (k *checker) setenforce(x cmdCtx) {
	if v := x.operand(0); v == "0" || strings.EqualFold(v, "permissive") {
		k.systemAsk(x, "system.selinux-off", "it switches SELinux enforcement off for the whole machine",
			"Fix the denial with a policy change (`audit2allow`), or ask the user")
	}
}

// crontab: -r removes the user's crontab without a prompt; installing
// /dev/null or an empty stdin does the same.
func (k *checker) crontab(x cmdCtx) {
	wipe := x.has("remove")
	if !wipe && !x.has("list", "edit", "test") {
		switch x.operand(0) {
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

// ipRoute: ip link set IF down; ip route del/flush of the default route
// or the whole table. ip takes unique prefixes of its objects and verbs.
func (k *checker) ipRoute(x cmdCtx) {
	var ops []string
	for _, w := range x.operands() {
		ops = append(ops, w.Value)
	}
	if len(ops) < 2 {
		return
	}
	obj, verb := ops[0], ops[1]
	rest := strings.Join(ops[2:], " ")
	switch {
	case strings.HasPrefix("link", obj) && strings.HasPrefix("set", verb) && containsField(rest, "down") && !containsField(rest, "lo"):
		k.networkCut(x, "taking a network interface down can cut the machine off, the agent's own session included")
	case strings.HasPrefix("route", obj) && (strings.HasPrefix("delete", verb) || verb == "flush") &&
		(containsField(rest, "default") || verb == "flush" && len(ops) == 2 || containsField(rest, "all") || containsField(rest, "main")):
		k.networkCut(x, "removing the default route or flushing the routing table cuts the machine off the network")
	}
}

// ifDown: ifconfig IF down, ifdown IF (loopback excepted).
func (k *checker) ifDown(x cmdCtx) {
	ops := x.operands()
	if x.cmd.Name == "ifup" || len(ops) == 0 && !x.has("a") || len(ops) > 0 && (ops[0].Value == "lo" || ops[0].Value == "lo0") {
		return
	}
	if x.cmd.Name == "ifdown" || len(ops) > 1 && ops[len(ops)-1].Value == "down" {
		k.networkCut(x, "taking a network interface down can cut the machine off, the agent's own session included")
	}
}

// nmcli networking off / radio all off / device disconnect (nmcli takes
// prefixes of its words).
func (k *checker) nmcli(x cmdCtx) {
	var ops []string
	for _, w := range x.operands() {
		ops = append(ops, strings.ToLower(w.Value))
	}
	j := strings.Join(ops, " ")
	if strings.HasPrefix(j, "n") && strings.HasSuffix(j, " off") && len(ops) == 2 ||
		strings.HasPrefix(j, "r") && strings.Contains(j, " all off") ||
		strings.HasPrefix(j, "d") && len(ops) > 1 && strings.HasPrefix("disconnect", ops[1]) {
		k.networkCut(x, "it switches networking off, cutting the machine off the network")
	}
}

// historyFile reports shell and client history files.
func historyFile(base string) bool {
	switch base {
	case ".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history", ".ash_history", ".mysql_history",
		".psql_history", ".python_history", ".node_repl_history", ".sqlite_history", "fish_history", ".lesshst",
		".rediscli_history", ".dbshell":
		return true
	}
	return false
}

// historyNames are the dot-file history names a glob may match.
var historyNames = [...]string{".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history",
	".ash_history", ".mysql_history", ".psql_history", ".python_history", ".node_repl_history",
	".sqlite_history", ".lesshst", ".rediscli_history", ".dbshell"}

// isHistoryFile reports whether w names a history file or is $HISTFILE.
// w may be a glob such as ~/.*_history; as in the shell, a pattern that
// does not start with "." matches no dot file (and fish_history only by
// name).
func isHistoryFile(w shell.Word) bool {
	if w.Dynamic && strings.Contains(w.Raw, "HISTFILE") {
		return true
	}
	base := path.Base(w.Value)
	if historyFile(base) {
		return true
	}
	if !w.Glob || !strings.HasPrefix(base, ".") {
		return false
	}
	for _, h := range historyNames {
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
	if x.has("c") || x.has("w") && x.operand(0) == "/dev/null" {
		k.historyAsk(x)
	}
}

// histVars: unset HISTFILE, export HISTFILE=/dev/null, HISTSIZE=0,
// HISTCONTROL=ignorespace, HISTIGNORE='*', set +o history. These builtins are not in the catalog: their words are
// operands as written.
func (k *checker) histVars(x cmdCtx) {
	ops := x.operands()
	for i, w := range ops {
		v := w.Value
		switch x.name {
		case "unset":
			if v == "HISTFILE" {
				k.historyAsk(x)
				return
			}
		case "set":
			if v == "+o" && i+1 < len(ops) && ops[i+1].Value == "history" {
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

// histAssign reports an assignment that switches history saving off or
// keeps commands out of it: HISTFILE empty or /dev/null, a size of 0,
// HISTCONTROL with ignorespace or ignoreboth (a command starting with a
// blank is not recorded), any HISTIGNORE pattern (commands matching it
// are not recorded; bash(1), HISTCONTROL and HISTIGNORE).
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
	case "HISTCONTROL":
		for _, o := range strings.Split(v, ":") {
			if o == "ignorespace" || o == "ignoreboth" {
				return true
			}
		}
	case "HISTIGNORE":
		return v != ""
	}
	return false
}

// writes judges what a command does to files whatever its program:
// leading assignments that switch history off, and its effects — a
// history file deleted, overwritten, emptied or replaced by a link, a
// write to /proc/sysrq-trigger, and 0 written to the SELinux enforce
// file.
func (k *checker) writes(c *shell.Command) {
	x := cmdCtx{cmd: c, inv: c.Inv, args: c.Args, name: c.Name}
	if len(x.args) == 0 {
		x.args = words(c.Assigns)
	}
	for _, a := range c.Assigns {
		if histAssign(a) {
			k.historyAsk(x)
			return
		}
	}
	for _, e := range c.Effects {
		switch e.Kind {
		case shell.Writes, shell.Appends, shell.Modifies, shell.Deletes, shell.Links:
		default:
			continue
		}
		y := x
		if e.Role == programs.Unknown {
			// a redirection: show it with the command
			w := e.Word
			y.args = append(append([]shell.Word{}, x.args...), shell.Word{Raw: e.From + w.Raw, Value: e.From + w.Value, Dynamic: w.Dynamic})
		}
		switch p := e.Path; {
		case p == "/proc/sysrq-trigger" && e.Kind != shell.Deletes:
			k.systemAsk(y, "system.power", "writing to /proc/sysrq-trigger can reboot, power off or crash the kernel at once",
				"Ask the user to do it")
			return
		case (p == "/sys/fs/selinux/enforce" || p == "/selinux/enforce") && e.Kind != shell.Deletes:
			if written(c, e) == "1" {
				continue
			}
			k.systemAsk(y, "system.selinux-off", "writing to the SELinux enforce file switches enforcement off for the whole machine",
				"Fix the denial with a policy change (`audit2allow`), or ask the user")
			return
		case e.Kind != shell.Appends && isHistoryFile(e.Word):
			k.historyAsk(y)
			return
		}
	}
}

// written returns the static text effect e writes, trimmed, or "" when
// it is not known: what echo or printf prints into a redirection, what
// tee or dd copies from a static stdin.
func written(c *shell.Command, e shell.Effect) string {
	if e.Role == programs.Unknown && (c.Name == "echo" || c.Name == "printf") {
		return strings.TrimSpace(printed(c))
	}
	if c.Name == "tee" || c.Name == "dd" {
		if text, ok := stdinText(c); ok {
			return strings.TrimSpace(text)
		}
	}
	return ""
}

// permTags tags permission inspection: a long listing (ls -l, -n, -g, -o,
// --format=long), stat, id, getfacl, namei, lsattr, find -perm, sudo -l.
func (k *checker) permTags(x cmdCtx) {
	switch x.cmd.Name {
	case "ls":
		long := x.has("l", "n", "g", "o")
		for _, f := range x.values("format") {
			long = long || f.Value == "long" || f.Value == "verbose"
		}
		if long {
			ops := x.operands()
			if len(ops) == 0 {
				ops = []shell.Word{{Value: "."}}
			}
			k.permTag(x, ops)
		}
	case "stat", "id", "getfacl", "namei", "lsattr":
		k.permTag(x, x.operands())
	case "find":
		if x.has("perm") {
			k.permTag(x, x.operands())
		}
	case "sudo", "doas":
		if x.has("list") {
			k.permTag(x, nil)
		}
	}
}

// permTag tags permission inspection, with the first static operand made
// absolute as the path.
func (k *checker) permTag(x cmdCtx, operands []shell.Word) {
	p := ""
	if len(operands) > 0 && !operands[0].Dynamic && !strings.HasPrefix(operands[0].Value, "-") {
		if cwd := k.cwd(x); cwd != "" || path.IsAbs(operands[0].Value) {
			p = paths.Abs(operands[0].Value, cwd)
		}
	}
	k.r.Tag(toolwall.TagPermInspect, p, "")
}

// privWrapper reports the privilege-raising programs.
func privWrapper(name string) bool {
	switch name {
	case "sudo", "doas", "su", "pkexec", "run0":
		return true
	}
	return false
}

// privVia names what raised c's privilege: the first privilege wrapper
// around it (sudo, doas, …), else the nearest enclosing command that is
// one (su -c runs its command through a shell), else c's own name.
func privVia(c *shell.Command) string {
	for p := c; p != nil; p = p.Parent {
		for _, w := range p.Wrappers {
			if privWrapper(w) {
				return w
			}
		}
		if p != c && privWrapper(p.Name) {
			return p.Name
		}
	}
	return c.Name
}

// privilege reports priv.sudo for a privileged command when nothing else
// was found (the tool shield scores "sudo" 0.6, the Medium band: warn).
func (k *checker) privilege(c *shell.Command) {
	via := privVia(c)
	x := cmdCtx{cmd: c, inv: c.Inv, args: c.Args, name: c.Name}
	k.warn(x, "priv.sudo", catPrivilege,
		"it runs with raised privilege ("+via+"), where a mistake reaches the whole system",
		"Run it without "+via+" if it does not need root")
}

// tempProgram reports priv.temp-program: a command run with raised
// privilege (sudo, doas, pkexec, run0, su -c: the catalog's privileged
// wrappers) whose program, script or standard-input script lies in a
// temporary directory every user may write ([places.Temp]: /tmp,
// /var/tmp, /dev/shm and their macOS forms; a word starting with
// $TMPDIR). Whoever put or replaced the file there runs code with that
// privilege. A path the dry run took from mktemp ([shell.MktempPath]) is
// a fresh directory or file only this user can write, and passes; so
// does a path in the project when the project itself lives in a
// temporary directory (/tmp/work/bin/tool: the user's own tree).
func (k *checker) tempProgram(c *shell.Command) {
	what := tempRun(c)
	if what == "" {
		return
	}
	if proj := k.in.Call.Project; proj != "" && places.Temp(path.Dir(proj)) && paths.Under(what, proj) {
		return
	}
	via := privVia(c)
	x := cmdCtx{cmd: c, inv: c.Inv, args: c.Args, name: c.Name}
	k.askShown(x, "priv.temp-program", catPrivilege,
		"it runs "+what+" with "+via+" from a temporary directory any user can write, so whoever put or swapped that file there gets the privilege",
		"Move the program into the project or a root-owned directory first, or ask the user")
}

// tempRun returns the program or script c runs from a temporary
// directory (its path, or the word as written when it starts with
// $TMPDIR), or "".
func tempRun(c *shell.Command) string {
	if len(c.Args) == 0 {
		return ""
	}
	if w := c.Args[0]; w.Dynamic && tmpdirWord(w.Raw) {
		return w.Raw
	} else if !w.Dynamic && strings.Contains(w.Value, "/") && (c.Cwd != "" || path.IsAbs(w.Value)) {
		if p := paths.Abs(w.Value, c.Cwd); tempPath(p) {
			return p
		}
	}
	for _, e := range c.Effects {
		if e.Kind != shell.Runs {
			continue
		}
		if tempPath(e.Path) {
			return e.Path
		}
		if e.Word.Dynamic && tmpdirWord(e.Word.Raw) {
			return e.Word.Raw
		}
	}
	if !c.Inv.RunsStdin() {
		return ""
	}
	switch c.Stdin.Kind {
	case shell.StdinFile:
		if tempPath(c.Stdin.Path) {
			return c.Stdin.Path
		}
	case shell.StdinPipe:
		// cat /tmp/x.sh | sudo sh
		feeds := c.Stdin.Feeds
		if len(feeds) == 0 && c.Stdin.From != nil {
			feeds = []*shell.Command{c.Stdin.From}
		}
		for _, f := range feeds {
			if p := f.Inv.Program(); p == nil || p.Root().Name != "cat" {
				continue
			}
			for _, e := range f.Effects {
				if e.Kind == shell.Reads && tempPath(e.Path) {
					return e.Path
				}
			}
		}
	}
	return ""
}

// tempPath reports a path in a shared temporary directory that mktemp
// did not just make.
func tempPath(p string) bool {
	return p != "" && places.Temp(p) && p != shell.MktempPath && !strings.HasPrefix(p, shell.MktempPath+"/")
}

// tmpdirWord reports a word whose text starts with the temporary
// directory's variable: $TMPDIR/…, ${TMPDIR}/…, ${TMPDIR:-/tmp}/….
func tmpdirWord(raw string) bool {
	raw = strings.ReplaceAll(raw, `"`, "")
	for _, p := range [...]string{"$TMPDIR/", "${TMPDIR}/", "${TMPDIR:-", "${TMPDIR-", "${TMPDIR:=", "${TMPDIR:?"} {
		if strings.HasPrefix(raw, p) {
			return true
		}
	}
	return false
}
