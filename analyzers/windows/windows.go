package windows

import (
	"context"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// Analyzer is the windows analyzer.
var Analyzer = &analysis.Analyzer{
	Name:  "windows",
	Rules: rules,
	Doc: "windows reports Windows commands that switch off Defender, stop security services, clear event logs, " +
		"delete shadow copies, format volumes, wipe disks, add accounts, tasks, services or Run keys, dump LSASS, " +
		"or run scripts fetched by mshta or regsvr32",
	Tools: []string{toolwall.ToolBash},
	Run: func(_ context.Context, in *analysis.Input, r *analysis.Report) {
		if in == nil || in.Script == nil {
			return
		}
		pwsh := in.Call.Tool == toolwall.ToolPowerShell
		for _, c := range in.Script.Commands {
			if !c.Remote && (pwsh || !posixName(c.Name) || windowsSpelled(c)) {
				judge(c, r)
			}
		}
	},
}

// posixName reports a command name that is a different program on a
// POSIX system than on Windows (format, net, sc, reg, cipher): in a Bash
// call it is judged as Windows's only when written with .exe.
// windowsSpelled reports a command written with its Windows file name
// (format.exe): the reader names it format, and only the spelling says it
// is Windows's.
func windowsSpelled(c *shell.Command) bool {
	return len(c.Args) > 0 && !c.Args[0].Dynamic && strings.HasSuffix(strings.ToLower(c.Args[0].Value), ".exe")
}

func posixName(name string) bool {
	switch strings.ToLower(name) {
	case "format", "net", "sc", "reg", "cipher":
		return true
	}
	return false
}

const (
	denyScore = 0.95
	askScore  = 0.6
)

// cmd is one command's name and arguments, lower-cased.
type cmd struct {
	c    *shell.Command
	name string
	args []string
}

func (x cmd) has(words ...string) bool {
	for _, a := range x.args {
		for _, w := range words {
			if a == w {
				return true
			}
		}
	}
	return false
}

// value returns the value after parameter -name (or /name), or
// -name:value.
func (x cmd) value(names ...string) (string, bool) {
	for i, a := range x.args {
		for _, n := range names {
			for _, p := range []string{"-" + n, "/" + n} {
				if a == p && i+1 < len(x.args) {
					return x.args[i+1], true
				}
				if v, ok := strings.CutPrefix(a, p+":"); ok {
					return v, true
				}
			}
		}
	}
	return "", false
}

func (x cmd) text() string { return x.c.Shown() }

func add(r *analysis.Report, act toolwall.Action, rule, category, reason string) {
	score := askScore
	if act == toolwall.Deny {
		score = denyScore
	}
	r.Add(toolwall.Finding{Rule: rule, Category: category, Score: score, Action: act, Reason: reason})
}

// judge reports what command c does.
func judge(c *shell.Command, r *analysis.Report) {
	if c.Name == "" {
		return
	}
	x := cmd{c: c, name: strings.TrimSuffix(c.Name, ".exe"), args: make([]string, 0, len(c.Args)-1)}
	for _, a := range c.Args[1:] {
		x.args = append(x.args, strings.ToLower(a.Value))
	}
	// The command as shown in a reason is made only for a finding: most
	// commands have none, and Shown is a good part of this analyzer's
	// time.
	ask := func(rule, category, why, instead string) {
		add(r, toolwall.Ask, rule, category, x.text()+" needs confirmation: "+why+". "+instead+".")
	}
	deny := func(rule, category, why, instead string) {
		add(r, toolwall.Deny, rule, category, x.text()+" was refused: "+why+". "+instead+".")
	}
	switch x.name {
	case "set-mppreference", "add-mppreference":
		for i, a := range x.args {
			if !strings.HasPrefix(a, "-disable") && !strings.HasPrefix(a, "-exclusion") {
				continue
			}
			v := "true"
			if _, after, ok := strings.Cut(a, ":"); ok {
				v = after
			} else if i+1 < len(x.args) && !strings.HasPrefix(x.args[i+1], "-") {
				v = x.args[i+1]
			}
			if strings.HasPrefix(a, "-exclusion") || v == "true" || v == "1" || v == "$true" {
				ask("defense.protection-off", "defense", "it switches Microsoft Defender off or tells it to look away (T1562.001)", "Leave Defender on; if a scan gets in the way, ask the user")
				return
			}
		}
	case "uninstall-windowsfeature", "remove-windowsfeature", "disable-windowsoptionalfeature":
		if strings.Contains(strings.Join(x.args, " "), "defender") {
			ask("defense.protection-off", "defense", "it removes Microsoft Defender (T1562.001)", "Leave Defender installed")
		}
	case "stop-service", "set-service", "remove-service", "sc", "net":
		if x.name == "net" && !x.has("stop") && !x.has("user", "localgroup") {
			return
		}
		if x.name == "net" && x.has("user", "localgroup") {
			if x.has("/add") {
				ask("persist.account", "persistence", "it adds a local account or group member (T1136)", "Ask the user to manage accounts")
			}
			return
		}
		if x.name == "sc" && x.has("create") {
			ask("persist.schedule", "persistence", "it creates a service that runs at every boot (T1543.003)", "Ask the user to install services")
			return
		}
		stops := x.name == "stop-service" || x.name == "remove-service" || x.has("stop", "delete") ||
			x.name == "set-service" && (x.has("disabled", "stopped")) || x.name == "sc" && x.has("config") && x.has("disabled", "start=disabled")
		if stops && securityService(x.args) {
			ask("defense.security-stop", "defense", "it stops or disables a security or logging service (T1562.001)", "Leave security services running")
		}
	case "new-service":
		ask("persist.schedule", "persistence", "it creates a service that runs at every boot (T1543.003)", "Ask the user to install services")
	case "clear-eventlog", "remove-eventlog", "limit-eventlog", "clear-winevent":
		ask("defense.log-tamper", "defense", "it clears or shrinks the Windows event logs (T1070.001)", "Leave the logs; export what you need instead")
	case "wevtutil":
		if x.has("cl", "clear-log", "sl", "set-log") {
			ask("defense.log-tamper", "defense", "it clears or reconfigures a Windows event log (T1070.001)", "Leave the logs; export what you need instead")
		}
	case "vssadmin":
		if x.has("delete", "resize") {
			ask("defense.backup-delete", "defense", "it deletes or shrinks the shadow copies Windows restores files from (T1490)", "Keep the shadow copies")
		}
	case "wmic":
		if x.has("shadowcopy") && x.has("delete") {
			ask("defense.backup-delete", "defense", "it deletes the shadow copies Windows restores files from (T1490)", "Keep the shadow copies")
		}
	case "remove-ciminstance", "remove-wmiobject":
		if feedsShadowCopies(c) {
			ask("defense.backup-delete", "defense", "it deletes the shadow copies Windows restores files from (T1490)", "Keep the shadow copies")
		}
	case "wbadmin":
		if x.has("delete") {
			ask("defense.backup-delete", "defense", "it deletes Windows backups (T1490)", "Keep the backups")
		}
	case "bcdedit":
		j := strings.Join(x.args, " ")
		if strings.Contains(j, "recoveryenabled no") || strings.Contains(j, "ignoreallfailures") {
			ask("defense.backup-delete", "defense", "it switches Windows recovery off (T1490)", "Leave recovery on")
		}
	case "reagentc":
		if x.has("/disable") {
			ask("defense.backup-delete", "defense", "it switches the Windows recovery environment off (T1490)", "Leave recovery on")
		}
	case "netsh":
		j := strings.Join(x.args, " ")
		if strings.Contains(j, "firewall") && strings.Contains(j, "state off") || strings.Contains(j, "opmode disable") {
			ask("system.firewall-off", "system", "it turns the Windows firewall off", "Open only the port you need, or ask the user")
		}
	case "set-netfirewallprofile":
		if v, ok := x.value("enabled"); ok && (v == "false" || v == "0") {
			ask("system.firewall-off", "system", "it turns the Windows firewall off", "Open only the port you need, or ask the user")
		}
	case "format-volume", "format":
		if x.name == "format" && len(x.args) == 0 {
			return
		}
		deny("disk.format", "destruction", "formatting a volume erases everything on it", "Format disks yourself, outside the agent")
	case "clear-disk", "remove-partition", "initialize-disk":
		deny("disk.partition", "destruction", "it wipes a disk's partitions and the data on them", "Manage disks yourself, outside the agent")
	case "cipher":
		if _, ok := x.value("w"); ok || x.has("/w") {
			ask("disk.overwrite", "destruction", "it overwrites a volume's free space (T1561)", "Ask the user")
		}
	case "new-localuser", "add-localgroupmember":
		ask("persist.account", "persistence", "it adds a local account or group member (T1136)", "Ask the user to manage accounts")
	case "register-scheduledtask", "schtasks":
		if x.name == "schtasks" && !x.has("/create", "-create", "/change") {
			return
		}
		ask("persist.schedule", "persistence", "it registers a scheduled task that runs later, unattended (T1053.005)", "Run the work now, or ask the user to schedule it")
	case "set-itemproperty", "new-itemproperty", "reg":
		// Registry paths may come with / for \ (the reader reads them as paths).
		j := strings.ReplaceAll(strings.Join(x.args, " "), "/", `\`)
		if (x.name != "reg" || x.has("add")) && strings.Contains(j, `currentversion\run`) {
			ask("persist.schedule", "persistence", "it adds a Run key, a program started at every logon (T1547.001)", "Ask the user")
		}
		if x.name == "reg" && x.has("save") && (strings.Contains(j, `hklm\sam`) || strings.Contains(j, `hklm\security`) || strings.Contains(j, `hklm\system`)) {
			ask("creddump.tool", "credentials", "it saves the registry hives that hold password hashes (T1003.002)", "Leave them alone")
		}
	case "procdump", "procdump64":
		if strings.Contains(strings.Join(x.args, " "), "lsass") {
			ask("creddump.process-memory", "credentials", "it dumps LSASS, which holds logon credentials (T1003.001)", "Do not dump LSASS")
		}
	case "rundll32":
		j := strings.Join(x.args, " ")
		if strings.Contains(j, "comsvcs") && strings.Contains(j, "minidump") {
			ask("creddump.process-memory", "credentials", "it dumps a process's memory, the way LSASS credentials are stolen (T1003.001)", "Do not dump process memory")
		}
		if strings.Contains(j, "javascript:") || strings.Contains(j, "http://") || strings.Contains(j, "https://") {
			deny("remote.interpreter-exec", "remote-code", "rundll32 runs script fetched from the network (T1218.011)", "Download the file, show it to the user, and run nothing unreviewed")
		}
	case "mimikatz":
		ask("creddump.tool", "credentials", "mimikatz extracts passwords and keys (T1003)", "Do not run credential dumpers")
	case "mshta", "regsvr32":
		j := strings.Join(x.args, " ")
		if strings.Contains(j, "http://") || strings.Contains(j, "https://") || strings.Contains(j, "javascript:") || strings.Contains(j, "vbscript:") {
			deny("remote.interpreter-exec", "remote-code", x.name+" runs script fetched from the network (T1218)", "Download the file, show it to the user, and run nothing unreviewed")
		}
	}
}

// securityService reports whether args name a security or logging
// service.
func securityService(args []string) bool {
	for _, a := range args {
		switch strings.Trim(a, `"'`) {
		case "windefend", "sense", "wdnissvc", "wdboot", "wdfilter", "securityhealthservice", "eventlog", "wscsvc", "mpssvc", "sysmon", "sysmon64", "mpsdrv":
			return true
		}
	}
	return false
}

// feedsShadowCopies reports whether c reads a pipe fed by a listing of
// Win32_ShadowCopy.
func feedsShadowCopies(c *shell.Command) bool {
	for _, f := range c.Stdin.Feeds {
		for _, a := range f.Args {
			if strings.EqualFold(a.Value, "win32_shadowcopy") {
				return true
			}
		}
	}
	for _, a := range c.Args {
		if strings.EqualFold(a.Value, "win32_shadowcopy") {
			return true
		}
	}
	return false
}
