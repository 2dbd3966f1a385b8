package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

var (
	mvSpec = optSpec{shortArg: "tS",
		long: []string{"backup", "force", "interactive", "no-clobber", "no-copy", "strip-trailing-slashes",
			"suffix", "target-directory", "no-target-directory", "update", "verbose", "context", "exchange", "help", "version"},
		longArg: []string{"suffix", "target-directory"}}
	cpSpec = optSpec{shortArg: "tS",
		long: []string{"archive", "attributes-only", "backup", "copy-contents", "dereference", "force", "interactive",
			"link", "no-clobber", "no-dereference", "preserve", "no-preserve", "parents", "recursive", "reflink",
			"remove-destination", "sparse", "strip-trailing-slashes", "suffix", "symbolic-link", "target-directory",
			"no-target-directory", "update", "verbose", "one-file-system", "context", "help", "version"},
		longArg: []string{"suffix", "target-directory"}}
	installSpec = optSpec{shortArg: "gmotSB",
		long: []string{"backup", "compare", "directory", "group", "mode", "owner", "preserve-timestamps", "strip",
			"strip-program", "suffix", "target-directory", "no-target-directory", "verbose", "context", "help", "version"},
		longArg: []string{"group", "mode", "owner", "strip-program", "suffix", "target-directory"}}
	rsyncSpec = optSpec{shortArg: "efTBM@",
		longArg: []string{"rsh", "rsync-path", "exclude", "include", "filter", "files-from", "exclude-from",
			"include-from", "password-file", "log-file", "backup-dir", "suffix", "chmod", "chown", "compare-dest",
			"copy-dest", "link-dest", "temp-dir", "partial-dir", "max-size", "min-size", "timeout", "port",
			"bwlimit", "block-size", "max-delete", "out-format", "info", "debug", "usermap", "groupmap"}}
	teeSpec = optSpec{long: []string{"append", "ignore-interrupts", "output-error", "help", "version"}}
)

// copyMove handles mv, cp and install (n): the destination is tagged as
// staged; mv of a protected tree onto /dev/null is denied (c150–c152); cp
// onto a block device is a disk overwrite.
func (a *run) copyMove(c *shell.Command, n string, args []shell.Word) {
	spec := map[string]optSpec{"mv": mvSpec, "cp": cpSpec, "install": installSpec}[n]
	p := parseArgs(args[1:], spec)
	if p.has("help", "version") {
		return
	}
	srcs := p.operands
	var dest string
	if d, ok := p.val("t", "target-directory"); ok {
		dest = a.env.abs(d, c.Cwd)
	} else if len(srcs) >= 2 {
		last := srcs[len(srcs)-1]
		srcs = srcs[:len(srcs)-1]
		if !last.Dynamic {
			dest = a.env.abs(last.Value, c.Cwd)
		}
	} else {
		return
	}
	if dest == "" {
		return
	}
	// A single static source is named in the effect's Detail
	// ("from:/abs/src"), so chain memory can follow a downloaded file
	// through a later rename or copy.
	from := ""
	if _, dir := p.val("t", "target-directory"); !dir && len(srcs) == 1 && !srcs[0].Dynamic {
		from = "from:" + a.env.abs(srcs[0].Value, c.Cwd)
	}
	a.r.Tag(toolwall.TagStage, dest, from)
	if a.env.systemWrite(dest) {
		a.r.Tag(toolwall.TagSystemWrite, dest, "")
	}
	if m, ok := p.val("m", "mode"); ok && n == "install" && grantsExec(m) {
		a.r.Tag(toolwall.TagMakeExecutable, dest, "")
	}
	if n == "cp" && blockDevice(dest) {
		a.deny("disk.overwrite", quote(c)+" was refused: it copies straight onto the disk device "+dest+
			", destroying its partitions and file systems. Copy to an image file instead; writing a real device is for the user to run.")
	}
	if n == "mv" && dest != "/dev/null" {
		a.moveSystem(c, srcs)
		return
	}
	if n != "mv" {
		return
	}
	for _, w := range srcs {
		t := a.env.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		a.tagDelete(t)
		if cls := a.env.classify(t); cls <= clsProjectGit {
			a.deny("mv.to-devnull", quote(c)+" was refused: moving "+a.env.describe(t, cls)+
				" onto /dev/null throws it away with no way back. Move it to a named backup directory, or leave it in place.")
		}
	}
}

// moveSystem denies moving / or a system directory anywhere ("mv /usr
// /tmp/usr", "mv /etc /etc.bak"): the programs and settings the system
// needs to run, including mv and sudo themselves, are gone from where
// they are looked for, so the move cannot be taken back from a normal
// shell.
func (a *run) moveSystem(c *shell.Command, srcs []shell.Word) {
	for _, w := range srcs {
		t := a.env.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		if cls := a.env.classify(t); cls == clsRoot || cls == clsSystem {
			a.deny("mv.dangerous-source", quote(c)+" was refused: it moves "+a.env.describe(t, cls)+
				" away from where the system looks for it, which breaks the machine (the tools needed to move it back go with it). "+
				"Copy what you need instead, or move only the specific files you mean.")
		}
	}
}

// rsync denies "rsync --delete… SRC… DEST" when DEST is /, home, a system
// root or the project: whatever DEST holds that the sources lack is
// removed, so an empty source wipes it ("rsync -a --delete empty/ ~/").
// Mirroring into any other directory is ordinary backup work and is not
// reported; neither is a dry run (-n) or a remote DEST (host:path).
func (a *run) rsync(c *shell.Command, args []shell.Word) {
	p := parseArgs(args[1:], rsyncSpec)
	deletes, dry, moves := false, false, false
	for _, o := range p.opts {
		deletes = deletes || strings.HasPrefix(o.k, "del")
		moves = moves || o.k == "remove-source-files"
		switch o.k {
		case "n", "dry-run":
			dry = true
		case "no-n", "no-dry-run":
			dry = false // rsync's --no-OPTION turns an option off again
		}
	}
	if dry || len(p.operands) < 2 {
		return
	}
	if moves {
		// --remove-source-files deletes every file it sent: the sources
		// are emptied as a recursive delete would.
		a.consumed(c, p.operands[:len(p.operands)-1])
	}
	if !deletes {
		return
	}
	w := p.operands[len(p.operands)-1]
	if w.Dynamic || strings.Contains(w.Value, ":") {
		return
	}
	t := a.env.resolve(w, c.Cwd)
	if t.dynamic {
		return
	}
	if cls := a.env.classify(t); cls <= clsProjectGit {
		a.tagDelete(t)
		a.judgeDelete(c, t, "")
	}
}

// tee checks tee's output files: a block device is a disk overwrite.
func (a *run) tee(c *shell.Command, args []shell.Word) {
	p := parseArgs(args[1:], teeSpec)
	for _, w := range p.operands {
		a.writeTarget(c, w, "tee")
	}
}

// redirects checks every writing redirect of c.
func (a *run) redirects(c *shell.Command) {
	for _, r := range c.Redirects {
		if !r.Writes() || (strings.HasSuffix(r.Op, "&") && !r.Target.Dynamic && strings.Trim(r.Target.Value, "0123456789-") == "") {
			continue
		}
		a.writeTarget(c, r.Target, "redirect")
	}
}

// writeTarget judges a file a command writes through a redirect or tee.
func (a *run) writeTarget(c *shell.Command, w shell.Word, how string) {
	if w.Dynamic {
		if strings.HasPrefix(w.Prefix, "/dev/") {
			a.ask("disk.dynamic-device", quote(c)+" needs confirmation: its "+how+" writes to "+w.Raw+
				", a device only known at run time, which may be a disk. Write the literal path.")
		}
		return
	}
	p := a.env.abs(w.Value, c.Cwd)
	switch {
	case blockDevice(p):
		a.deny("disk.overwrite", quote(c)+" was refused: its "+how+" writes straight onto the disk device "+p+
			", destroying its partitions and file systems. Write to a regular file instead; writing a real device is for the user to run.")
	case a.env.systemWrite(p):
		a.r.Tag(toolwall.TagSystemWrite, p, "")
	}
}

// abs makes a static path absolute against cwd; "" when cwd is unknown.
func (e *env) abs(v, cwd string) string {
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(cwd, "/") {
		return ""
	}
	return paths.Abs(v, cwd)
}

// systemWrite reports whether writing p writes the system: under a system
// root, except temp roots and device nodes (/dev/null is not a file).
func (e *env) systemWrite(p string) bool {
	return p != "" && e.underSystem(p) && !under(p, "/dev")
}

// forkBomb denies a called function that runs two copies of itself at
// once: two self-calls, one of them piped or backgrounded (c146–c149, any
// name: ":(){ :|:& };:", "bomb(){ bomb|bomb& };bomb", "f(){ f & f & }; f").
func (a *run) forkBomb() {
	for _, f := range a.script.Funcs {
		fn := strings.ToLower(f.Name)
		self, concurrent := 0, false
		for _, c := range f.Calls {
			if c.Name == fn || (c.Name == "" && len(c.Args) > 0 && selfRef(c.Args[0].Raw)) {
				self++
				concurrent = concurrent || c.Piped > 1 || c.Background
			}
		}
		if self < 2 || !concurrent {
			continue
		}
		for _, c := range a.script.Commands {
			if c.Name == fn {
				a.deny("fork-bomb", "`"+f.Name+"` was refused: it is a fork bomb: the function runs two copies of itself at once, "+
					"so processes double until the machine stops responding. Run a bounded loop or a fixed number of workers instead.")
				break
			}
		}
	}
}

// selfRef reports whether a command word names the running function
// through bash's FUNCNAME array ("$FUNCNAME", "${FUNCNAME[0]}").
func selfRef(raw string) bool {
	switch strings.ReplaceAll(raw, `"`, "") {
	case "$FUNCNAME", "${FUNCNAME}", "${FUNCNAME[0]}":
		return true
	}
	return false
}

// destructiveProgs are programs whose name, as an argument of a command
// that is itself only known at run time, makes that command look
// destructive.
var destructiveProgs = map[string]bool{
	"rm": true, "dd": true, "shred": true, "wipefs": true, "mkfs": true, "mke2fs": true,
	"fdisk": true, "sfdisk": true, "sgdisk": true, "parted": true, "unlink": true, "srm": true,
	"diskutil": true, "blkdiscard": true,
}

// dynamicCommand asks about a command whose program is only known at run
// time when it looks destructive: its known prefix or an argument names a
// destructive program, an argument is --no-preserve-root or of=/dev/…, or
// an argument is /, home or a system root: "$c -fr ~", "$(printf rm) -rf
// ~", "rm${IFS}-rf${IFS}~", "$cmd rm -rf /tmp/x" (c097–c099, c105). A
// recursive-looking option alone is not enough ("$PYTHON -m pytest -rf").
func (a *run) dynamicCommand(c *shell.Command) {
	looks := destructiveName(path.Base(c.Args[0].Prefix))
	for _, w := range c.Args[1:] {
		if looks {
			break
		}
		if w.Dynamic {
			continue
		}
		v := w.Value
		looks = destructiveName(path.Base(v)) || strings.HasPrefix(v, "--no-preserve-root") ||
			strings.HasPrefix(v, "of=/dev/")
		if !looks {
			if t := a.env.resolve(w, c.Cwd); !t.dynamic {
				cls := a.env.classify(t)
				looks = cls == clsRoot || cls == clsSystem || cls == clsHome || cls == clsOtherHome
			}
		}
	}
	if looks {
		a.ask("rm.dynamic-command", quote(c)+" needs confirmation: the program it runs ("+c.Args[0].Raw+
			") is only known at run time, and its arguments look destructive. Write the command name literally.")
	}
}

// destructiveName reports whether a program name is in destructiveProgs
// or a mkfs variant.
func destructiveName(n string) bool {
	n = strings.ToLower(n)
	return destructiveProgs[n] || strings.HasPrefix(n, "mkfs")
}

// lnSpec is GNU and BSD ln's options.
var lnSpec = optSpec{shortArg: "tS",
	long: []string{"backup", "directory", "force", "interactive", "logical", "no-dereference", "physical",
		"relative", "symbolic", "suffix", "target-directory", "no-target-directory", "verbose", "help", "version"},
	longArg: []string{"suffix", "target-directory"}}

// recordLinks remembers the renames (mv) and symbolic links (ln -s) of c,
// so later commands of the script are judged by what their paths really
// name. When it cannot tell whether the destination is a directory, both
// readings are recorded.
func (a *run) recordLinks(c *shell.Command, n string, args []shell.Word) {
	spec := mvSpec
	if n == "ln" {
		spec = lnSpec
	}
	p := parseArgs(args[1:], spec)
	if n == "ln" && !p.has("s", "symbolic") {
		return
	}
	srcs := p.operands
	var dests []string
	dir, ok := p.val("t", "target-directory")
	switch {
	case ok:
		dir = a.env.abs(dir, c.Cwd)
	case n == "ln" && len(srcs) == 1:
		dir = c.Cwd
	case len(srcs) >= 2 && !srcs[len(srcs)-1].Dynamic:
		last := srcs[len(srcs)-1]
		srcs = srcs[:len(srcs)-1]
		dest := a.env.abs(last.Value, c.Cwd)
		if len(srcs) == 1 && !strings.HasSuffix(last.Value, "/") && !p.has("T", "no-target-directory") {
			dests = append(dests, dest)
		}
		if !p.has("T", "no-target-directory") {
			dir = dest
		}
	default:
		return
	}
	for _, w := range srcs {
		if w.Dynamic || w.Glob {
			continue
		}
		// Each reading: the new name, and the directory a relative
		// symlink target is read from.
		type reading struct{ from, linkDir string }
		var rs []reading
		for _, d := range dests {
			rs = append(rs, reading{d, path.Dir(d)})
		}
		if dir != "" && path.Base(w.Value) != "/" {
			rs = append(rs, reading{path.Join(dir, path.Base(w.Value)), dir})
		}
		for _, r := range rs {
			var to string
			if n == "mv" || strings.HasPrefix(w.Value, "/") || p.has("r", "relative") {
				t := a.env.resolve(w, c.Cwd)
				if t.dynamic {
					continue
				}
				to = t.abs
			} else {
				to = path.Join(r.linkDir, w.Value)
			}
			if r.from != "" && r.from != to && len(a.env.links) < maxLinks {
				a.env.links = append(a.env.links, link{from: r.from, to: to, sym: n == "ln"})
			}
		}
	}
}
