package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
)

// extraPlace judges p by places the shared path knowledge does not know
// yet (reported to its owner; kept here meanwhile). Prefixes are lower
// case and matched after a leading /private is dropped; a prefix ending
// in "/" is a directory, matched by its contents and itself. Sources:
// MITRE ATT&CK T1037 (boot or logon initialization scripts: rc.common,
// rc.local, StartupItems), T1546.014 (emond), T1547.007 (re-opened
// applications), T1546.017 (udev rules), T1053 (at and cron spools on
// macOS and BSD), and the Atomic Red Team tests for them.
func extraPlace(p, home, project string) (judgment, bool) {
	l := strings.TrimPrefix(strings.ToLower(path.Clean(p)), "/private")
	for _, x := range [...]struct{ prefix, why string }{
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
	} {
		if strings.HasPrefix(l, x.prefix) || l == strings.TrimSuffix(x.prefix, "/") {
			return judgment{level: levelProtected, why: x.why}, true
		}
	}
	if lh := strings.ToLower(home); lh != "" && paths.StrictlyUnder(l, lh) {
		rel := strings.TrimPrefix(l, lh+"/")
		for _, x := range [...]struct {
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
		} {
			if strings.HasPrefix(rel, x.rel) || rel == strings.TrimSuffix(x.rel, "/") {
				j := judgment{level: levelSensitive, why: x.why}
				if x.deny {
					j.level = levelProtected
				}
				return j, true
			}
		}
	}
	inSite := strings.Contains(l, "/site-packages/") || strings.Contains(l, "/dist-packages/")
	if base := path.Base(l); pyHook(base) && !paths.Under(l, strings.ToLower(project)) && (inSite || !strings.HasSuffix(base, ".pth")) {
		return judgment{level: levelSensitive, why: "runs in every Python process that starts"}, true
	}
	return judgment{}, false
}

// sshPlace refines what a write under ~/.ssh means: known_hosts only
// lists the host keys the user trusts (appending one, as ssh-keyscan >>
// known_hosts does, is routine; replacing it drops the others), and the
// client configuration can run commands (ProxyCommand, LocalCommand) on
// every connection, which a human should read; authorized_keys, rc,
// environment and the keys themselves stay protected. Spec cases c425
// and c430.
func sshPlace(p, home string) (judgment, bool) {
	if home == "" || !paths.StrictlyUnder(p, home+"/.ssh") {
		return judgment{}, false
	}
	rel := strings.ToLower(strings.TrimPrefix(p, home+"/.ssh/"))
	switch {
	case rel == "known_hosts" || rel == "known_hosts2" || rel == "known_hosts.old":
		return judgment{level: levelSensitive, why: "lists the SSH host keys this user trusts"}, true
	case rel == "config" || strings.HasPrefix(rel, "config.d/"):
		return judgment{level: levelSensitive, why: "is the SSH client configuration: a ProxyCommand or LocalCommand there runs a command on every connection"}, true
	}
	return judgment{}, false
}

// knownHosts reports a known_hosts file of the user.
func knownHosts(p, home string) bool {
	if home == "" || path.Dir(p) != home+"/.ssh" {
		return false
	}
	b := path.Base(p)
	return b == "known_hosts" || b == "known_hosts2"
}

// pyHook reports Python's startup hooks: *.pth files in site-packages,
// sitecustomize.py and usercustomize.py (the site module runs them at
// every interpreter start; ATT&CK T1546.018).
func pyHook(base string) bool {
	b := strings.ToLower(base)
	return strings.HasSuffix(b, ".pth") || b == "sitecustomize.py" || b == "usercustomize.py"
}

// isLog reports whether p is a system log, the audit trail or a mail
// spool (emptying one erases records: ATT&CK T1070.002, T1070.008).
func isLog(p string) bool {
	p = strings.TrimPrefix(strings.ToLower(p), "/private")
	for _, r := range [...]string{"/var/log", "/var/audit", "/var/adm", "/var/run/utmp", "/run/utmp", "/var/db/diagnostics",
		"/var/db/uuidtext", "/library/logs", "/var/spool/mail", "/var/mail"} {
		if paths.Under(p, r) {
			return true
		}
	}
	return false
}

// caAnchor reports directories whose certificates the system trusts as
// certificate authorities once the trust store is rebuilt
// (update-ca-certificates, update-ca-trust, certctl rehash): a file
// written there lets its owner intercept TLS (ATT&CK T1553.004).
func caAnchor(p string) bool {
	p = strings.ToLower(p)
	for _, d := range [...]string{"/usr/local/share/ca-certificates", "/usr/share/ca-certificates", "/etc/ca-certificates",
		"/etc/pki/ca-trust/source", "/usr/share/pki/ca-trust-source", "/usr/local/share/certs", "/etc/ssl/certs",
		"/etc/pki/trust/anchors", "/usr/share/pki/trust/anchors", "/etc/ca-certificates/trust-source"} {
		if paths.StrictlyUnder(p, d) || p == d {
			return true
		}
	}
	return false
}

// coreSystem reports the system directories whose change alters how the
// system itself behaves: its configuration, programs and libraries. A
// shell write there asks; under the other system roots (/usr/local,
// /opt, /var, /srv, /usr/share, /root, /sys, /Library, …) it warns.
func coreSystem(p string) bool {
	l := strings.ToLower(p)
	for _, r := range [...]string{"/etc", "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/lib", "/lib32", "/lib64", "/libx32",
		"/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec", "/system", "/private/etc"} {
		if paths.Under(l, r) {
			return true
		}
	}
	return false
}

// securityKnob returns what a kernel setting (sysctl name, dotted)
// protects when its change switches a protection off, hands root a
// command to run, or wipes what the machine remembers.
func securityKnob(name string) (string, bool) {
	switch name {
	case "kernel.randomize_va_space":
		return "address space layout randomization", true
	case "kernel.yama.ptrace_scope":
		return "who may attach to and read other processes", true
	case "kernel.kptr_restrict":
		return "hiding kernel addresses", true
	case "kernel.dmesg_restrict":
		return "hiding the kernel log", true
	case "kernel.modules_disabled":
		return "kernel module loading", true
	case "kernel.unprivileged_bpf_disabled":
		return "unprivileged BPF", true
	case "kernel.core_pattern":
		return "the core dump handler, which the kernel runs as root", true
	case "kernel.modprobe":
		return "the module loader the kernel runs as root", true
	case "kernel.hotplug":
		return "the hotplug helper the kernel runs as root", true
	case "kernel.kexec_load_disabled":
		return "loading a new kernel", true
	case "kernel.sysrq":
		return "the magic SysRq key", true
	case "fs.suid_dumpable":
		return "core dumps of setuid programs", true
	case "fs.protected_symlinks":
		return "symlink attack protection", true
	case "fs.protected_hardlinks":
		return "hardlink attack protection", true
	case "fs.protected_regular":
		return "protection of files in sticky directories", true
	case "fs.protected_fifos":
		return "protection of FIFOs in sticky directories", true
	case "vm.mmap_min_addr":
		return "null-pointer dereference protection", true
	case "vm.drop_caches":
		return "the page cache: dropping it wipes file contents the machine keeps in memory and stalls every program (ATT&CK T1070)", true
	case "kern.securelevel":
		return "the system security level", true
	}
	return "", false
}

// procKnob maps a write under /proc/sys to its sysctl name when it is a
// security knob.
func procKnob(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, "/proc/sys/")
	if !ok {
		return "", false
	}
	name := strings.ReplaceAll(rel, "/", ".")
	_, known := securityKnob(name)
	return name, known
}
