package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers/files"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// write is one file a command writes.
type write struct {
	w shell.Word
	// stage is set for copies, moves, links and downloads: a file made
	// elsewhere put into place.
	stage bool
	// replace is set when the file's old content is lost: truncating
	// redirects, tee without -a, cp/mv/dd onto it, truncate, sed -i.
	replace bool
	// touch is set for touch, which only creates an empty file.
	touch bool
	// redir is the operator of a redirection ("" for argv writes).
	redir string
	// srcs are the base names of the sources of a copy whose destination
	// may be a directory: each is also judged inside it.
	srcs []string
}

// writers extracts the files c writes by its argv.
var writers = map[string]func(k *checker, c *shell.Command) []write{
	"tee": teeWrites, "sponge": teeWrites,
	"cp": copyWrites, "gcp": copyWrites, "mv": copyWrites, "gmv": copyWrites,
	"install": installWrites, "ginstall": installWrites,
	"ln": copyWrites, "gln": copyWrites,
	"rsync": rsyncWrites, "scp": scpWrites, "ditto": dittoWrites,
	"dd":       ddWrites,
	"sed":      sedWrites,
	"gsed":     sedWrites,
	"perl":     perlWrites,
	"truncate": truncateWrites,
	"touch":    touchWrites,
	"curl":     curlWrites,
	"wget":     wgetWrites,
}

// writes judges every file c writes: by redirection and by its argv.
func (k *checker) writes(c *shell.Command) {
	for _, r := range c.Redirects {
		if !r.Writes() {
			continue
		}
		op := r.Op
		k.judgeWrite(c, write{w: r.Target, redir: r.Fd + op, replace: op == ">" || op == ">|" || op == "&>"})
	}
	if f, ok := writers[c.Name]; ok {
		for _, w := range f(k, c) {
			k.judgeWrite(c, w)
		}
	}
}

func teeWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{long: []string{"append", "ignore-interrupts", "output-error"}})
	var out []write
	for _, w := range a.operands {
		out = append(out, write{w: w, replace: !a.has("-a", "--append")})
	}
	return out
}

var copySpec = spec{vals: "St", long: []string{"target-directory=", "suffix=", "no-preserve=", "backup", "symbolic", "force", "no-target-directory", "recursive", "archive", "preserve", "parents", "link", "reflink", "sparse", "update", "verbose", "interactive", "no-clobber", "no-dereference", "dereference", "one-file-system", "relative", "logical", "physical", "strip-trailing-slashes", "attributes-only", "copy-contents", "remove-destination", "context"}}

// copyWrites: cp, mv, ln: the destination (-t DIR, else the last operand;
// ln with one operand links into the working directory).
func copyWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], copySpec)
	return destWrites(a.values("-t", "--target-directory"), a.operands, c.Name == "ln" || c.Name == "gln")
}

// destWrites builds the writes of a copy-like command from its -t
// directories and operands.
func destWrites(tdirs, ops []shell.Word, lnStyle bool) []write {
	if len(tdirs) > 0 {
		var out []write
		for _, d := range tdirs {
			out = append(out, write{w: d, stage: true, replace: true, srcs: bases(ops)})
		}
		return out
	}
	switch {
	case len(ops) >= 2:
		return []write{{w: ops[len(ops)-1], stage: true, replace: true, srcs: bases(ops[:len(ops)-1])}}
	case len(ops) == 1 && lnStyle && !ops[0].Dynamic:
		b := path.Base(ops[0].Value)
		return []write{{w: shell.Word{Raw: b, Value: b, Prefix: b}, stage: true}}
	}
	return nil
}

// bases returns the static base names of words (dynamic ones left out).
func bases(ws []shell.Word) []string {
	var out []string
	for _, w := range ws {
		if !w.Dynamic && w.Value != "" {
			out = append(out, path.Base(w.Value))
		}
	}
	return out
}

// installWrites: install -d DIR… creates every operand; otherwise like cp.
func installWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "gmoStZ", long: []string{"group=", "mode=", "owner=", "suffix=", "target-directory=", "strip-program=", "directory", "compare", "preserve-timestamps", "strip", "verbose", "backup", "no-target-directory", "preserve-context", "context"}})
	if a.has("-d", "--directory") {
		var out []write
		for _, w := range a.operands {
			out = append(out, write{w: w, stage: true})
		}
		return out
	}
	return destWrites(a.values("-t", "--target-directory"), a.operands, false)
}

// remote reports an scp/rsync operand that names another host
// ("host:path", "user@host:path", "rsync://…").
func remote(w shell.Word) bool {
	v := w.Value
	if strings.Contains(v, "://") {
		return true
	}
	colon := strings.IndexByte(v, ':')
	slash := strings.IndexByte(v, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

func rsyncWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "efBTM", long: []string{"rsh=", "filter=", "exclude=", "include=", "exclude-from=", "include-from=", "files-from=", "temp-dir=", "chmod=", "log-file=", "password-file=", "backup-dir=", "suffix=", "compare-dest=", "copy-dest=", "link-dest=", "partial-dir=", "rsync-path=", "timeout=", "bwlimit=", "max-size=", "min-size=", "port=", "out-format=", "chown=", "usermap=", "groupmap=", "info=", "debug=", "iconv=", "modify-window=", "remote-option=", "sockopts=", "write-batch=", "read-batch=", "only-write-batch=", "contimeout=", "address=", "block-size=", "max-delete=", "skip-compress=", "compress-level=", "checksum-seed=", "log-file-format=", "stop-after=", "stop-at="}})
	if len(a.operands) < 2 || remote(a.operands[len(a.operands)-1]) || a.has("-n", "--dry-run") {
		return nil
	}
	return destWrites(nil, a.operands, false)
}

func scpWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "cFiJlLoPSDX"})
	if len(a.operands) < 2 || remote(a.operands[len(a.operands)-1]) {
		return nil
	}
	return destWrites(nil, a.operands, false)
}

func dittoWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{long: []string{"arch=", "bom="}})
	return destWrites(nil, a.operands, false)
}

// ddWrites: dd of=FILE (unless conv=notrunc… still a write).
func ddWrites(_ *checker, c *shell.Command) []write {
	for _, w := range c.Args[1:] {
		if v, ok := strings.CutPrefix(w.Value, "of="); ok {
			pre, _ := strings.CutPrefix(w.Prefix, "of=")
			return []write{{w: shell.Word{Raw: w.Raw, Value: v, Prefix: pre, Dynamic: w.Dynamic, Glob: w.Glob}, replace: true}}
		}
	}
	return nil
}

// sedWrites: sed -i / --in-place edits its file operands (GNU: -i[SUF];
// BSD: -i SUF, usually -i ”). Without -e/-f the first operand is the
// script.
func sedWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "efl", opt: "i", long: []string{"expression=", "file=", "line-length=", "in-place", "null-data", "zero-terminated", "separate", "sandbox", "debug", "posix", "quiet", "silent", "regexp-extended", "unbuffered", "follow-symlinks"}})
	if !a.has("-i", "--in-place") {
		return nil
	}
	ops := a.operands
	if len(ops) > 0 && ops[0].Value == "" && !ops[0].Dynamic {
		ops = ops[1:] // BSD sed -i ''
	}
	if !a.has("-e", "--expression", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	return edits(ops)
}

func edits(ops []shell.Word) []write {
	var out []write
	for _, w := range ops {
		out = append(out, write{w: w, replace: true})
	}
	return out
}

// perlWrites: perl -i[SUF] edits its file operands; without -e/-E the
// first operand is the script.
func perlWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "eE", opt: "iIMmlx0dDCV"})
	if !a.has("-i") {
		return nil
	}
	ops := a.operands
	if !a.has("-e", "-E") && len(ops) > 0 {
		ops = ops[1:]
	}
	return edits(ops)
}

func truncateWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "sr", long: []string{"size=", "reference=", "no-create", "io-blocks"}})
	return edits(a.operands)
}

// touchWrites: the files touch creates. With -r/-t/-d it sets times of
// existing files: that is defense.timestomp's.
func touchWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], touchSpec)
	if stomps(a) {
		return nil
	}
	var out []write
	for _, w := range a.operands {
		out = append(out, write{w: w, touch: true})
	}
	return out
}

var touchSpec = spec{vals: "rtdA", long: []string{"reference=", "date=", "time=", "no-create", "no-dereference"}}

// curlWrites: -o/--output FILE, -O (the URL's base name in the working
// directory or --output-dir), -c/--cookie-jar and -D/--dump-header files.
func curlWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "oHdudXAebcFTxwKEmrCYyzUQPtD", long: []string{"output=", "output-dir=", "cookie-jar=", "dump-header=", "remote-name", "header=", "data=", "data-raw=", "data-binary=", "user=", "request=", "user-agent=", "referer=", "cookie=", "form=", "upload-file=", "proxy=", "write-out=", "config=", "cert=", "max-time=", "range=", "continue-at="}})
	var out []write
	for _, w := range a.values("-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header") {
		out = append(out, write{w: w, stage: true, replace: true})
	}
	if a.has("-O", "--remote-name") {
		for _, d := range a.values("--output-dir") {
			out = append(out, write{w: d, stage: true, replace: true})
		}
	}
	return out
}

// wgetWrites: -O/--output-document FILE, -P/--directory-prefix DIR.
func wgetWrites(_ *checker, c *shell.Command) []write {
	a := parse(c.Args[1:], spec{vals: "OoaPetTwUiQlARDXIB", long: []string{"output-document=", "directory-prefix=", "output-file=", "append-output=", "execute=", "tries=", "timeout=", "wait=", "user-agent=", "input-file=", "quota=", "level=", "accept=", "reject=", "domains=", "header=", "post-data=", "user=", "password="}})
	var out []write
	for _, w := range a.values("-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file", "-a", "--append-output") {
		if w.Value == "-" && !w.Dynamic {
			continue
		}
		out = append(out, write{w: w, stage: true, replace: true})
	}
	return out
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
	for _, pre := range []string{"/dev/fd/", "/dev/pts/", "/dev/tcp/", "/dev/udp/", "/proc/self/", "/proc/thread-self/", "/run/user/", "/dev/shm/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return false
}

// judgeWrite reports a write to a persistence, startup, system or log
// place.
func (k *checker) judgeWrite(c *shell.Command, wr write) {
	w := wr.w
	p := k.abs(c, w)
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
	if ignoredWrite(p) {
		return
	}
	what := quote(c)
	if wr.redir != "" {
		what = clip(what + " " + wr.redir + " " + w.Raw)
	}
	if !dynamic && !wr.touch && wr.replace && isLog(p) {
		k.ask(what, RuleLogTamper, catDefense,
			"it overwrites or empties "+p+", a system log or audit record; erasing logs hides what was done on the machine",
			"Leave logs alone; read them with `tail`/`journalctl`, or ask the user to rotate them")
		return
	}
	if knob, ok := procKnob(p); ok && !dynamic {
		k.ask(what, RuleKernel, catPersist, "it changes the kernel setting "+knob+", which weakens a protection of the whole machine",
			"Leave kernel security settings alone, or ask the user")
	}
	candidates := []string{p}
	if !dynamic && len(wr.srcs) > 0 && (len(wr.srcs) > 1 || strings.HasSuffix(w.Value, "/") || k.likelyDir(p)) {
		candidates = candidates[:0]
		for _, s := range wr.srcs {
			candidates = append(candidates, paths.Abs(s, p))
		}
	}
	best, bestPath := files.Judgment{}, ""
	for _, q := range candidates {
		j := k.judge(q)
		if rank(j.Rule) > rank(best.Rule) || bestPath == "" {
			best, bestPath = j, q
		}
	}
	if best.System && !dynamic {
		k.r.Tag(toolwall.TagSystemWrite, bestPath, "")
	}
	if best.Rule == "" {
		return
	}
	if wr.stage && rank(best.Rule) >= rank(files.RuleWriteSensitive) && !dynamic {
		k.r.Tag(toolwall.TagStage, bestPath, "persistence")
	}
	switch {
	case dynamic && (rank(best.Rule) >= rank(files.RuleWriteSensitive) || coreSystem(bestPath)):
		rule := RuleWriteSystem
		if rank(best.Rule) >= rank(files.RuleWriteSensitive) {
			rule = RuleWriteSensitive
		}
		k.ask(what, rule, catPersist, "it writes a file whose name is only known at run time under "+bestPath+", which "+best.Why,
			"Write to a fixed path inside the project, or ask the user")
	case dynamic:
		k.warn(what, RuleWriteSystem, catPersist, "it writes a file whose name is only known at run time under "+bestPath+", a system directory",
			"Prefer a fixed path inside the project")
	case wr.touch:
		if rank(best.Rule) >= rank(files.RuleWriteSensitive) {
			k.ask(what, RuleWriteSensitive, catPersist, "it creates "+bestPath+", which "+best.Why,
				"Leave it alone, or ask the user to create it")
		}
	case best.Rule == files.RuleWriteProtected:
		k.deny(what, RuleWriteProtected, catPersist, "it writes "+bestPath+", which "+best.Why,
			"Do not install anything that runs at boot, at login, on a schedule or as root; tell the user what you would change and let them do it")
	case best.Rule == files.RuleWriteSensitive:
		k.ask(what, RuleWriteSensitive, catPersist, "it writes "+bestPath+", which "+best.Why,
			"Keep changes inside the project, or ask the user to make this one")
	case coreSystem(bestPath):
		k.ask(what, RuleWriteSystem, catPersist, "it writes "+bestPath+", which is the system's own configuration, programs or libraries",
			"Write inside the project or /tmp, or ask the user to install it")
	default:
		k.warn(what, RuleWriteSystem, catPersist, "it writes "+bestPath+", which is under a system directory",
			"Prefer the project or /tmp; install system-wide only when the user asked for it")
	}
}

// coreRoots are the system directories whose change alters how the
// system itself behaves: its configuration, programs and libraries. A
// shell write there asks; under the other system roots (/usr/local,
// /opt, /var, /srv, /usr/share, /root, /sys, /Library, …) it warns.
var coreRoots = []string{"/etc", "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec", "/system", "/private/etc"}

func coreSystem(p string) bool {
	l := strings.ToLower(p)
	for _, r := range coreRoots {
		if paths.Under(l, r) {
			return true
		}
	}
	return false
}

// likelyDir reports destinations that are certainly directories: home,
// the working directory, the project, and well-known directories whose
// meaning [extraPlaces] or [files.Judge] give.
func (k *checker) likelyDir(p string) bool {
	return p == k.home || p == k.proj || p == "/root" || isDirPlace(p, k.home)
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
		if j := files.Judge(k.home+"/"+base, k.home, k.proj); rank(j.Rule) >= rank(files.RuleWriteSensitive) {
			why = j.Why
		}
	}
	if why == "" {
		return
	}
	k.ask(quote(c), RuleWriteSensitive, catPersist,
		"it writes a file named "+base+" in a directory only known at run time; a file of that name "+why,
		"Write to a fixed path inside the project, or ask the user")
}

// judge combines [files.Judge] with this package's own places.
func (k *checker) judge(p string) files.Judgment {
	j := files.Judge(p, k.home, k.proj)
	if rank(j.Rule) < rank(files.RuleWriteProtected) {
		if e, ok := extraPlace(p, k.home, k.proj); ok && rank(e.Rule) > rank(j.Rule) {
			e.System = j.System
			j = e
		}
	}
	if j.Rule == files.RuleWriteSystem && strings.HasPrefix(p, "/run/user/") {
		return files.Judgment{}
	}
	return j
}

// rank orders the judgments' rules.
func rank(rule string) int {
	switch rule {
	case files.RuleWriteProtected:
		return 3
	case files.RuleWriteSensitive:
		return 2
	case files.RuleWriteSystem:
		return 1
	}
	return 0
}
