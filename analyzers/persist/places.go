package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/analyzers/files"
	"github.com/toolwall/toolwall/paths"
)

// extraPlaces are persistence places [files.Judge] does not know yet
// (reported to its owner; kept here meanwhile). Prefixes are lower case
// and matched after a leading /private is dropped; a prefix ending in "/"
// is a directory, matched by its contents and itself. Sources: MITRE
// ATT&CK T1037 (boot or logon initialization scripts: rc.common, rc.local,
// StartupItems), T1546.014 (emond), T1547.007 (re-opened applications),
// T1546.017 (udev rules), T1053 (at and cron spools on macOS and BSD), and
// the Atomic Red Team tests for them.
var extraPlaces = []struct{ prefix, why string }{
	{"/etc/rc.common", "is a boot script that runs as root (macOS, BSD)"},
	{"/etc/rc.d/", "holds boot scripts that run as root"},
	{"/usr/local/etc/rc.d/", "holds boot scripts that run as root (BSD)"},
	{"/etc/emond.d/", "holds event monitor rules whose actions run as root (macOS emond)"},
	{"/var/db/emondclients/", "switches the event monitor daemon on (macOS emond)"},
	{"/library/startupitems/", "holds startup items that run as root at boot (macOS)"},
	{"/etc/update-motd.d/", "holds scripts that run as root at every login"},
	{"/etc/xdg/autostart/", "starts a program at every user's login"},
	{"/etc/udev/rules.d/", "holds device rules whose RUN commands execute as root"},
	{"/lib/udev/rules.d/", "holds device rules whose RUN commands execute as root"},
	{"/usr/lib/udev/rules.d/", "holds device rules whose RUN commands execute as root"},
	{"/etc/periodic/", "holds periodic scripts that run as root (macOS, BSD)"},
	{"/etc/launchd.conf", "runs launchctl commands at boot (macOS)"},
	{"/var/at/", "is the at and cron spool: its jobs run later (macOS, BSD)"},
	{"/usr/lib/cron/", "is the cron spool: its tables run later (macOS)"},
	{"/var/spool/at", "is the at spool: its jobs run later"},
	{"/etc/networkmanager/dispatcher.d/", "holds scripts NetworkManager runs as root on every network change"},
	{"/library/security/securityagentplugins/", "holds authorization plugins loaded at login (macOS)"},
	{"/etc/doas.conf", "decides who may act as root (doas)"},
	{"/etc/polkit-1/rules.d/", "decides who may act as root (polkit rules)"},
}

// extraHome are places under a home (relative, lower case) that
// [files.Judge] does not know: deny for login persistence, ask for
// startup files.
var extraHome = []struct {
	rel, why string
	deny     bool
}{
	{"library/preferences/byhost/com.apple.loginwindow", "lists applications macOS reopens at every login", true},
	{"library/application support/com.apple.backgroundtaskmanagementagent/", "holds the login items macOS starts at every login", true},
	{".shrc", "is a shell startup file: it runs in every new shell", false},
	{".bash_aliases", "is sourced by .bashrc: it runs in every new shell", false},
	{".pam_environment", "sets the environment of every session", false},
	{".local/share/systemd/", "defines a user service that systemd runs", false},
	{".config/autostart-scripts/", "starts a program at every login", false},
	{".config/plasma-workspace/env/", "runs at every login", false},
}

// logRoots are system log and audit trail directories and files.
var logRoots = []string{"/var/log", "/var/audit", "/var/adm", "/var/run/utmp", "/run/utmp", "/var/db/diagnostics", "/var/db/uuidtext", "/library/logs"}

// isLog reports whether p is a system log or audit record.
func isLog(p string) bool {
	p = strings.TrimPrefix(strings.ToLower(p), "/private")
	for _, r := range logRoots {
		if paths.Under(p, r) {
			return true
		}
	}
	return false
}

// extraPlace judges p by this package's own lists.
func extraPlace(p, home, project string) (files.Judgment, bool) {
	l := strings.TrimPrefix(strings.ToLower(path.Clean(p)), "/private")
	for _, x := range extraPlaces {
		if strings.HasPrefix(l, x.prefix) || l == strings.TrimSuffix(x.prefix, "/") {
			return files.Judgment{Rule: files.RuleWriteProtected, Why: x.why}, true
		}
	}
	if lh := strings.ToLower(home); lh != "" && paths.StrictlyUnder(l, lh) {
		rel := strings.TrimPrefix(l, lh+"/")
		for _, x := range extraHome {
			if strings.HasPrefix(rel, x.rel) || rel == strings.TrimSuffix(x.rel, "/") {
				rule := files.RuleWriteSensitive
				if x.deny {
					rule = files.RuleWriteProtected
				}
				return files.Judgment{Rule: rule, Why: x.why}, true
			}
		}
	}
	inSite := strings.Contains(l, "/site-packages/") || strings.Contains(l, "/dist-packages/")
	if base := path.Base(l); pyHook(base) && !paths.Under(l, strings.ToLower(project)) && (inSite || !strings.HasSuffix(base, ".pth")) {
		return files.Judgment{Rule: files.RuleWriteSensitive, Why: "runs in every Python process that starts"}, true
	}
	return files.Judgment{}, false
}

// pyHook reports Python's startup hooks: *.pth files in site-packages,
// sitecustomize.py and usercustomize.py (the site module runs them at
// every interpreter start; ATT&CK T1546.018).
func pyHook(base string) bool {
	b := strings.ToLower(base)
	return strings.HasSuffix(b, ".pth") || b == "sitecustomize.py" || b == "usercustomize.py"
}

// isDirPlace reports directories that copies go into: those of
// extraPlaces and the persistence directories files.Judge knows.
func isDirPlace(p, home string) bool {
	l := strings.TrimPrefix(strings.ToLower(p), "/private")
	for _, x := range extraPlaces {
		if strings.HasSuffix(x.prefix, "/") && l == strings.TrimSuffix(x.prefix, "/") {
			return true
		}
	}
	switch {
	case strings.HasSuffix(l, "/library/launchagents"), strings.HasSuffix(l, "/library/launchdaemons"),
		l == "/etc/cron.d", l == "/etc/cron.hourly", l == "/etc/cron.daily", l == "/etc/cron.weekly", l == "/etc/cron.monthly", l == "/etc/init.d", l == "/etc/profile.d", l == "/etc/systemd/system",
		l == "/usr/local/bin", l == "/usr/bin", l == "/usr/local/sbin", l == "/bin", l == "/sbin":
		return true
	}
	return home != "" && (l == strings.ToLower(home)+"/.config/autostart" || l == strings.ToLower(home)+"/.config/systemd/user")
}

// securityKnobs are kernel settings whose change switches a protection
// off or hands root a command to run (sysctl names, dotted).
var securityKnobs = map[string]string{
	"kernel.randomize_va_space":        "address space layout randomization",
	"kernel.yama.ptrace_scope":         "who may attach to and read other processes",
	"kernel.kptr_restrict":             "hiding kernel addresses",
	"kernel.dmesg_restrict":            "hiding the kernel log",
	"kernel.modules_disabled":          "kernel module loading",
	"kernel.unprivileged_bpf_disabled": "unprivileged BPF",
	"kernel.core_pattern":              "the core dump handler, which the kernel runs as root",
	"kernel.modprobe":                  "the module loader the kernel runs as root",
	"kernel.hotplug":                   "the hotplug helper the kernel runs as root",
	"kernel.kexec_load_disabled":       "loading a new kernel",
	"kernel.sysrq":                     "the magic SysRq key",
	"fs.suid_dumpable":                 "core dumps of setuid programs",
	"fs.protected_symlinks":            "symlink attack protection",
	"fs.protected_hardlinks":           "hardlink attack protection",
	"fs.protected_regular":             "protection of files in sticky directories",
	"fs.protected_fifos":               "protection of FIFOs in sticky directories",
	"vm.mmap_min_addr":                 "null-pointer dereference protection",
	"kern.securelevel":                 "the system security level",
}

// procKnob maps a write under /proc/sys to its sysctl name when it is a
// security knob.
func procKnob(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, "/proc/sys/")
	if !ok {
		return "", false
	}
	name := strings.ReplaceAll(rel, "/", ".")
	_, known := securityKnobs[name]
	return name, known
}
