package destroy

import (
	"path"
	"strings"
	"sync"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// SystemRoots are the top-level directories of Linux and macOS systems
// whose recursive delete, chmod -R or chown -R is denied (the shell guardrail's
// "system root"), together with a glob over their contents. Treat the list
// as read-only.
var SystemRoots = []string{
	"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64",
	"/libx32", "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin",
	"/snap", "/srv", "/sys", "/usr", "/var",
	// macOS.
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/cores",
	"/private",
	// Nix and Homebrew on Linux.
	"/nix", "/home/linuxbrew",
}

// CriticalDirs are second-level system directories that are denied like a
// system root: the OS and its installed software live there. Anything else
// under a system root (/etc/old-config, /usr/local/old, /srv/data) is held
// for a human (rm.outside-project). Treat the list as read-only.
var CriticalDirs = []string{
	"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64",
	"/usr/libexec", "/usr/include", "/usr/share", "/usr/local", "/usr/src",
	"/var/lib", "/var/db", "/var/log", "/var/spool", "/var/mail", "/var/backups",
	"/etc/ssh", "/etc/ssl", "/etc/pam.d", "/etc/sudoers.d", "/etc/systemd",
	"/System/Library", "/System/Applications", "/System/Volumes",
	"/Library/Apple", "/Library/Preferences", "/Library/LaunchDaemons",
	"/private/etc", "/private/var", "/nix/store", "/opt/homebrew",
	"/usr/local/bin", "/usr/local/lib", "/usr/local/Cellar",
}

// WindowsRoots are Windows' system directories as the PowerShell reader
// spells them (C:\Windows is /Windows), denied like a system root and
// matched without regard to case, as Windows matches them. Treat the
// list as read-only.
var WindowsRoots = []string{
	"/Windows", "/Windows/System32", "/Windows/SysWOW64", "/Program Files", "/Program Files (x86)", "/ProgramData",
}

// TempRoots are directories whose strict subtrees may be deleted freely
// (outside the project and home). A glob over their contents (/tmp/*) is
// allowed too; the directory itself is held for a human (other users' files
// and sockets live there). $TMPDIR is recognised in the command text.
var TempRoots = []string{
	"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm",
	"/var/folders", "/private/var/folders",
}

// PackageStores are paths relative to home where package managers keep
// what they download and fetch again on demand (npm's _cacache and _npx,
// pnpm's store, Go's module cache, Maven's and Cargo's registries, …).
// With ~/.cache, ~/Library/Caches and every directory named as a cache
// inside a tool's hidden directory (see [isCacheRel]) they are the home's
// caches: deleting them is allowed and not tagged "protected". Treat the
// list as read-only.
var PackageStores = []string{
	".npm/_cacache", ".npm/_npx", ".npm/_logs", ".npm/_prebuilds",
	".pnpm-store", ".local/share/pnpm/store", "Library/pnpm/store",
	".yarn/berry/cache", ".bun/install/cache", "go/pkg/mod",
	".m2/repository", ".cargo/registry", ".cargo/git", ".nuget/packages",
	".conda/pkgs", ".gradle/wrapper/dists", ".cabal/packages", ".node-gyp",
	".electron-gyp", "Library/Developer/Xcode/DerivedData",
}

// SystemCaches are system directories whose contents package managers
// rebuild (apt's lists, /var/cache): their subtrees may be deleted.
// Treat the list as read-only.
var SystemCaches = []string{"/var/cache", "/var/lib/apt/lists", "/Library/Caches"}

// Artifacts are base-name patterns (path.Match syntax) of build output and
// tool caches inside a project: a recursive delete of a path with such an
// element is allowed without asking git (c266–c277). Treat the list as
// read-only.
var Artifacts = []string{
	"node_modules", "bower_components", "build", "dist", "target", "out",
	"tmp", ".tmp", "__pycache__", ".pytest_cache", ".mypy_cache",
	".ruff_cache", ".hypothesis", ".venv", "venv", ".tox", ".nox", ".eggs",
	"*.egg-info", "htmlcov", ".next", ".nuxt", ".svelte-kit", ".angular",
	".parcel-cache", ".turbo", ".cache", "coverage", ".nyc_output",
	".gradle", ".terraform", ".dart_tool", ".build", "_build", "DerivedData",
	"Pods", ".stack-work", "dist-newstyle", "zig-cache", ".zig-cache",
	"zig-out", "elm-stuff", ".serverless", ".vercel", ".docusaurus",
	"storybook-static", ".sass-cache", ".ipynb_checkpoints", "cmake-build-*",
	".expo", ".vite", ".webpack", ".jekyll-cache", "_site", ".cargo-target",
}

// isAuthFile reports whether a base name is a credential file's: deleting
// one is tagged "protected" even inside the project.
func isAuthFile(base string) bool {
	switch base {
	case ".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials",
		"id_rsa", "id_rsa.pub", "id_ed25519", "id_ecdsa", "id_dsa",
		"credentials", "authorized_keys", "known_hosts",
		"shadow", "passwd", "sudoers":
		return true
	}
	return strings.HasPrefix(base, ".env.") ||
		strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key") || strings.HasSuffix(base, ".p12")
}

// class is what a delete target is, from worst to mildest.
type class uint8

const (
	clsRoot       class = iota + 1 // "/"
	clsSystem                      // a system root, critical dir, or a glob reaching one
	clsHome                        // the user's home or an ancestor of it
	clsOtherHome                   // another user's home (/home/bob, ~bob)
	clsProject                     // the project folder, an ancestor of it, or a wipe of it
	clsProjectGit                  // the project's .git
	clsProjectSub                  // strictly inside the project
	clsGitLock                     // a lock file in the project's .git (index.lock): git's, not history
	clsTemp                        // strictly inside a temp root, or a wipe of one
	clsCache                       // a cache under home or a system cache
	clsHomeSub                     // strictly inside home, outside project and caches
	clsOther                       // any other absolute path
)

// target is one resolved operand of a destructive command.
type target struct {
	word shell.Word
	// abs is the absolute cleaned path; for a glob, the cleaned pattern.
	abs string
	// base is the static directory before the first glob element (abs
	// when there is no glob).
	base string
	// wipe is set for a glob whose elements after base are all pure
	// wildcards ("*", ".*", "[a-z]*"): it deletes base's contents.
	wipe bool
	// glob is set when the word has pattern characters.
	glob bool
	// dynamic is set when the path is not known before run time.
	dynamic bool
}

// env holds the places of one call.
type env struct {
	home, project string
	root          bool
	// links are the renames and symbolic links made earlier in the same
	// script, newest last (see [env.unlink]).
	links []link
}

// link says that, for the rest of a script, the path from names what was
// at to: a directory moved by mv (from is its new name) or a symbolic link
// made by ln -s (from is the link). A symbolic link only leads to its
// target for a path that goes through it ("link/", "link/x", "link/*");
// "rm -rf link" removes the link itself.
type link struct {
	from, to string
	sym      bool
}

// maxLinks bounds how many renames and links one script records.
const maxLinks = 32

// unlink maps an absolute cleaned path p (slash is set when the word
// ended in "/") back through the script's links to what it names: "mv ~
// /tmp/x && rm -rf /tmp/x" deletes home, "ln -s / r && rm -rf r/*" the
// root. Each link is applied at most once, newest first.
func (e *env) unlink(p string, slash bool) string {
	for i := len(e.links) - 1; i >= 0; i-- {
		l := e.links[i]
		through := strictlyUnder(p, l.from) || (p == l.from && (!l.sym || slash))
		if !through {
			continue
		}
		p = path.Join(l.to, strings.TrimPrefix(p, l.from))
	}
	return p
}

// resolve turns a word into a target against the command's cwd ("" when a
// dynamic cd made it unknown).
func (e *env) resolve(w shell.Word, cwd string) target {
	t := target{word: w, glob: w.Glob}
	if w.Dynamic {
		t.dynamic = true
		return t
	}
	v := w.Value
	if strings.HasPrefix(v, "~") && strings.HasPrefix(w.Raw, "~") {
		v = e.otherHome(v)
	}
	if !strings.HasPrefix(v, "/") && !strings.HasPrefix(cwd, "/") {
		t.dynamic = true
		return t
	}
	t.abs = paths.Abs(v, cwd)
	if len(e.links) > 0 {
		t.abs = e.unlink(t.abs, strings.HasSuffix(v, "/") || strings.HasSuffix(v, "/."))
	}
	t.base = t.abs
	if !t.glob || !hasMeta(t.abs) {
		t.glob = false
		return t
	}
	elems := strings.Split(t.abs, "/")
	first := -1
	for i, el := range elems {
		if hasMeta(el) {
			first = i
			break
		}
	}
	t.base = strings.Join(elems[:first], "/")
	if t.base == "" {
		t.base = "/"
	}
	t.wipe = true
	for _, el := range elems[first:] {
		if !pureWildcard(el) {
			t.wipe = false
		}
	}
	return t
}

// otherHome maps "~name[/rest]" (a user the reader did not resolve) to
// that user's home: /root for root, else beside the caller's home
// (/home/name or /Users/name).
func (e *env) otherHome(v string) string {
	name, rest, _ := strings.Cut(v[1:], "/")
	if name == "" {
		return v
	}
	dir := "/home"
	if strings.HasPrefix(e.home, "/Users/") {
		dir = "/Users"
	}
	h := dir + "/" + name
	if name == "root" {
		h = "/root"
	}
	if rest != "" {
		h += "/" + rest
	}
	return h
}

// under is [paths.Under] without building root+"/" on every call (it runs
// for every list entry on every operand).
func under(p, root string) bool {
	if root == "" || p == "" {
		return false
	}
	return root == "/" || p == root || len(p) > len(root) && p[len(root)] == '/' && strings.HasPrefix(p, root)
}

// strictlyUnder is [paths.StrictlyUnder] without the allocation.
func strictlyUnder(p, root string) bool { return p != root && under(p, root) }

// hasMeta reports whether s has glob pattern characters.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// pureWildcard reports whether a glob element matches names without
// naming any: only *, ?, . and bracket expressions.
func pureWildcard(el string) bool {
	for i := 0; i < len(el); i++ {
		switch el[i] {
		case '*', '?', '.':
		case '[':
			j := strings.IndexByte(el[i+1:], ']')
			if j < 0 {
				return false
			}
			i += j + 1
		default:
			return false
		}
	}
	return el != ""
}

// classify says what a non-dynamic target is.
func (e *env) classify(t target) class {
	p := t.base
	if t.glob && !t.wipe {
		// A selective glob is as bad as the worst protected path it can
		// match; otherwise it is judged as a path as deep under base as
		// the pattern is ("/etc/*.conf" as a file in /etc).
		if c, ok := e.globReach(t.abs); ok {
			return c
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(t.abs, t.base), "/")
		for range strings.Count(rest, "/") + 1 {
			p = path.Join(p, "\x00")
		}
	}
	switch {
	case p == "/":
		return clsRoot
	case e.home != "" && under(e.home, p):
		return clsHome
	case isSystem(p):
		return clsSystem
	case e.isOtherHome(p):
		return clsOtherHome
	case e.project != "" && under(e.project, p):
		return clsProject
	case e.project != "" && under(p, e.project+"/.git"):
		if p == e.project+"/.git" || t.wipe {
			return clsProjectGit
		}
		if strings.HasSuffix(t.abs, ".lock") {
			return clsGitLock // every path it names is a lock file
		}
		if isGitCore(strings.TrimPrefix(p, e.project+"/.git/")) {
			return clsProjectGit
		}
		return clsProjectSub
	case e.project != "" && under(p, e.project):
		return clsProjectSub
	case e.home != "" && under(p, e.home):
		// Before the temp roots: a home may lie in one (HOME=/tmp/… in
		// containers and CI), and it is a home there too.
		if e.isHomeCache(p) {
			return clsCache
		}
		return clsHomeSub
	case underTemp(p, t.wipe):
		return clsTemp
	case systemCache(p, t.wipe):
		return clsCache
	}
	return clsOther
}

// globReach returns the worst protected class a selective glob pattern can
// match: "/*/lib" reaches /usr/lib, "/workspace/ap*" the project.
func (e *env) globReach(pattern string) (class, bool) {
	match := func(p string) bool {
		ok, err := path.Match(pattern, p)
		return ok && err == nil
	}
	if match("/") {
		return clsRoot, true
	}
	if e.home != "" && match(e.home) {
		return clsHome, true
	}
	for _, list := range [][]string{SystemRoots, CriticalDirs} {
		for _, s := range list {
			if match(s) {
				return clsSystem, true
			}
		}
	}
	if e.project != "" && (match(e.project) || match(e.project+"/.git")) {
		return clsProject, true
	}
	return 0, false
}

// isSystem reports whether p is a system root or a critical dir (of
// Windows too).
func isSystem(p string) bool {
	for _, list := range [][]string{SystemRoots, CriticalDirs} {
		for _, s := range list {
			if p == s {
				return true
			}
		}
	}
	for _, s := range WindowsRoots {
		if strings.EqualFold(p, s) {
			return true
		}
	}
	return false
}

// underSystem reports whether p is a system root or inside one, except
// temp roots, users' homes (/home/x/…, /Users/x/…, the caller's home) and
// the project.
func (e *env) underSystem(p string) bool {
	if underTemp(p, true) || e.home != "" && under(p, e.home) || e.project != "" && under(p, e.project) {
		return false
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(p, h); ok && strings.Contains(rest, "/") {
			return false
		}
	}
	for _, s := range SystemRoots {
		if under(p, s) {
			return true
		}
	}
	for _, s := range WindowsRoots {
		if under(strings.ToLower(p), strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// isOtherHome reports whether p is a user's home directory: a direct child
// of /home or /Users, or /root.
func (e *env) isOtherHome(p string) bool {
	d := path.Dir(p)
	return p == "/root" || ((d == "/home" || d == "/Users") && p != "/Users/Shared")
}

// isGitCore reports whether rel (inside .git) holds the history itself.
func isGitCore(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	switch first {
	case "objects", "refs", "logs", "packed-refs", "HEAD", "index":
		return true
	}
	return false
}

// underTemp reports whether p is strictly inside a temp root, or is one
// when wipe (its contents only) is set.
func underTemp(p string, wipe bool) bool {
	for _, r := range TempRoots {
		if strictlyUnder(p, r) || (wipe && p == r) {
			return true
		}
	}
	return false
}

// isHomeCache reports whether p is a cache under home (see isCacheRel).
func (e *env) isHomeCache(p string) bool {
	if e.home == "" || !strictlyUnder(p, e.home) {
		return false
	}
	return isCacheRel(p[len(e.home)+1:])
}

// isCacheRel reports whether rel, a clean path relative to home, is a
// cache: tools rebuild or re-download what is there. Caches are a class,
// not a list of tools: ~/.cache (XDG) and ~/Library/Caches (macOS) with
// everything under them; a directory named as a cache (cache, caches,
// _cacache, *-cache, *_cache, …) inside a tool's hidden directory or
// ~/Library (~/.gradle/caches, ~/.cargo/registry/cache, ~/.yarn/cache,
// ~/.pub-cache, ~/.ccache); and the package managers' download stores
// (PackageStores: ~/.npm/_npx, ~/go/pkg/mod, ~/.m2/repository, …). A
// tool's directory itself (~/.npm, ~/.gradle) holds configuration and
// is not a cache.
func isCacheRel(rel string) bool {
	if under(rel, ".cache") || strictlyUnder(rel, "Library/Caches") {
		return true
	}
	for _, s := range PackageStores {
		if under(rel, s) {
			return true
		}
	}
	first, rest, _ := strings.Cut(rel, "/")
	if !strings.HasPrefix(first, ".") && first != "Library" {
		return false
	}
	if cacheName(strings.TrimPrefix(first, ".")) {
		return true
	}
	for el := range strings.SplitSeq(rest, "/") {
		if el != "" && cacheName(el) {
			return true
		}
	}
	return false
}

// cacheName reports whether a directory name says it holds a cache.
func cacheName(el string) bool {
	l := strings.ToLower(el)
	switch l {
	case "cache", "caches", ".cache", "_cacache", "cache2", "cacheddata", "cachestorage", "gpucache",
		"code cache", "shadercache", "ccache", "sccache":
		return true
	}
	return strings.HasSuffix(l, "-cache") || strings.HasSuffix(l, "_cache") || strings.HasSuffix(l, ".cache")
}

// systemCache reports whether p is strictly inside a system cache
// directory (SystemCaches), or is one when wipe (its contents only) is
// set.
func systemCache(p string, wipe bool) bool {
	for _, s := range SystemCaches {
		if strictlyUnder(p, s) || wipe && p == s {
			return true
		}
	}
	return false
}

// artifacts holds Artifacts split into exact names and patterns, built
// on first use.
var artifacts struct {
	once     sync.Once
	names    map[string]bool
	patterns []string
}

// isArtifact reports whether any element of rel (a path relative to the
// project, maybe with a glob last element) is build output or a cache.
func isArtifact(rel string) bool {
	artifacts.once.Do(func() {
		artifacts.names = make(map[string]bool, len(Artifacts))
		for _, a := range Artifacts {
			if hasMeta(a) {
				artifacts.patterns = append(artifacts.patterns, a)
			} else {
				artifacts.names[a] = true
			}
		}
	})
	for el := range strings.SplitSeq(rel, "/") {
		if artifacts.names[el] {
			return true
		}
		for _, a := range artifacts.patterns {
			if ok, _ := path.Match(a, el); ok {
				return true
			}
		}
	}
	return false
}

// protected reports whether deleting p loses data the user cares about
// beyond the project: under home outside the project and its caches, under
// a system root, or a credential file.
func (e *env) protected(p string) bool {
	if p == "" {
		return false
	}
	if isAuthFile(path.Base(p)) {
		return true
	}
	inProject := e.project != "" && under(p, e.project)
	if e.home != "" && under(p, e.home) && !inProject && !e.isHomeCache(p) {
		return true
	}
	return p == "/" || e.underSystem(p) && !systemCache(p, false)
}

// describe names a classified target for a reason.
func (e *env) describe(t target, c class) string {
	p := t.abs
	switch c {
	case clsRoot:
		return "the whole filesystem (" + p + ")"
	case clsSystem:
		return "the system directory " + p
	case clsHome:
		if t.base == e.home {
			return "your home directory (" + p + ")"
		}
		return p + ", which holds your home directory"
	case clsOtherHome:
		return "the home directory " + p
	case clsProject:
		if t.base == e.project {
			return "the project folder (" + p + ")"
		}
		return p + ", which holds the project folder " + e.project
	case clsProjectGit:
		return "the project's git history (" + p + ")"
	}
	return p
}
