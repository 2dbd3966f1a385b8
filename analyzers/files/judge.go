package files

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/analyzers/secrets"
	"github.com/toolwall/toolwall/paths"
)

// Judgment is what writing a path means.
type Judgment struct {
	// Rule is RuleWriteProtected, RuleWriteSensitive, RuleWriteSystem, or
	// "" when the write is ordinary.
	Rule string
	// Why completes "it …" in a reason ("controls who may log in").
	Why string
	// System is set when the path lies under a system root.
	System bool
}

// systemRoots are the directories a write under which is a system write.
// /var/tmp and macOS's per-user temporary directories are carved out.
var systemRoots = []string{
	"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt", "/var",
	"/root", "/sys", "/proc", "/dev", "/srv", "/snap", "/system", "/library", "/applications",
	"/private", "/nix", "/run",
}

var tempRoots = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/private/var/folders", "/var/folders", "/dev/shm"}

// writeSinks are device files any process may write harmlessly.
var writeSinks = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true}

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

// shellStartup are the files a shell runs at start, relative to a home.
var shellStartup = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".profile": true,
	".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".zlogout": true,
	".kshrc": true, ".mkshrc": true, ".cshrc": true, ".tcshrc": true, ".login": true,
	".xinitrc": true, ".xprofile": true, ".xsessionrc": true, ".inputrc": true,
	".bash_aliases": true, ".pam_environment": true,
}

// homeSensitive are directories and files under a home, lower case, whose
// change runs code later or changes the agent's own rules.
var homeSensitive = []struct{ rel, why string }{
	{".config/fish/", "is fish's startup configuration: it runs in every new shell"},
	{".config/autostart/", "starts a program at every login"},
	{".config/systemd/", "defines a user service that systemd runs"},
	{".config/environment.d/", "sets the environment of every session"},
	{".gitconfig", "is the user's git configuration: it can set hooks, pagers and credential helpers that run code"},
	{".config/git/config", "is the user's git configuration: it can set hooks, pagers and credential helpers that run code"},
	{".claude/", "is the agent's own configuration (settings, hooks, permissions)"},
	{".claude.json", "is the agent's own configuration (MCP servers, permissions)"},
	{".config/claude/", "is the agent's own configuration"},
	{".config/toolwall/", "is toolwall's configuration: the rules that guard this agent"},
	{".local/state/toolwall/", "is toolwall's state: the memory that guards this agent"},
	{".local/share/toolwall/", "is toolwall's data"},
	{".toolwall/", "is toolwall's configuration"},
	{".oh-my-zsh/custom/", "is sourced by zsh: it runs in every new shell"},
	{".config/pip/pip.conf", "is pip's configuration: an index URL there sends every install to another server"},
	{".pip/pip.conf", "is pip's configuration: an index URL there sends every install to another server"},
	{".vimrc", "is vim's startup file: it can run shell commands when vim starts"},
	{".config/nvim/", "is Neovim's configuration: it can run shell commands when Neovim starts"},
	{".tmux.conf", "is tmux's configuration: it can run shell commands"},
}

// Judge says what a write to absPath (absolute and clean) means for a
// user whose home is home, working on project. The checks, in order:
//
//   - deny (RuleWriteProtected): [secrets.Protected] paths (~/.ssh/**,
//     ~/.gnupg/**, /etc/passwd, /etc/shadow, /etc/group, /etc/sudoers*,
//     /etc/pam.d/**, /etc/ssh/**), cron and at tables, systemd units,
//     LaunchAgents and LaunchDaemons, boot scripts, upstart jobs, udev
//     rules, XDG autostart, update-motd.d, NetworkManager dispatcher
//     scripts, polkit rules, doas.conf, modprobe.d, PAM modules,
//     /etc/ld.so.preload, system-wide shell profiles, /boot and /efi, raw
//     disk and memory devices;
//   - ask (RuleWriteSensitive): shell rc and profile files in a home
//     (.bash_aliases and .pam_environment included), editor and tmux
//     startup files, pip's configuration, anything inside .git of any
//     repository (hooks, config, refs, objects, a submodule's under
//     .git/modules) but info/exclude, a .git file, the agent's own
//     settings and hook scripts (~/.claude/**, ~/.claude.json,
//     .claude/settings*.json, .claude/hooks/**, .mcp.json), VS Code's
//     tasks.json, toolwall's config and state (~/.config/toolwall,
//     ~/.local/state/toolwall, toolwall.toml, .toolwall/), and
//     credential stores outside the project (~/.aws/credentials, ~/.npmrc);
//   - ask (RuleWriteSystem): anything else under a system root;
//   - "" otherwise: the project, /tmp and the rest of home.
//
// Matching ignores case (macOS file systems do), and /proc/self/root/X
// (any pid) is judged as /X ([secrets.Real]).
func Judge(absPath, home, project string) Judgment {
	absPath = secrets.Real(path.Clean(absPath))
	p := strings.ToLower(absPath)
	lhome, lproject := strings.ToLower(home), strings.ToLower(project)
	system := underAny(p, systemRoots) && !underAny(p, tempRoots) && !writeSinks[p]
	deny := func(why string) Judgment { return Judgment{Rule: RuleWriteProtected, Why: why, System: system} }
	ask := func(why string) Judgment { return Judgment{Rule: RuleWriteSensitive, Why: why, System: system} }

	if secrets.Protected(absPath, home, project) {
		switch cl := secrets.Classify(absPath, home, project); {
		case strings.Contains(p, "/.ssh") || strings.HasPrefix(p, "/etc/ssh"):
			return deny("controls SSH logins and keys (a new authorized key is a backdoor; a lost key cannot be recovered)")
		case strings.Contains(p, "/.gnupg"):
			return deny("holds the user's GnuPG keys")
		default:
			return deny("is a " + cl.String() + " that decides who may log in and act as root")
		}
	}
	if strings.HasPrefix(p, "/private/") {
		p = strings.TrimPrefix(p, "/private")
	}
	for _, x := range persistence {
		if strings.HasPrefix(p, x.prefix) || p == strings.TrimSuffix(x.prefix, "/") {
			return deny(x.why)
		}
	}
	for _, d := range rawDevices {
		if strings.HasPrefix(p, d) {
			return deny("is a raw disk or memory device; writing it destroys data")
		}
	}
	if strings.Contains(p, "/library/launchagents") || strings.Contains(p, "/library/launchdaemons") {
		return deny("is a launchd job: macOS runs it at login or boot")
	}
	// .git internals of any repository, the project's included (and a
	// submodule's under .git/modules).
	comps := strings.Split(p, "/")
	for i, c := range comps {
		if c != ".git" {
			continue
		}
		if i+1 >= len(comps) {
			return ask("is a repository's .git: as a file it points git at another repository and its configuration")
		}
		rest := comps[i+1:]
		for j, r := range rest {
			if r == "hooks" {
				return ask("is a git hook: git runs it on the next commit, checkout or push")
			}
			if r == "config" && j == len(rest)-1 {
				return ask("is a repository's git configuration: it can set hooks, fsmonitor and pager commands that run code")
			}
		}
		if strings.Join(rest, "/") != "info/exclude" {
			return ask("is git's internal data (refs, objects, index): a wrong write can lose commits; use git commands instead")
		}
	}
	base := path.Base(p)
	if base == ".mcp.json" {
		return ask("is the agent's MCP server list: each server is a program it starts")
	}
	if strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json") && path.Base(path.Dir(p)) == ".claude" {
		return ask("is the agent's own settings (hooks, permissions)")
	}
	if strings.Contains(p, "/.claude/hooks/") {
		return ask("is one of the agent's hook scripts: the agent's settings run it on tool calls")
	}
	if (strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py") &&
		(strings.Contains(p, "/site-packages/") || strings.Contains(p, "/dist-packages/")) {
		return ask("is a Python startup hook: every Python process runs it")
	}
	if shadowed[base] && (strings.HasSuffix(path.Dir(p), "/bin") || strings.HasSuffix(path.Dir(p), "/.local/bin")) &&
		!strings.HasPrefix(p, lproject+"/") {
		return ask("would put a program named " + base + " on the PATH, in place of the one the user expects")
	}
	if base == "tasks.json" && path.Base(path.Dir(p)) == ".vscode" {
		return ask("is a VS Code task list: a task can run on folder open")
	}
	if base == "toolwall.toml" || base == ".toolwall.toml" || strings.Contains(p, "/.toolwall/") || strings.HasPrefix(p, "/etc/toolwall") {
		return ask("is toolwall's configuration: the rules that guard this agent")
	}
	if lhome != "" && paths.StrictlyUnder(p, lhome) {
		rel := strings.TrimPrefix(p, lhome+"/")
		if shellStartup[rel] {
			return ask("is a shell startup file: it runs in every new shell")
		}
		for _, x := range homeSensitive {
			if rel == strings.TrimSuffix(x.rel, "/") || strings.HasSuffix(x.rel, "/") && strings.HasPrefix(rel, x.rel) {
				return ask(x.why)
			}
		}
	}
	if dir := path.Dir(p); shellStartup[base] && (dir == "/root" || isHomeDir(dir)) && dir != lproject {
		return ask("is a shell startup file: it runs in every new shell")
	}
	if cl := secrets.Classify(absPath, home, project); (cl == secrets.Credential || cl == secrets.PrivateKey) && !paths.Under(p, lproject) {
		return ask("is a " + cl.String() + ": overwriting it can lose access or redirect the tool to another server")
	}
	if system {
		return Judgment{Rule: RuleWriteSystem, Why: "is under a system directory", System: true}
	}
	return Judgment{}
}

// isHomeDir reports whether dir is a user's home: /home/NAME or
// /Users/NAME (lower-cased).
func isHomeDir(dir string) bool {
	parent := path.Dir(dir)
	return parent == "/home" || parent == "/users"
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if paths.Under(p, r) {
			return true
		}
	}
	return false
}

// shadowed are commands a program of the same name, placed earlier on the
// PATH, would stand in for without the user noticing.
var shadowed = map[string]bool{
	"git": true, "ssh": true, "sudo": true, "ls": true, "cd": true, "cat": true, "cp": true, "mv": true,
	"rm": true, "sh": true, "bash": true, "zsh": true, "env": true, "python": true, "python3": true,
	"pip": true, "pip3": true, "node": true, "npm": true, "npx": true, "go": true, "make": true,
	"curl": true, "wget": true, "docker": true, "kubectl": true, "gpg": true, "scp": true, "which": true,
	"toolwall": true, "claude": true, "code": true, "vim": true, "nano": true, "less": true,
}
