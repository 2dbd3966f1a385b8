package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// deletes judges the deletes of one command: every Deletes effect its
// catalog entry and arguments give (rm, rmdir, unlink, shred -u, srm,
// wipe, rimraf, del-cli, shx rm, and tools that delete their inputs: tar
// --remove-files, zip -m, 7z a -sdel), rsync --delete's destination, and
// --no-preserve-root. In root context only the catastrophic set applies.
func (a *run) deletes(c *shell.Command, prog string) {
	v := c.Inv
	if v.Program() == nil {
		return
	}
	if prog == "rm" && v.Has("help", "version") {
		return // rm prints and deletes nothing
	}
	if v.Has("no-preserve-root") && (prog == "rm" || len(v.OperandsOf(programs.Delete)) > 0) {
		a.deny("rm.no-preserve-root", quote(c)+" was refused: --no-preserve-root turns off rm's own guard against deleting /, "+
			"and no ordinary task needs it. Drop the option and delete only the paths you mean.")
	}
	fed := c.Via == "find -exec" || a.fedByFind(c) != nil
	for _, x := range c.Effects {
		if x.Kind != shell.Deletes {
			continue
		}
		if prog == "rmdir" {
			// rmdir removes only empty directories: nothing is lost
			t, e := a.target(c, x, prog)
			a.tagDelete(e, t)
			continue
		}
		if x.From == "--delete" {
			a.mirror(c, x, prog)
			continue
		}
		w := x.Word
		if fed && w.Dynamic && strings.Contains(w.Raw, "{}") {
			continue // find's own rule judges what find feeds in
		}
		t, e := a.target(c, x, prog)
		a.tagDelete(e, t)
		rec := x.Recursive
		if a.env.root {
			if rec {
				a.rootDelete(c, e, t, c.Cwd)
			}
			continue
		}
		switch {
		case t.dynamic:
			if (rec || v.MaybeFlags) && !e.pinned(w, c.Cwd) {
				what := "the target " + w.Raw + " is"
				if c.Via == "xargs" {
					what = "the paths xargs reads are"
				}
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: "+what+
					" only known at run time, so they cannot be checked before they are deleted. "+
					"Write the literal paths (list or echo them first, then delete them by name).")
			}
		case rec:
			a.judgeDelete(c, e, t, "")
		case v.MaybeFlags:
			if cls := e.classify(t); cls <= clsProjectGit {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: its options come from a variable and may make it recursive, "+
					"and it names "+e.describe(t, cls)+". Write the options literally.")
			}
		case t.wipe && prog != "rmdir":
			a.judgeWipe(c, e, t)
		default:
			switch cls := e.classify(t); {
			case cls == clsProjectGit && !a.absent(e, t):
				a.gitInternals(c, t)
			case cls == clsOther && systemFile(t.abs) && !a.absent(e, t):
				a.systemFile(c, t.abs, "deletes")
			}
		}
	}
}

// systemFile asks before a system file is deleted or emptied one by one:
// the machine's configuration under /etc, and the mail and
// job spools; nothing restores it.
func (a *run) systemFile(c *shell.Command, p, verb string) {
	a.ask("rm.system-file", quote(c)+" needs confirmation: it "+verb+" "+p+", a system file nothing restores. "+
		"Leave system configuration to the user, or say what should change.")
}

// systemFile reports whether p (absolute, clean; maybe a glob) is a file
// of the system's configuration (/etc, /private/etc, /usr/local/etc) or
// spools (/var/spool, /var/mail), not one of those directories itself,
// nor a backup or temporary copy (*.bak, *.old, *.orig, *~, …).
func systemFile(p string) bool {
	base := path.Base(p)
	if strings.HasSuffix(base, "~") || strings.HasSuffix(base, ".swp") {
		return false
	}
	for _, s := range [...]string{".bak", ".old", ".orig", ".tmp", ".dpkg-", ".rpmsave", ".rpmnew", ".ucf-"} {
		if strings.Contains(base, s) {
			return false
		}
	}
	for _, r := range [...]string{"/etc", "/private/etc", "/usr/local/etc", "/var/spool", "/var/mail"} {
		if strictlyUnder(p, r) {
			return true
		}
	}
	return false
}

// mirror judges rsync --delete (and kin): whatever the destination holds
// that the sources lack is removed, so an empty source wipes it ("rsync
// -a --delete empty/ ~/"). Only a destination that is /, home, a system
// root or the project is reported: mirroring into any other directory is
// ordinary backup work. A dry run deletes nothing; a remote destination
// (host:path) has no delete effect here.
func (a *run) mirror(c *shell.Command, x shell.Effect, prog string) {
	if dryRun(c.Inv) {
		return
	}
	t, e := a.target(c, x, prog)
	if t.dynamic {
		return
	}
	if a.env.root {
		a.rootDelete(c, e, t, "")
		return
	}
	if cls := e.classify(t); cls <= clsProjectGit {
		a.tagDelete(e, t)
		a.judgeDelete(c, e, t, "")
	}
}

// dryRun reports whether rsync runs as a dry run: -n or --dry-run, the
// last of them and their --no- forms winning.
func dryRun(v *shell.Invocation) bool {
	dry := false
	for _, o := range v.Opts {
		switch o.Name {
		case "n", "dry-run":
			dry = !o.Negated
		case "no-n", "no-dry-run":
			dry = false
		}
	}
	return dry
}

// consumes judges rsync --remove-source-files: every file it sends is
// deleted, so its local sources are emptied as a recursive delete would.
// (tar --remove-files, zip -m and 7z -sdel delete their inputs by their
// catalog entries and are judged in deletes.)
func (a *run) consumes(c *shell.Command, prog string) {
	v := c.Inv
	if prog != "rsync" || !v.Has("remove-source-files") || dryRun(v) {
		return
	}
	for _, w := range v.OperandsOf(programs.Xfer) {
		if w.Dynamic || strings.Contains(w.Value, ":") {
			continue
		}
		e := &a.env
		if c.Remote {
			e = &a.remote
		}
		t := e.resolve(w, c.Cwd)
		if t.dynamic {
			continue
		}
		a.tagDelete(e, t)
		a.judgeDelete(c, e, t, "")
	}
}

// judgeWipe judges a non-recursive delete of a pure glob ("rm -f
// /etc/*"): it deletes every file directly in a directory.
func (a *run) judgeWipe(c *shell.Command, e *env, t target) {
	switch cls := e.classify(t); cls {
	case clsRoot, clsSystem, clsHome, clsOtherHome:
		a.deny("rm.dangerous-target", quote(c)+" was refused: it deletes every file in "+e.describe(t, cls)+
			", which cannot be undone. Delete the specific files you mean by name.")
	case clsProject:
		if why := a.recoverable(t.base); why != "" {
			a.ask("rm.project-subtree", quote(c)+" needs confirmation: it deletes every file at the top of the project ("+
				t.abs+") and "+why+". Delete the files you mean by name.")
		}
	case clsProjectGit:
		a.gitInternals(c, t)
	}
}

// gitInternals asks before files of git's own store are deleted one by
// one (.git/HEAD, objects, refs, logs, the index): commits and branches
// can be lost that no command restores. Lock files and hooks are not
// core and pass.
func (a *run) gitInternals(c *shell.Command, t target) {
	a.ask("rm.git-internals", quote(c)+" needs confirmation: it deletes "+t.abs+", part of git's own store of commits and branches, "+
		"which git may not be able to rebuild. Use git commands (git gc, git branch -d, git update-ref) instead.")
}

// judgeDelete judges the recursive delete of one resolved target by its
// class (user context). via overrides the finding's command quote when
// the delete is find's. A target of an ask class that does not exist on
// this machine loses nothing and passes.
func (a *run) judgeDelete(c *shell.Command, e *env, t target, via string) {
	cls := e.classify(t)
	if r := deleteRule(cls); r == "" || a.reported(r) {
		return
	}
	what := via
	if what == "" {
		what = quote(c)
	}
	switch cls {
	case clsRoot, clsSystem, clsHome, clsOtherHome:
		a.deny("rm.dangerous-target", what+" was refused: it recursively deletes "+e.describe(t, cls)+
			", which cannot be undone. Delete only the specific files or directories you mean, by their path inside the project.")
	case clsProject:
		a.deny("rm.project-folder", what+" was refused: it deletes "+e.describe(t, cls)+
			", the work you are here to help with. Delete specific files or subdirectories by name, or ask the user to do it.")
	case clsProjectGit:
		a.deny("rm.project-folder", what+" was refused: it deletes "+e.describe(t, cls)+
			", and no commit can be restored after that. Use git itself (git gc, git branch -D, git worktree remove) for what you need.")
	case clsProjectSub:
		rel := strings.TrimPrefix(strings.TrimPrefix(t.abs, e.project), "/")
		if isArtifact(rel) || a.absent(e, t) {
			return
		}
		why := a.recoverable(t.base)
		if why == "" {
			return
		}
		a.ask("rm.project-subtree", what+" needs confirmation: it deletes "+t.abs+" and "+why+
			". Commit or move what must be kept first, or delete only the files you mean.")
	case clsHomeSub:
		if a.absent(e, t) {
			return
		}
		a.ask("rm.home-subtree", what+" needs confirmation: it deletes "+t.abs+" in your home directory, outside the project, "+
			"where nothing can restore it. Leave it to the user, or work inside the project or a temp directory.")
	case clsOther:
		if a.absent(e, t) {
			return
		}
		a.ask("rm.outside-project", what+" needs confirmation: it deletes "+t.abs+", outside the project and the temp directories, "+
			"where nothing can restore it. Leave it to the user, or work inside the project or a temp directory.")
	}
}

// deleteRule is the rule judgeDelete reports for a class ("" for none).
func deleteRule(cls class) string {
	switch cls {
	case clsRoot, clsSystem, clsHome, clsOtherHome:
		return "rm.dangerous-target"
	case clsProject, clsProjectGit:
		return "rm.project-folder"
	case clsProjectSub:
		return "rm.project-subtree"
	case clsHomeSub:
		return "rm.home-subtree"
	case clsOther:
		return "rm.outside-project"
	}
	return ""
}

// rootDelete judges a recursive delete in root context: only the
// catastrophic set (checkCatastrophicRm): /, a bare glob over
// the working directory cwd, home (or an ancestor), the project.
func (a *run) rootDelete(c *shell.Command, e *env, t target, cwd string) {
	if t.dynamic {
		return
	}
	bare := t.wipe && t.base == cwd
	switch {
	case t.base == "/" && (!t.glob || t.wipe), bare, e.home != "" && under(e.home, t.base) && (!t.glob || t.wipe):
		a.deny("rm.catastrophic", quote(c)+" was refused: it deletes "+e.describe(t, e.classify(t))+
			", which even the root helper must never do. Name the specific directory to remove.")
	case e.project != "" && under(e.project, t.base) && (!t.glob || t.wipe):
		a.deny("rm.project-folder", quote(c)+" was refused: it deletes "+e.describe(t, clsProject)+
			", the work you are here to help with. Delete specific files or subdirectories by name.")
	}
}

// pinned reports whether a dynamic target is known to stay strictly inside
// a temp directory: "/tmp/test-$$" (a literal temp prefix followed only by
// numeric shell parameters and literal text without ".."), or
// "$TMPDIR/name" whose fallback, when TMPDIR is unset, is harmless too.
func (e *env) pinned(w shell.Word, cwd string) bool {
	raw := w.Raw
	if strings.ContainsRune(raw, '\'') {
		return false
	}
	raw = strings.ReplaceAll(raw, `"`, "")
	if rest, fallback, ok := cutTMPDIR(raw); ok {
		if strings.ContainsAny(rest, "$`*?[") || strings.Contains(rest, "..") || strings.Trim(rest, "/") == "" {
			return false
		}
		t := e.resolve(shell.Word{Raw: fallback + rest, Value: fallback + rest, Prefix: fallback + rest}, cwd)
		return !t.dynamic && e.classify(t) >= clsProjectSub
	}
	i := strings.IndexAny(raw, "$`")
	if i < 0 || !strings.HasPrefix(w.Prefix, "/") || !numericTail(raw[i:]) {
		return false
	}
	dir := w.Prefix[:strings.LastIndexByte(w.Prefix, '/')+1]
	if strings.Contains(w.Prefix, "..") {
		return false
	}
	return underTemp(path.Clean(dir), true)
}

// cutTMPDIR splits a raw word that starts with $TMPDIR, ${TMPDIR} or
// ${TMPDIR:-/x} into the rest and what the variable is when unset.
func cutTMPDIR(raw string) (rest, fallback string, ok bool) {
	for _, p := range []string{"$TMPDIR", "${TMPDIR}", "${TMPDIR:?}"} {
		if r, ok := strings.CutPrefix(raw, p); ok && (r == "" || r[0] == '/') {
			return r, "", true
		}
	}
	for _, p := range []string{"${TMPDIR:-", "${TMPDIR-"} {
		if r, ok := strings.CutPrefix(raw, p); ok {
			def, rest, found := strings.Cut(r, "}")
			if !found || strings.ContainsAny(def, "$`{") {
				return "", "", false
			}
			return rest, def, true
		}
	}
	return "", "", false
}

// numericTail reports whether s (raw text from the first expansion on)
// holds only shell parameters that always expand to digits ($$, $RANDOM,
// ${PPID}, …) and literal text that cannot climb out of the directory
// ("..").
func numericTail(s string) bool {
	if strings.Contains(s, "..") {
		return false
	}
	for s != "" {
		switch {
		case strings.HasPrefix(s, "$$"):
			s = s[2:]
		case strings.HasPrefix(s, "${$}"):
			s = s[4:]
		case s[0] == '$':
			n, braced := s[1:], false
			if strings.HasPrefix(n, "{") {
				n, braced = n[1:], true
			}
			r, ok := cutNumericParam(n)
			if !ok {
				return false
			}
			if braced {
				if !strings.HasPrefix(r, "}") {
					return false
				}
				r = r[1:]
			} else if r != "" && isNameByte(r[0]) {
				return false
			}
			s = r
		case isNameByte(s[0]) || s[0] == '.' || s[0] == '-' || s[0] == '/':
			s = s[1:]
		default:
			return false
		}
	}
	return true
}

// cutNumericParam cuts the name of a shell parameter that always expands
// to digits from the start of s.
func cutNumericParam(s string) (string, bool) {
	end := 0
	for end < len(s) && isNameByte(s[end]) {
		end++
	}
	switch s[:end] {
	case "RANDOM", "BASHPID", "PPID", "SECONDS", "EPOCHSECONDS", "UID", "EUID", "LINENO":
		return s[end:], true
	}
	return "", false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// fedByFind returns the find whose output an xargs tail works on directly
// ("find . -name x | xargs rm"), or nil.
func (a *run) fedByFind(c *shell.Command) *shell.Command {
	if c.Via != "xargs" || c.Parent == nil {
		return nil
	}
	x := c.Parent
	if x.Stdin.Kind == shell.StdinPipe && x.Stdin.From != nil && progName(x.Stdin.From) == "find" {
		return x.Stdin.From
	}
	return nil
}
