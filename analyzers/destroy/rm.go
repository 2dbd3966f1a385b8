package destroy

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// rmSpec is GNU and BSD rm's options.
var rmSpec = optSpec{
	long: []string{"recursive", "force", "interactive", "one-file-system",
		"no-preserve-root", "preserve-root", "dir", "verbose", "help", "version"},
}

// rm checks one rm command.
func (a *run) rm(c *shell.Command, args []shell.Word) {
	p := parseArgs(args[1:], rmSpec)
	if p.has("help", "version") {
		return
	}
	recursive := p.has("r", "R", "recursive")
	if p.has("no-preserve-root") {
		a.deny("rm.no-preserve-root", quote(c)+" was refused: --no-preserve-root turns off rm's own guard against deleting /, "+
			"and no ordinary task needs it. Drop the option and delete only the paths you mean.")
	}
	fed := c.Via == "find -exec" || a.fedByFind(c) != nil
	for _, w := range p.operands {
		if fed && w.Dynamic && strings.Contains(w.Raw, "{}") {
			continue // find's own rule judges what find feeds in
		}
		t := a.env.resolve(w, c.Cwd)
		a.tagDelete(t)
		if a.env.root {
			if recursive {
				a.rootDelete(c, t, c.Cwd)
			}
			continue
		}
		switch {
		case t.dynamic:
			if (recursive || p.maybeFlags) && !a.env.pinned(w, c.Cwd) {
				what := "the target " + w.Raw + " is"
				if c.Via == "xargs" {
					what = "the paths xargs reads are"
				}
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: "+what+
					" only known at run time, so they cannot be checked before they are deleted. "+
					"Write the literal paths (list or echo them first, then delete them by name).")
			}
		case recursive:
			a.judgeDelete(c, t, "")
		case p.maybeFlags:
			if cls := a.env.classify(t); cls <= clsProjectGit {
				a.ask("rm.dynamic-target", quote(c)+" needs confirmation: its options come from a variable and may make it recursive, "+
					"and it names "+a.env.describe(t, cls)+". Write the options literally.")
			}
		case t.wipe:
			a.judgeWipe(c, t)
		default:
			if a.env.classify(t) == clsProjectGit {
				a.gitInternals(c, t)
			}
		}
	}
}

// judgeWipe judges a non-recursive rm of a pure glob ("rm -f /etc/*"): it
// deletes every file directly in a directory.
func (a *run) judgeWipe(c *shell.Command, t target) {
	switch cls := a.env.classify(t); cls {
	case clsRoot, clsSystem, clsHome, clsOtherHome:
		a.deny("rm.dangerous-target", quote(c)+" was refused: it deletes every file in "+a.env.describe(t, cls)+
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
// class (user context). verb overrides the finding's command quote when
// the delete is find's.
func (a *run) judgeDelete(c *shell.Command, t target, via string) {
	cls := a.env.classify(t)
	what := via
	if what == "" && cls != clsTemp && cls != clsHomeCache && cls != clsProjectSub {
		what = quote(c)
	}
	switch cls {
	case clsRoot, clsSystem, clsHome, clsOtherHome:
		a.deny("rm.dangerous-target", what+" was refused: it recursively deletes "+a.env.describe(t, cls)+
			", which cannot be undone. Delete only the specific files or directories you mean, by their path inside the project.")
	case clsProject:
		a.deny("rm.project-folder", what+" was refused: it deletes "+a.env.describe(t, cls)+
			", the work you are here to help with. Delete specific files or subdirectories by name, or ask the user to do it.")
	case clsProjectGit:
		a.deny("rm.project-folder", what+" was refused: it deletes "+a.env.describe(t, cls)+
			", and no commit can be restored after that. Use git itself (git gc, git branch -D, git worktree remove) for what you need.")
	case clsProjectSub:
		rel := strings.TrimPrefix(strings.TrimPrefix(t.abs, a.env.project), "/")
		if isArtifact(rel) {
			return
		}
		why := a.recoverable(t.base)
		if why == "" {
			return
		}
		if what == "" {
			what = quote(c)
		}
		a.ask("rm.project-subtree", what+" needs confirmation: it deletes "+t.abs+" and "+why+
			". Commit or move what must be kept first, or delete only the files you mean.")
	case clsHomeSub:
		a.ask("rm.home-subtree", what+" needs confirmation: it deletes "+t.abs+" in your home directory, outside the project, "+
			"where nothing can restore it. Leave it to the user, or work inside the project or a temp directory.")
	case clsOther:
		a.ask("rm.outside-project", what+" needs confirmation: it deletes "+t.abs+", outside the project and the temp directories, "+
			"where nothing can restore it. Leave it to the user, or work inside the project or a temp directory.")
	}
}

// rootDelete judges a recursive delete in root context: only the
// catastrophic set (seed 004, checkCatastrophicRm): /, a bare glob over
// the working directory cwd, home (or an ancestor), the project.
func (a *run) rootDelete(c *shell.Command, t target, cwd string) {
	if t.dynamic {
		return
	}
	e := &a.env
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
		return e.classify(t) >= clsProjectSub
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

// numericParams are shell parameters that always expand to digits.
var numericParams = []string{"RANDOM", "BASHPID", "PPID", "SECONDS", "EPOCHSECONDS", "UID", "EUID", "LINENO"}

// numericTail reports whether s (raw text from the first expansion on)
// holds only numeric parameters ($$, $RANDOM, ${PPID}) and literal text
// that cannot climb out of the directory ("..").
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
			matched := false
			for _, p := range numericParams {
				if r, ok := strings.CutPrefix(n, p); ok {
					if braced {
						if !strings.HasPrefix(r, "}") {
							continue
						}
						r = r[1:]
					} else if r != "" && isNameByte(r[0]) {
						continue
					}
					s, matched = r, true
					break
				}
			}
			if !matched {
				return false
			}
		case isNameByte(s[0]) || s[0] == '.' || s[0] == '-' || s[0] == '/':
			s = s[1:]
		default:
			return false
		}
	}
	return true
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// fedByFind returns the find whose output an xargs tail deletes directly
// ("find . -name x | xargs rm"), or nil.
func (a *run) fedByFind(c *shell.Command) *shell.Command {
	if c.Via != "xargs" || c.Parent == nil {
		return nil
	}
	x := c.Parent
	if x.Stdin.Kind == shell.StdinPipe && x.Stdin.From != nil {
		if n, _ := name(x.Stdin.From); n == "find" {
			return x.Stdin.From
		}
	}
	return nil
}
