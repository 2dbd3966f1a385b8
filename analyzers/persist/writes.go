package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// write is one file a command writes, from one of its effects.
type write struct {
	w shell.Word
	// p is the absolute path ("" when the effect's word is dynamic).
	p string
	// stage is set for copies, moves, links, installs and downloads: a
	// file made elsewhere put into place.
	stage bool
	// replace is set when the file's old content is lost: truncating
	// redirects, tee without -a, cp/mv/dd onto it, truncate, sed -i.
	replace bool
	// touch is set for touch, which only creates an empty file.
	touch bool
	// redir is the operator of a redirection ("" for argv writes).
	redir string
}

// downloader reports programs whose option of role cd names the directory
// their downloads land in (curl --output-dir with -O, wget -P, aria2c -d,
// gh release download -D).
func downloader(c *shell.Command) bool {
	switch rootName(c) {
	case "curl":
		return has(c, "remote-name")
	case "wget", "aria2c", "gh":
		return true
	}
	return false
}

// fetcher reports programs whose written files are downloads.
func fetcher(root string) bool {
	switch root {
	case "curl", "wget", "fetch", "aria2c", "gh", "http", "curlie", "scp", "sftp", "rsync":
		return true
	}
	return false
}

// writes judges every file c writes, from its effects: redirections,
// and the operands and option values its catalog entry says it writes,
// appends to, changes in place, copies, moves or links into, creates
// (touch, install -d), or downloads into. Effects on another host or in
// a container are left out; a container's writes to a mounted host path
// are its host path's.
func (k *checker) writes(c *shell.Command) {
	root := rootName(c)
	switch {
	case root == "rsync" && has(c, "dry-run"):
		return
	case root == "mount":
		return // a mount point is covered, not written (mounts are the ops analyzer's)
	}
	if len(c.Effects) == 0 {
		return
	}
	stomp := root == "touch" && stomps(c)
	k.once = map[string]bool{}
	defer func() { k.once = nil }()
	for _, e := range c.Effects {
		if e.Remote {
			continue
		}
		wr := write{w: e.Word, p: e.Path}
		switch e.Kind {
		case shell.Writes:
			wr.replace = true
		case shell.Appends:
		case shell.Modifies:
			wr.replace = true
		case shell.Links:
			wr.stage, wr.replace = true, true
		case shell.Creates:
			switch root {
			case "touch":
				if stomp {
					continue // backdating is defense.timestomp's
				}
				wr.touch = true
			case "install":
				wr.stage = true
			default:
				continue // mkdir: an empty directory runs nothing
			}
		case shell.ChangesDir:
			if e.From == "operand" || !downloader(c) {
				continue
			}
			wr.stage, wr.replace = true, true
		default:
			continue
		}
		if e.Role == programs.Unknown && e.From != "" && e.From != "operand" && e.From != "tree" {
			wr.redir = e.From
		}
		if e.Role == programs.Dest || e.Role == programs.Link || e.Role == programs.XferDest || e.From == "tree" {
			wr.stage = true
		}
		if e.Role == programs.Write && fetcher(root) {
			wr.stage = true // a download put into place
		}
		if wr.p == "" && !e.Word.Dynamic && e.Word.Value != "" {
			wr.p = k.abs(c, e.Word)
		}
		k.judgeWrite(c, wr)
	}
}

// ignoredWrite reports pseudo-files whose write changes nothing that
// persists: the terminal, stdio, file descriptors, bash's network
// redirections, this process's own /proc entries, and the per-user
// runtime directory.
func ignoredWrite(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/console":
		return true
	}
	if strings.HasPrefix(p, "/dev/tty") {
		return true
	}
	for _, pre := range [...]string{"/dev/fd/", "/dev/pts/", "/dev/tcp/", "/dev/udp/", "/proc/self/", "/proc/thread-self/", "/run/user/", "/dev/shm/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// tempPath reports paths under the temporary directories, where a write
// starts nothing and overwrites nothing of the system's.
func tempPath(p string) bool {
	for _, t := range [...]string{"/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/tmp/"} {
		if strings.HasPrefix(p, t) {
			return true
		}
	}
	return false
}

// inProject reports whether p lies in the project proj: a project in a
// temporary directory (a CI checkout, a scratch clone) is a project, its
// git hooks, agent settings and toolwall policy as worth guarding as
// anywhere else.
func inProject(p, proj string) bool {
	return proj != "" && proj != "/" && paths.Under(p, proj)
}

// judgeWrite reports a write to a persistence, startup, system or log
// place.
func (k *checker) judgeWrite(c *shell.Command, wr write) {
	w := wr.w
	p := wr.p
	dynamic := false
	if p == "" {
		if !w.Dynamic {
			return
		}
		dynamic = true
		p = k.prefixAbs(w)
		if p == "" {
			k.dynamicName(c, wr)
			return
		}
	}
	if ignoredWrite(p) || !dynamic && !wr.replace && knownHosts(p, k.home) || tempPath(p) && places.TempOutside(p, k.home) && !inProject(p, k.proj) {
		return
	}
	what := quote(c)
	if wr.redir != "" {
		what = clip(what + " " + wr.redir + " " + w.Raw)
	}
	if !dynamic && !wr.touch && wr.replace && isLog(p) {
		k.ask(what, RuleLogTamper, catDefense,
			"it overwrites or empties "+p+", a system log, audit record or mailbox; erasing them hides what was done on the machine",
			"Leave logs alone; read them with `tail`/`journalctl`, or ask the user to rotate them")
		return
	}
	if knob, ok := procKnob(p); ok && !dynamic {
		what2, _ := securityKnob(knob)
		k.ask(what, RuleKernel, catPersist, "it changes the kernel setting "+knob+" ("+what2+"), which weakens a protection of the whole machine",
			"Leave kernel security settings alone, or ask the user")
	}
	if !dynamic && caAnchor(p) && !wr.touch {
		dir := path.Dir(p)
		if !caAnchor(dir) {
			dir = p
		}
		k.ask(what, RuleProtectionOff, catDefense, "it puts a certificate into "+dir+", where the system's trust store takes certificate authorities from; a new authority can intercept every TLS connection",
			"Trust a certificate only for the one tool that needs it (e.g. NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE), or ask the user to install it")
		return
	}
	if places.RawDevice(p) && !strings.HasPrefix(p, "/dev/mem") && !strings.HasPrefix(p, "/dev/kmem") && !strings.HasPrefix(p, "/dev/port") {
		return // a disk write: destroy's disk.* rules judge it
	}
	j := judgePath(p, k.home, k.proj)
	if j.system && !dynamic {
		k.r.Tag(toolwall.TagSystemWrite, p, "")
	}
	if j.level == levelNone {
		return
	}
	if wr.stage && j.level >= levelSensitive && !dynamic {
		k.r.Tag(toolwall.TagStage, p, "persistence")
	}
	switch {
	case dynamic && (j.level >= levelSensitive || coreSystem(p)):
		rule := RuleWriteSystem
		if j.level >= levelSensitive {
			rule = RuleWriteSensitive
		}
		k.ask(what, rule, catPersist, "it writes a file whose name is only known at run time under "+p+", which "+j.why,
			"Write to a fixed path inside the project, or ask the user")
	case dynamic:
		k.warn(what, RuleWriteSystem, catPersist, "it writes a file whose name is only known at run time under "+p+", a system directory",
			"Prefer a fixed path inside the project")
	case wr.touch:
		if j.level >= levelSensitive {
			k.ask(what, RuleWriteSensitive, catPersist, "it creates "+p+", which "+j.why,
				"Leave it alone, or ask the user to create it")
		}
	case j.level == levelProtected:
		k.deny(what, RuleWriteProtected, catPersist, "it writes "+p+", which "+j.why,
			"Do not install anything that runs at boot, at login, on a schedule or as root; tell the user what you would change and let them do it")
	case j.level == levelSensitive:
		advice := j.advice
		if advice == "" {
			advice = "Keep changes inside the project, or ask the user to make this one"
		}
		k.ask(what, RuleWriteSensitive, catPersist, "it writes "+p+", which "+j.why, advice)
	case coreSystem(p):
		k.ask(what, RuleWriteSystem, catPersist, "it writes "+p+", which is the system's own configuration, programs or libraries",
			"Write inside the project or /tmp, or ask the user to install it")
	default:
		k.warn(what, RuleWriteSystem, catPersist, "it writes "+p+", which is under a system directory",
			"Prefer the project or /tmp; install system-wide only when the user asked for it")
	}
}

// dynamicName judges a write whose directory is unknown by its static
// base name: a shell startup file, authorized_keys or a Python startup
// hook in an unknown directory asks.
func (k *checker) dynamicName(c *shell.Command, wr write) {
	raw := wr.w.Raw
	i := strings.LastIndexByte(raw, '/')
	if i < 0 || strings.ContainsAny(raw[i:], "$`") {
		return
	}
	base := strings.Trim(raw[i+1:], `"'`)
	if base == "" || strings.ContainsAny(base, `"'\*?[`) {
		return
	}
	why := ""
	if pyHook(base) {
		why = "runs in every Python process that starts"
	} else if k.home != "" {
		if j := judgePath(k.home+"/"+base, k.home, k.proj); j.level >= levelSensitive {
			why = j.why
		}
	}
	if why == "" {
		return
	}
	k.ask(quote(c), RuleWriteSensitive, catPersist,
		"it writes a file named "+base+" in a directory only known at run time; a file of that name "+why,
		"Write to a fixed path inside the project, or ask the user")
}
