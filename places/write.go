package places

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
)

// Stake says what writing a path puts at stake, least first.
type Stake uint8

// Stakes.
const (
	// Ordinary: the project, temporary directories, the rest of home.
	Ordinary Stake = iota
	// SystemArea: under a system root (/etc, /usr, /opt, /var, …) and
	// nothing more specific.
	SystemArea
	// Sensitive: it runs code later or changes an agent's own rules:
	// shell startup files, git hooks and internals, an agent's settings,
	// Python startup hooks, credential stores outside the project.
	Sensitive
	// Guarded: it controls logins, privileges, scheduled jobs, services,
	// boot, or is a raw disk.
	Guarded
)

// Writing is what writing one path means.
type Writing struct {
	Stake Stake
	// Why completes "it …" in a reason ("controls who may log in"); ""
	// for an ordinary write.
	Why string
	// System is set when the path lies under a system root (temporary
	// directories and /dev/null-like sinks excluded).
	System bool
}

// systemRoots are the directories a write under which is a system write.
var systemRoots = []string{
	"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt", "/var",
	"/root", "/sys", "/proc", "/dev", "/srv", "/snap", "/system", "/library", "/applications",
	"/private", "/nix", "/run",
}

// tempRoots are temporary directories, carved out of the system roots.
var tempRoots = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/private/var/folders", "/var/folders", "/dev/shm"}

// System reports whether p (absolute, clean) lies under a system root and
// not in a temporary directory or a harmless device (/dev/null).
func System(p string) bool {
	lp := strings.ToLower(Real(path.Clean(p)))
	return underAny(lp, systemRoots) && !Temp(lp) && !writeSink(lp)
}

// Temp reports whether p lies in a temporary directory (/tmp, /var/tmp,
// /dev/shm, macOS's /var/folders and their /private forms).
func Temp(p string) bool { return underAny(strings.ToLower(path.Clean(p)), tempRoots) }

// TempOutside reports whether p lies in a temporary directory and not
// under home: a home inside one (HOME=/tmp/… in containers and CI) is a
// home, its files as worth keeping as any home's.
func TempOutside(p, home string) bool {
	return Temp(p) && !(home != "" && paths.Under(p, home))
}

// writeSink reports device files any process may write harmlessly.
func writeSink(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	return false
}

// persistence lists system paths (prefixes, lower case) whose change runs
// code for every user, at boot or on a schedule, or as root.
var persistence = []struct{ prefix, why string }{
	{"/etc/cron", "is a scheduled job (cron): its content runs as root later"},
	{"/var/spool/cron", "is a user's crontab: its content runs later"},
	{"/etc/anacrontab", "is a scheduled job table (anacron)"},
	{"/etc/systemd/", "defines a system service that systemd runs as root"},
	{"/lib/systemd/system/", "defines a system service that systemd runs as root"},
	{"/usr/lib/systemd/system/", "defines a system service that systemd runs as root"},
	{"/run/systemd/system/", "defines a system service that systemd runs as root"},
	{"/etc/init.d/", "is a boot script that runs as root"},
	{"/etc/rc.local", "is a boot script that runs as root"},
	{"/etc/ld.so.preload", "injects a library into every program on the system"},
	{"/etc/ld.so.conf", "changes where every program loads its libraries from"},
	{"/etc/profile", "runs in every login shell of every user"},
	{"/etc/bash.bashrc", "runs in every bash shell of every user"},
	{"/etc/zsh", "runs in every zsh shell of every user"},
	{"/etc/environment", "sets the environment of every session"},
	{"/etc/security/", "sets login and privilege policy"},
	{"/boot/", "is read by the boot loader; a bad write can leave the machine unbootable"},
	{"/efi/", "is read by the firmware at boot; a bad write can leave the machine unbootable"},
	{"/var/spool/at", "is an at job: its content runs later"},
	{"/etc/periodic/", "is a periodic job (BSD, macOS): it runs as root on a schedule"},
	{"/etc/xdg/autostart/", "starts a program at every user's login"},
	{"/etc/update-motd.d/", "runs as root at every login"},
	{"/usr/local/lib/systemd/system/", "defines a system service that systemd runs as root"},
	{"/etc/init/", "is an upstart job that runs as root"},
	{"/etc/udev/rules.d/", "is a udev rule: its RUN commands run as root on device events"},
	{"/usr/lib/udev/rules.d/", "is a udev rule: its RUN commands run as root on device events"},
	{"/lib/udev/rules.d/", "is a udev rule: its RUN commands run as root on device events"},
	{"/etc/networkmanager/dispatcher.d/", "is a NetworkManager dispatcher script that runs as root on network events"},
	{"/etc/polkit-1/", "sets who may act as root through polkit"},
	{"/usr/share/polkit-1/rules.d/", "sets who may act as root through polkit"},
	{"/etc/doas.conf", "sets who may act as root through doas"},
	{"/etc/modprobe.d/", "sets kernel module options and install commands that run as root"},
	{"/etc/modules-load.d/", "loads kernel modules at boot"},
	{"/lib/security/", "is a PAM module: it runs in every login"},
	{"/usr/lib/security/", "is a PAM module: it runs in every login"},
	{"/lib64/security/", "is a PAM module: it runs in every login"},
}

// rawDevices are block and memory devices a write to which destroys data.
var rawDevices = []string{"/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/mapper/", "/dev/md", "/dev/loop", "/dev/mem", "/dev/kmem", "/dev/port"}

// RawDevice reports whether p (absolute, clean) is a block or memory
// device a write to which destroys data (/dev/sda, /dev/nvme0n1,
// /dev/mem, …). [Write] guards them; a shell command's disk writes are
// the destroy analyzer's (disk.*).
func RawDevice(p string) bool {
	lp := strings.ToLower(p)
	for _, d := range rawDevices {
		if strings.HasPrefix(lp, d) {
			return true
		}
	}
	return false
}

// ShellStartup reports whether rel, a path relative to a home directory
// (lower case), is a file a shell or a session runs at start.
func ShellStartup(rel string) bool {
	switch rel {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
		".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout",
		".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
		".xinitrc", ".xprofile", ".xsessionrc", ".inputrc",
		".bash_aliases", ".pam_environment":
		return true
	}
	return false
}

// PowerShell profile directories under a home (lower case): Documents
// for PowerShell 7 and Windows PowerShell 5.1 (also under a OneDrive
// that redirects Documents), ~/.config for PowerShell on Linux and
// macOS.
var pwshProfileDirs = [...]string{"documents/powershell", "documents/windowspowershell",
	"onedrive/documents/powershell", "onedrive/documents/windowspowershell", ".config/powershell"}

// PowerShellProfile reports whether rel, a path relative to a home
// directory (lower case), is a PowerShell profile ($PROFILE and its
// CurrentUserAllHosts, Microsoft.VSCode_profile.ps1, …): a script every
// new PowerShell session runs (about_Profiles).
func PowerShellProfile(rel string) bool {
	dir, base := path.Split(rel)
	if !strings.HasSuffix(base, "profile.ps1") {
		return false
	}
	dir = strings.TrimSuffix(dir, "/")
	for _, d := range pwshProfileDirs {
		if dir == d {
			return true
		}
	}
	return false
}

// homeSensitive are directories and files under a home, lower case, whose
// change runs code later.
var homeSensitive = []struct{ rel, why string }{
	{".config/fish/", "is fish's startup configuration: it runs in every new shell"},
	{".config/autostart/", "starts a program at every login"},
	{".config/systemd/", "defines a user service that systemd runs"},
	{".config/environment.d/", "sets the environment of every session"},
	{".gitconfig", "is the user's git configuration: it can set hooks, pagers and credential helpers that run code"},
	{".config/git/config", "is the user's git configuration: it can set hooks, pagers and credential helpers that run code"},
	{".oh-my-zsh/custom/", "is sourced by zsh: it runs in every new shell"},
	{".config/pip/pip.conf", "is pip's configuration: an index URL there sends every install to another server"},
	{".pip/pip.conf", "is pip's configuration: an index URL there sends every install to another server"},
	{".vimrc", "is vim's startup file: it can run shell commands when vim starts"},
	{".config/nvim/", "is Neovim's configuration: it can run shell commands when Neovim starts"},
	{".tmux.conf", "is tmux's configuration: it can run shell commands"},
}

// Shadowing reports whether name is a common command that a program of
// the same name, placed earlier on the PATH, would stand in for without
// the user noticing.
func Shadowing(name string) bool {
	switch name {
	case "git", "ssh", "sudo", "ls", "cd", "cat", "cp", "mv", "rm", "sh", "bash", "zsh", "env", "python", "python3",
		"pip", "pip3", "node", "npm", "npx", "go", "make", "curl", "wget", "docker", "kubectl", "gpg", "scp", "which",
		"toolwall", "claude", "code", "vim", "nano", "less":
		return true
	}
	return false
}

// Write says what a write to p (absolute and clean) means for a user whose
// home is home, working on project. The checks, in order:
//
//   - Guarded: [Protected] paths (~/.ssh/**, ~/.gnupg/**, /etc/passwd,
//     /etc/shadow, /etc/group, /etc/sudoers*, /etc/pam.d/**,
//     /etc/ssh/**), cron and at tables, systemd units, LaunchAgents and
//     LaunchDaemons, boot scripts, upstart jobs, udev rules, XDG
//     autostart, update-motd.d, NetworkManager dispatcher scripts, polkit
//     rules, doas.conf, modprobe.d, PAM modules, /etc/ld.so.preload,
//     system-wide shell profiles, /etc/security, /boot and /efi, raw disk
//     and memory devices;
//   - Sensitive: shell rc and profile files in a home (.bash_aliases and
//     .pam_environment included), PowerShell profiles, editor and tmux startup files, pip's
//     configuration, anything inside .git of any repository (hooks,
//     config, refs, objects, a submodule's under .git/modules) but
//     info/exclude, a .git file, Claude Code's settings and hook scripts
//     (~/.claude/**, ~/.claude.json, .claude/settings*.json,
//     .claude/hooks/**) but its own working files ([AgentWork]: plans,
//     project memory, todos), .mcp.json, VS Code's tasks.json, Python
//     startup hooks (.pth, sitecustomize.py in site-packages), a program
//     named like a common command in a bin directory outside the
//     project, and credential stores outside the project
//     (~/.aws/credentials, ~/.npmrc);
//   - SystemArea: anything else under a system root;
//   - Ordinary otherwise: the project, /tmp and the rest of home.
//
// Matching ignores case (macOS file systems do), and /proc/self/root/X
// (any pid) is judged as /X ([Real]). toolwall's own files are not known
// here: the caller judges them first.
func Write(p, home, project string) Writing {
	p = Real(path.Clean(p))
	lp := strings.ToLower(p)
	lhome, lproject := strings.ToLower(home), strings.ToLower(project)
	system := System(lp)
	guard := func(why string) Writing { return Writing{Stake: Guarded, Why: why, System: system} }
	sensitive := func(why string) Writing { return Writing{Stake: Sensitive, Why: why, System: system} }

	if Protected(p, home, project) {
		switch {
		case strings.Contains(lp, "/.ssh") || strings.HasPrefix(lp, "/etc/ssh"):
			return guard("controls SSH logins and keys (a new authorized key is a backdoor; a lost key cannot be recovered)")
		case strings.Contains(lp, "/.gnupg"):
			return guard("holds the user's GnuPG keys")
		default:
			return guard("is a " + Classify(p).String() + " that decides who may log in and act as root")
		}
	}
	if strings.HasPrefix(lp, "/private/") {
		lp = strings.TrimPrefix(lp, "/private")
	}
	for _, x := range persistence {
		if strings.HasPrefix(lp, x.prefix) || lp == strings.TrimSuffix(x.prefix, "/") {
			return guard(x.why)
		}
	}
	if RawDevice(lp) {
		return guard("is a raw disk or memory device; writing it destroys data")
	}
	if strings.Contains(lp, "/library/launchagents") || strings.Contains(lp, "/library/launchdaemons") {
		return guard("is a launchd job: macOS runs it at login or boot")
	}
	if why, ok := gitInternal(lp); ok {
		return sensitive(why)
	}
	switch kind, why := Agent(p, home); kind {
	case AgentWork:
		return Writing{System: system}
	case AgentSettings:
		if why != "" {
			return sensitive(why)
		}
	}
	base := path.Base(lp)
	if (strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py") &&
		(strings.Contains(lp, "/site-packages/") || strings.Contains(lp, "/dist-packages/")) {
		return sensitive("is a Python startup hook: every Python process runs it")
	}
	if Shadowing(base) && (strings.HasSuffix(path.Dir(lp), "/bin") || strings.HasSuffix(path.Dir(lp), "/.local/bin")) &&
		!strings.HasPrefix(lp, lproject+"/") {
		return sensitive("would put a program named " + base + " on the PATH, in place of the one the user expects")
	}
	if lhome != "" && paths.StrictlyUnder(lp, lhome) {
		rel := strings.TrimPrefix(lp, lhome+"/")
		if ShellStartup(rel) {
			return sensitive("is a shell startup file: it runs in every new shell")
		}
		if PowerShellProfile(rel) {
			return sensitive("is a PowerShell profile: it runs in every new PowerShell session")
		}
		for _, x := range homeSensitive {
			if rel == strings.TrimSuffix(x.rel, "/") || strings.HasSuffix(x.rel, "/") && strings.HasPrefix(rel, x.rel) {
				return sensitive(x.why)
			}
		}
	}
	if dir := path.Dir(lp); ShellStartup(base) && (dir == "/root" || isHomeDir(dir)) && dir != lproject {
		return sensitive("is a shell startup file: it runs in every new shell")
	}
	if cl := Classify(p); (cl == Credential || cl == PrivateKey) && !paths.Under(lp, lproject) {
		return sensitive("is a " + cl.String() + ": overwriting it can lose access or redirect the tool to another server")
	}
	if system {
		return Writing{Stake: SystemArea, Why: "is under a system directory", System: true}
	}
	return Writing{}
}

// gitInternal reports a path inside any repository's .git (the project's
// included, and a submodule's under .git/modules) but info/exclude, or a
// .git file, with why it matters.
func gitInternal(lp string) (string, bool) {
	comps := strings.Split(lp, "/")
	for i, c := range comps {
		if c != ".git" {
			continue
		}
		if i+1 >= len(comps) {
			return "is a repository's .git: as a file it points git at another repository and its configuration", true
		}
		rest := comps[i+1:]
		for j, r := range rest {
			if r == "hooks" {
				return "is a git hook: git runs it on the next commit, checkout or push", true
			}
			if r == "config" && j == len(rest)-1 {
				return "is a repository's git configuration: it can set hooks, fsmonitor and pager commands that run code", true
			}
		}
		if strings.Join(rest, "/") != "info/exclude" {
			return "is git's internal data (refs, objects, index): a wrong write can lose commits; use git commands instead", true
		}
	}
	return "", false
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if paths.Under(p, r) {
			return true
		}
	}
	return false
}
