package persist

import (
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

func (k *checker) schedule(c *shell.Command, why string) {
	k.ask(quote(c), RuleSchedule, catPersist, why,
		"Do not install jobs, timers or services that run later or at boot; run the command now in the foreground, or tell the user what to schedule")
}

// crontab: installing a table from a file or stdin ("crontab FILE",
// "crontab -", "… | crontab") and editing one (-e, whose editor can be any
// program). -l lists; -r and /dev/null are the ops analyzer's
// system.crontab-remove.
func (k *checker) crontab(c *shell.Command) {
	if has(c, "list", "remove", "test", "V") || helpOnly(c) || operand(c, 0) == "/dev/null" {
		return
	}
	if len(operands(c)) == 0 && !has(c, "edit") && c.Stdin.Kind == shell.StdinInherit {
		return
	}
	if has(c, "edit") && !editorSet(c) {
		k.warn(quote(c), RuleSchedule, catPersist, "crontab -e opens the crontab in an editor",
			"Show the user the line to add instead")
		return
	}
	k.schedule(c, "it installs a crontab: its lines run on a schedule, long after this session")
}

// editorSet reports an EDITOR or VISUAL assignment on the command: the
// "editor" crontab -e runs is then any program.
func editorSet(c *shell.Command) bool {
	for _, a := range c.Assigns {
		if strings.HasPrefix(a, "EDITOR=") || strings.HasPrefix(a, "VISUAL=") {
			return true
		}
	}
	return false
}

// at, batch: queueing a job (-l, -q listing, -r/-d removing, -c printing
// pass).
func (k *checker) at(c *shell.Command) {
	if has(c, "list", "remove", "delete", "cat", "V") || helpOnly(c) {
		return
	}
	k.schedule(c, c.Name+" queues a command to run later, after this session has ended")
}

// systemdRun: systemd-run with a timer or trigger and no command of its
// own left to unwrap.
func (k *checker) systemdRun(c *shell.Command) {
	if has(c, "timer") {
		k.schedule(c, "systemd-run with a timer or trigger makes systemd run the command later, after this session has ended")
	}
}

// wrapped judges the wrappers the reader took off c: systemd-run with a
// timer or trigger option (--on-calendar, --on-active, …) asks;
// otherwise the command runs as a transient service outside this
// session, which warns.
func (k *checker) wrapped(c *shell.Command) {
	for _, w := range c.Wrapped {
		if w.Program() == nil || w.Program().Root().Name != "systemd-run" {
			continue
		}
		what := clip("systemd-run … " + quote(c))
		if w.Has("timer") {
			k.ask(what, RuleSchedule, catPersist, "systemd-run with a timer or trigger makes systemd run the command later, after this session has ended",
				"Run the command now in the foreground, or tell the user what to schedule")
			return
		}
		k.warn(what, RuleSchedule, catPersist, "systemd-run hands the command to systemd, which runs it as a service outside this session",
			"Run the command directly unless the user asked for a transient unit")
		return
	}
}

// systemctl: enable, reenable, link, add-wants, add-requires, edit of a
// unit (system or --user); stop/disable/mask of a security service is
// defense.security-stop.
func (k *checker) systemctl(c *shell.Command) {
	v := c.Inv
	if v.Program() == nil || v.Program().Parent == nil || len(v.SubNames) == 0 {
		return
	}
	verb := strings.ToLower(v.SubNames[0])
	units := operands(c)
	switch verb {
	case "edit":
		k.warn(quote(c), RuleSchedule, catPersist, "systemctl edit changes a unit through an editor: a drop-in can replace what the service runs",
			"Show the user the drop-in you would write instead")
	case "enable", "reenable", "link", "add-wants", "add-requires":
		if len(units) == 0 || helpOnly(c) || has(c, "dry-run") {
			return
		}
		k.schedule(c, "systemctl "+verb+" makes "+words(units)+" start at every boot or login, after this session has ended")
	case "stop", "disable", "mask", "kill", "freeze":
		k.securityUnits(c, units, "systemctl "+verb)
	}
}

// words joins the raw text of ws for a reason.
func words(ws []shell.Word) string {
	var s []string
	for _, w := range ws {
		s = append(s, w.Raw)
	}
	return clip(strings.Join(s, " "))
}

// launchctl (macOS): load, bootstrap, submit, enable install a job;
// unload, bootout, disable, remove, stop, kill of a security agent is
// defense.security-stop.
func (k *checker) launchctl(c *shell.Command) {
	v := c.Inv
	if len(v.SubNames) == 0 {
		return
	}
	verb := strings.ToLower(v.SubNames[0])
	switch verb {
	case "load", "bootstrap", "submit", "enable":
		k.schedule(c, "launchctl "+verb+" installs a launchd job that macOS runs at login or boot")
	case "unload", "bootout", "disable", "remove", "stop", "kill":
		k.securityUnits(c, operands(c), "launchctl "+verb)
	}
}

// defaults (macOS): a write to com.apple.loginwindow (LoginHook,
// LogoutHook, AutoLaunchedApplicationDictionary) runs a program at every
// login.
func (k *checker) defaults(c *shell.Command) {
	if operand(c, 0) != "write" || len(operands(c)) < 2 {
		return
	}
	domain := operand(c, 1)
	switch {
	case strings.Contains(domain, "com.apple.loginwindow"), strings.Contains(domain, "loginitems"):
		k.schedule(c, "it changes the login window settings, where a LoginHook or login item runs a program at every login")
	case strings.Contains(domain, "com.apple.alf") || strings.Contains(domain, "com.apple.security.firewall"):
		k.ask(quote(c), RuleProtectionOff, catDefense, "it changes the macOS application firewall settings",
			"Leave the firewall alone, or ask the user")
	}
}

// osascript: AppleScript that makes a login item, shows a fake password
// dialog, or runs shell commands (do shell script, judged as the shell
// text it holds) or deletes logs through the Finder.
func (k *checker) osascript(c *shell.Command) {
	for _, e := range c.Inv.ValuesOf(programs.Code) {
		l := strings.ToLower(e.Value)
		if strings.Contains(l, "login item") {
			k.schedule(c, "the AppleScript adds a login item: macOS starts it at every login")
		}
		if strings.Contains(l, "display dialog") && strings.Contains(l, "hidden answer") {
			k.credAsk(c, RulePrompt, "the AppleScript shows a dialog that asks for a hidden answer: a fake password prompt",
				"Do not ask the user for passwords through dialogs; tell them what you need in the conversation", "")
		}
		k.applescript(c, e.Value)
	}
}

// update-rc.d NAME defaults|enable…: SysV boot links; disabling or
// removing a security service is defense.security-stop.
func (k *checker) updateRCd(c *shell.Command) {
	switch operand(c, 1) {
	case "defaults", "defaults-disabled", "enable", "start":
		k.schedule(c, "update-rc.d "+operand(c, 1)+" makes "+operand(c, 0)+" start at every boot")
	case "disable", "remove", "stop":
		k.securityUnits(c, operands(c)[:1], "update-rc.d "+operand(c, 1))
	}
}

// chkconfig NAME on, chkconfig --add NAME; off / --del of a security
// service.
func (k *checker) chkconfig(c *shell.Command) {
	ops := operands(c)
	switch {
	case has(c, "add") || operand(c, 1) == "on":
		k.schedule(c, "chkconfig makes "+operand(c, 0)+" start at every boot")
	case has(c, "del") || operand(c, 1) == "off":
		k.securityUnits(c, ops[:min(1, len(ops))], "chkconfig off")
	}
}

// rc-update add NAME (OpenRC); del of a security service.
func (k *checker) rcUpdate(c *shell.Command) {
	ops := operands(c)
	switch operand(c, 0) {
	case "add":
		k.schedule(c, "rc-update add makes "+operand(c, 1)+" start at every boot")
	case "del", "delete":
		k.securityUnits(c, ops[min(1, len(ops)):min(2, len(ops))], "rc-update del")
	}
}

// insserv NAME enables an LSB boot script; -r of a security service
// stops it starting.
func (k *checker) insserv(c *shell.Command) {
	ops := operands(c)
	if len(ops) == 0 || has(c, "dry-run") || helpOnly(c) {
		return
	}
	if has(c, "remove") {
		k.securityUnits(c, ops, "insserv -r")
		return
	}
	k.schedule(c, "insserv makes "+words(ops)+" start at every boot")
}

// sysrc NAME_enable=YES (FreeBSD).
func (k *checker) sysrc(c *shell.Command) {
	for _, w := range operands(c) {
		n, v, ok := strings.Cut(w.Value, "=")
		if !ok || !strings.HasSuffix(n, "_enable") {
			continue
		}
		svc := strings.TrimSuffix(n, "_enable")
		if strings.EqualFold(strings.Trim(v, `"`), "yes") {
			k.schedule(c, "sysrc makes "+svc+" start at every boot")
		} else {
			k.securityUnits(c, []shell.Word{{Raw: svc, Value: svc, Prefix: svc}}, "sysrc "+n+"=NO")
		}
	}
}

// service NAME stop|disable (SysV, OpenRC) of a security service;
// service NAME enable (FreeBSD) installs it at boot.
func (k *checker) service(c *shell.Command) {
	ops := operands(c)
	switch operand(c, 1) {
	case "stop", "disable", "onestop", "forcestop":
		k.securityUnits(c, ops[:1], c.Name+" "+operand(c, 1))
	case "enable":
		k.schedule(c, c.Name+" enable makes "+operand(c, 0)+" start at every boot")
	}
}

// loginctl enable-linger keeps a user's services running without a login.
func (k *checker) loginctl(c *shell.Command) {
	if operand(c, 0) == "enable-linger" {
		k.schedule(c, "loginctl enable-linger keeps the user's services running after every session ends and starts them at boot")
	}
}
