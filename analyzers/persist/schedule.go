package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/shell"
	"mvdan.cc/sh/v3/syntax"
)

func init() {
	register((*checker).crontab, "crontab")
	register((*checker).at, "at", "batch")
	register((*checker).systemdRun, "systemd-run")
	register((*checker).systemctl, "systemctl")
	register((*checker).launchctl, "launchctl")
	register((*checker).defaults, "defaults")
	register((*checker).updateRCd, "update-rc.d")
	register((*checker).chkconfig, "chkconfig")
	register((*checker).rcUpdate, "rc-update")
	register((*checker).sysrc, "sysrc")
	register((*checker).service, "service", "rc-service")
	register((*checker).loginctl, "loginctl")
}

func (k *checker) schedule(c *shell.Command, why string) {
	k.ask(quote(c), RuleSchedule, catPersist, why,
		"Do not install jobs, timers or services that run later or at boot; run the command now in the foreground, or tell the user what to schedule")
}

// crontab: installing a table from a file or stdin ("crontab FILE",
// "crontab -", "… | crontab") and editing one (-e, whose editor can be any
// program). -l lists; -r and /dev/null are the ops analyzer's
// system.crontab-remove.
func (k *checker) crontab(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "uscx"})
	if a.has("-l", "-r", "-T", "-V") || helpOnly(c) || a.operand(0) == "/dev/null" {
		return
	}
	if len(a.operands) == 0 && !a.has("-e") && c.Stdin.Kind == shell.StdinInherit {
		return
	}
	if a.has("-e") && !editorSet(c) {
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
	a := parse(c.Args[1:], spec{vals: "qft"})
	if a.has("-l", "-r", "-d", "-c", "-V") || helpOnly(c) {
		return
	}
	k.schedule(c, c.Name+" queues a command to run later, after this session has ended")
}

var systemdRunTimers = []string{"--on-calendar", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
	"--on-unit-inactive", "--on-clock-change", "--on-timezone-change", "--timer-property", "--path-property", "--socket-property"}

// systemd-run: a transient timer, path or socket unit runs the command
// later.
func (k *checker) systemdRun(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "pMHEt", posix: true, long: []string{"on-calendar=", "on-active=", "on-boot=", "on-startup=",
		"on-unit-active=", "on-unit-inactive=", "on-clock-change", "on-timezone-change", "timer-property=", "path-property=",
		"socket-property=", "unit=", "property=", "description=", "slice=", "uid=", "gid=", "nice=", "working-directory=",
		"setenv=", "machine=", "host=", "service-type=", "user", "system", "scope", "remain-after-exit", "send-sighup", "pty",
		"pipe", "quiet", "wait", "collect", "same-dir", "shell", "no-block", "no-ask-password"}})
	if a.has(systemdRunTimers...) {
		k.schedule(c, "systemd-run with a timer or trigger makes systemd run the command later, after this session has ended")
	}
}

// systemdWrapped: a command the reader unwrapped from systemd-run. The
// reader keeps no wrapper options, so the script is read again with the
// shell parser to find systemd-run's own: a timer or trigger option
// (--on-calendar, --on-active, …) asks; otherwise the command runs as a
// transient service outside this session, which warns.
func (k *checker) systemdWrapped(c *shell.Command) {
	what := clip("systemd-run … " + quote(c))
	if systemdTimer(k.in.Script.Source) {
		k.ask(what, RuleSchedule, catPersist, "systemd-run with a timer or trigger makes systemd run the command later, after this session has ended",
			"Run the command now in the foreground, or tell the user what to schedule")
		return
	}
	k.warn(what, RuleSchedule, catPersist, "systemd-run hands the command to systemd, which runs it as a service outside this session",
		"Run the command directly unless the user asked for a transient unit")
}

// systemdTimer reports whether a systemd-run command of src (any simple
// command, wrappers included) carries a timer or trigger option.
func systemdTimer(src string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if found || !ok {
			return !found
		}
		seen := false
		for _, w := range ce.Args {
			lit := w.Lit()
			if path.Base(lit) == "systemd-run" {
				seen = true
				continue
			}
			if !seen {
				continue
			}
			name, _, _ := strings.Cut(lit, "=")
			for _, t := range systemdRunTimers {
				if name != "" && len(name) > 4 && strings.HasPrefix(t, name) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// systemctl: enable, reenable, link, add-wants, add-requires, edit of a
// unit (system or --user); stop/disable/mask of a security service is
// defense.security-stop.
func (k *checker) systemctl(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "HMtpsnoP", long: []string{"host=", "machine=", "type=", "property=", "signal=", "lines=",
		"output=", "state=", "kill-whom=", "root=", "job-mode=", "when=", "message=", "user", "system", "global", "now", "force",
		"runtime", "no-reload", "quiet", "no-block", "no-pager", "full", "all", "dry-run"}})
	verb := a.lower(0)
	units := a.operands[min(1, len(a.operands)):]
	switch verb {
	case "edit":
		k.warn(quote(c), RuleSchedule, catPersist, "systemctl edit changes a unit through an editor: a drop-in can replace what the service runs",
			"Show the user the drop-in you would write instead")
	case "enable", "reenable", "link", "add-wants", "add-requires":
		if len(units) == 0 || helpOnly(c) || a.has("--dry-run") {
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
	a := parse(c.Args[1:], spec{vals: "SD"})
	verb := a.lower(0)
	rest := a.operands[min(1, len(a.operands)):]
	switch verb {
	case "load", "bootstrap", "submit", "enable":
		k.schedule(c, "launchctl "+verb+" installs a launchd job that macOS runs at login or boot")
	case "unload", "bootout", "disable", "remove", "stop", "kill":
		k.securityUnits(c, rest, "launchctl "+verb)
	}
}

// defaults (macOS): a write to com.apple.loginwindow (LoginHook,
// LogoutHook, AutoLaunchedApplicationDictionary) runs a program at every
// login.
func (k *checker) defaults(c *shell.Command) {
	a := parse(c.Args[1:], spec{posix: true, vals: ""})
	if a.lower(0) != "write" || len(a.operands) < 2 {
		return
	}
	domain := strings.ToLower(a.operand(1))
	switch {
	case strings.Contains(domain, "com.apple.loginwindow"), strings.Contains(domain, "loginitems"):
		k.schedule(c, "it changes the login window settings, where a LoginHook or login item runs a program at every login")
	case strings.Contains(domain, "com.apple.alf") || strings.Contains(domain, "com.apple.security.firewall"):
		k.ask(quote(c), RuleProtectionOff, catDefense, "it changes the macOS application firewall settings",
			"Leave the firewall alone, or ask the user")
	}
}

// osascript: AppleScript that makes a login item.
func (k *checker) osascript(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "els"})
	for _, e := range a.values("-e") {
		if strings.Contains(strings.ToLower(e.Value), "login item") {
			k.schedule(c, "the AppleScript adds a login item: macOS starts it at every login")
			return
		}
	}
}

// update-rc.d NAME defaults|enable…: SysV boot links; disabling or
// removing a security service is defense.security-stop.
func (k *checker) updateRCd(c *shell.Command) {
	a := parse(c.Args[1:], spec{})
	switch a.lower(1) {
	case "defaults", "defaults-disabled", "enable", "start":
		k.schedule(c, "update-rc.d "+a.operand(1)+" makes "+a.operand(0)+" start at every boot")
	case "disable", "remove", "stop":
		k.securityUnits(c, a.operands[:1], "update-rc.d "+a.operand(1))
	}
}

// chkconfig NAME on, chkconfig --add NAME; off / --del of a security
// service.
func (k *checker) chkconfig(c *shell.Command) {
	a := parse(c.Args[1:], spec{long: []string{"level=", "add", "del", "list", "override"}})
	switch {
	case a.has("--add") || a.lower(1) == "on":
		k.schedule(c, "chkconfig makes "+a.operand(0)+" start at every boot")
	case a.has("--del") || a.lower(1) == "off":
		k.securityUnits(c, a.operands[:min(1, len(a.operands))], "chkconfig off")
	}
}

// rc-update add NAME (OpenRC); del of a security service.
func (k *checker) rcUpdate(c *shell.Command) {
	a := parse(c.Args[1:], spec{})
	switch a.lower(0) {
	case "add":
		k.schedule(c, "rc-update add makes "+a.operand(1)+" start at every boot")
	case "del", "delete":
		k.securityUnits(c, a.operands[min(1, len(a.operands)):min(2, len(a.operands))], "rc-update del")
	}
}

// sysrc NAME_enable=YES (FreeBSD).
func (k *checker) sysrc(c *shell.Command) {
	for _, w := range c.Args[1:] {
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
	a := parse(c.Args[1:], spec{})
	switch a.lower(1) {
	case "stop", "disable", "onestop", "forcestop":
		k.securityUnits(c, a.operands[:1], c.Name+" "+a.operand(1))
	case "enable":
		k.schedule(c, c.Name+" enable makes "+a.operand(0)+" start at every boot")
	}
}

// loginctl enable-linger keeps a user's services running without a login.
func (k *checker) loginctl(c *shell.Command) {
	a := parse(c.Args[1:], spec{vals: "HMpsno"})
	if a.lower(0) == "enable-linger" {
		k.schedule(c, "loginctl enable-linger keeps the user's services running after every session ends and starts them at boot")
	}
}
