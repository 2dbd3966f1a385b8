package secrets

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// kind says what a source of data is.
type kind uint8

const (
	kFile    kind = iota + 1 // a secret file's content (class, path)
	kTree                    // a directory tree holding secrets (path)
	kEnv                     // the whole environment
	kVar                     // one environment variable's value (name)
	kKey                     // one named key read from a secret file (name, path)
	kPrinted                 // the secret a command prints (name: the command)
	kMachine                 // output that describes this machine or account (name: what)
)

// source is something a command's data may carry.
type source struct {
	kind  kind
	class places.Class
	path  string
	name  string
	// svc is the secret's own service, when known (kVar, kKey, kPrinted).
	svc places.Service
}

// label names the source in a reason.
func (x source) label() string {
	switch x.kind {
	case kFile:
		return fmt.Sprintf("%s (%s)", x.path, x.class)
	case kTree:
		return x.path + " (a tree holding keys and credentials)"
	case kEnv:
		return "the environment (it holds tokens and keys)"
	case kVar:
		return "the value of $" + x.name
	case kKey:
		return x.name + " from " + x.path
	case kPrinted:
		return "the secret `" + x.name + "` prints"
	}
	return x.name
}

// whole reports a secret with no service of its own: a file, a tree or
// the environment may go nowhere.
func (x source) whole() bool { return x.kind == kFile || x.kind == kTree || x.kind == kEnv }

// id identifies a source for de-duplication.
func (x source) id() string { return string(rune('0'+x.kind)) + "\x00" + x.path + "\x00" + x.name }

// facts is what one command reads and what its output carries.
type facts struct {
	// reads are the secrets it reads (reported as reads, held trees
	// aside).
	reads []source
	// keys are single keys it reads from a secret file (grep NAME .env):
	// reported as reads unless every use is with the key's own service.
	keys []source
	// out is what its standard output carries.
	out []source
	// remote are the trees holding secrets it reads on another host or in
	// a container (not through a mount of this machine's paths).
	remote []source
}

// examine works out what c reads and prints, reports reads and
// destruction, and records what the files it writes now hold.
func (s *state) examine(c *shell.Command) {
	if s.facts[c] != nil {
		return
	}
	f := &facts{}
	s.facts[c] = f
	s.assigns(c)
	s.destroy(c)
	if len(c.Args) == 0 {
		for _, e := range c.Effects {
			if e.Kind == shell.Reads && !e.Remote {
				s.readEffect(c, f, e)
			}
		}
		f.out = append(f.out, f.reads...) // $(< .env) prints the file
		s.reportReads(c, f)
		return
	}
	s.builtinAssigns(c)
	linker := slices.ContainsFunc(c.Effects, func(e shell.Effect) bool { return e.Kind == shell.Links })
	for _, e := range c.Effects {
		// A secret read on another host (ssh host 'cat ~/.aws/credentials')
		// still enters the conversation: remote reads count, as remote
		// egress does; remote deletes and writes are that host's own.
		switch e.Kind {
		case shell.Reads:
			if linker {
				s.linkTaint(c, e)
			}
			s.readEffect(c, f, e)
		case shell.Moves:
			s.readEffect(c, f, e)
		}
	}
	s.programReads(c, f)
	for _, code := range codeTexts(c) {
		s.readCode(c, f, code)
	}
	s.scriptArgs(c, f)
	f.out = append(f.out, f.reads...)
	f.out = append(f.out, f.keys...)
	f.out = append(f.out, s.prints(c)...)
	f.out = append(f.out, s.argSources(c, nil, true)...)
	s.reportReads(c, f)
	s.remoteReturn(c)
	s.remoteCopy(c)
	s.taintOutputs(c, f)
	s.serve(c)
	s.search(c)
	s.session(c)
}

// optionRead reports a read through an option's value (ssh -i KEY, curl
// --cert, docker --env-file): the program uses the file, it does not
// print it.
func optionRead(e shell.Effect) bool {
	return strings.HasPrefix(e.From, "-") && e.From != "-"
}

// describer reports programs whose reads of a file or directory print
// names, sizes, types or digests, never the content.
func describer(c *shell.Command) bool {
	if p := c.Inv.Program(); p != nil {
		switch p.Root().Name {
		case "ls", "find", "git", "chmod", "chown", "chgrp", "touch", "mkdir", "rmdir":
			return true
		}
	}
	switch c.Name {
	case "file", "stat", "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
		"cksum", "sum", "test", "[", "du", "tree", "realpath", "readlink", "namei":
		return true
	}
	return false
}

// effectPath is the path an effect names: its resolved path, with a
// "~/" the program itself expands (httpie's field@~/file) expanded and
// a relative operand resolved against the program's directory option
// (tar -C DIR); for a dynamic word, its static text (classified by its
// components: "$D/.ssh/id_rsa" names a key). partial is set for the
// latter.
func (s *state) effectPath(c *shell.Command, e shell.Effect) (p string, partial bool) {
	if e.Path != "" {
		p = e.Path
		if i := strings.Index(p, "/~/"); i >= 0 && s.home != "" {
			p = paths.Expand(p[i+1:], s.home)
		}
		if e.From == "operand" && !path.IsAbs(e.Word.Value) && !strings.HasPrefix(e.Word.Value, "~") {
			if d := cdOption(c); d != "" {
				p = paths.Abs(e.Word.Value, d)
			}
		}
		return p, false
	}
	w := e.Word
	if e.From == "operand" && !w.Dynamic && w.Value != "" && !path.IsAbs(w.Value) && !strings.HasPrefix(w.Value, "~") {
		// a directory the program moves to (tar -C /) places it even
		// where the command's own directory is not known (on another host)
		if d := cdOption(c); path.IsAbs(d) {
			return paths.Abs(w.Value, d), false
		}
	}
	if (w.Dynamic && hasExpansion(w.Raw) || e.Remote) && strings.Trim(w.Value, "/.") != "" {
		// a path on another host is judged by its name alone
		return path.Clean(paths.Expand(w.Value, s.home)), true
	}
	return "", false
}

// cdOption returns the directory an option of role cd moves the program
// to (tar -C DIR), "" when there is none or it is dynamic.
func cdOption(c *shell.Command) string {
	v := c.Inv
	if v.Program() == nil {
		return ""
	}
	d := ""
	for _, w := range v.ValuesOf(programs.Cd) {
		if w.Dynamic || w.Value == "" {
			return ""
		}
		d = paths.Abs(w.Value, c.Cwd)
	}
	return d
}

// hasExpansion reports whether raw shell text holds a $ or ` expansion.
func hasExpansion(raw string) bool { return strings.ContainsAny(raw, "$`") }

// placeholder reports the {} or -I string of an xargs or find -exec
// tail: a dynamic word without an expansion of its own.
func placeholder(c *shell.Command, w shell.Word) bool {
	return w.Dynamic && !hasExpansion(w.Raw) && (c.Via == "xargs" || c.Via == "find -exec")
}

// classOf is p's class, raised by what this script copied there.
func (s *state) classOf(p string) (places.Class, []source) {
	cl, ok := s.classes[p]
	if !ok {
		cl = places.Classify(p)
		put(&s.classes, p, cl)
	}
	held := s.taint[p]
	for _, h := range held {
		if h.kind == kFile && h.class > cl {
			cl = h.class
		}
	}
	return cl, held
}

// sourcesAt returns what reading path p yields: a secret file, what this
// script put there, or a tree holding secrets (tree, when p may be a
// directory read whole).
func (s *state) sourcesAt(p string, partial, tree bool) []source {
	if p == "" {
		return nil
	}
	cl, held := s.classOf(p)
	var out []source
	if cl.Secret() {
		out = append(out, source{kind: kFile, class: cl, path: p})
	}
	for _, h := range held {
		if h.kind != kFile {
			out = append(out, h)
		}
	}
	if len(out) == 0 && tree && !partial && s.holds(p) {
		out = append(out, source{kind: kTree, path: p})
	}
	return out
}

// holds is [places.Holds] for this call's home, remembered per path. A
// bare "*" stands for every entry of its directory that does not start
// with a dot (the shell's globbing without dotglob): /etc/* holds
// /etc/shadow, while a home's secrets are dot entries (~/.ssh, ~/.aws)
// that ~/* does not match.
func (s *state) holds(p string) bool {
	h, ok := s.held[p]
	if !ok {
		h = places.Holds(p, s.home)
		if dir := path.Dir(p); !h && path.Base(p) == "*" && !s.homeDir(dir) {
			h = places.Holds(dir, s.home)
		}
		put(&s.held, p, h)
	}
	return h
}

// homeDir reports a user's home: this call's, root's, or one under
// /home or /Users.
func (s *state) homeDir(dir string) bool {
	switch parent := path.Dir(dir); {
	case dir == s.home, dir == "/root", dir == "/var/root":
		return true
	case parent == "/home", parent == "/Users":
		return true
	}
	return false
}

// remoteReturn reports a tree holding secrets that a command on another
// host (an ssh remote command) or in a container reads and prints back
// to this machine (ssh host 'tar czf - /etc' > etc.tgz): that host's
// secrets reach this machine and the conversation, judged like a secret
// read there (ssh host cat /etc/shadow). What the command writes into a
// file on that host (an archive, a copy's destination, a redirect of its
// own) stays there; its standard output, last in its pipeline, comes
// back, with what the commands piped into it read.
func (s *state) remoteReturn(c *shell.Command) {
	if !c.Remote || c.Piped > 1 && c.Pipeline != c.Piped-1 || keepsOutput(c) {
		return
	}
	local := c
	for local.Remote && local.Parent != nil {
		local = local.Parent
	}
	where := "in a container"
	if root(local) == "ssh" {
		where = "on another host"
	}
	for _, x := range s.remoteTrees(c, 0) {
		s.remoteRead(local, x, where)
	}
}

// remoteCopy reports a secret file or a tree holding secrets that scp or
// rsync copies from another host (host:PATH as a source) to this
// machine, as remoteReturn does for a remote command's output. A
// relative remote path is under the remote user's home and is judged by
// name (host:.ssh/id_rsa names a key); a tree only by an absolute path.
func (s *state) remoteCopy(c *shell.Command) {
	switch root(c) {
	case "scp", "rsync":
	default:
		return
	}
	for _, w := range c.Inv.OperandsOf(programs.Xfer) {
		if w.Dynamic || strings.HasPrefix(w.Value, "rsync://") {
			continue
		}
		i := strings.IndexByte(w.Value, ':')
		if i <= 0 || strings.IndexByte(w.Value[:i], '/') >= 0 {
			continue // a local path
		}
		rp := w.Value[i+1:]
		partial := !path.IsAbs(rp)
		name := rp
		if partial {
			if strings.Trim(rp, "/.~") == "" {
				continue // the remote home: whose it is is not known here
			}
			name = "~/" + strings.TrimPrefix(rp, "~/")
			rp = paths.Expand(name, s.home)
		}
		for _, x := range s.sourcesAt(path.Clean(rp), partial, true) {
			x.path = path.Clean(name)
			s.remoteRead(c, x, "on another host")
		}
	}
}

// remoteRead reports a secret of another host or a container brought to
// this machine by the local command c.
func (s *state) remoteRead(c *shell.Command, x source, where string) {
	if s.seen[RuleRead+"\x00"+x.path] {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleRead, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Reading %s %s was stopped for a human: %s brings it to this machine, into the conversation "+
			"or a file. Copy only the files you need by name, or ask the user.", x.label(), where, c.Shown()),
	}, x.path)
	s.tag(toolwall.TagSensitiveRead, x.path, "remote")
}

// remoteTrees returns the trees holding secrets that c and the remote
// commands piped into it read on another host.
func (s *state) remoteTrees(c *shell.Command, depth int) []source {
	s.examine(c)
	out := s.facts[c].remote
	if depth > 16 {
		return out
	}
	for _, u := range feeds(c) {
		if u.Remote && !keepsOutput(u) {
			out = append(out, s.remoteTrees(u, depth+1)...)
		}
	}
	return out
}

// keepsOutput reports a remote command whose data stays on its host: it
// writes a file there (an archive, a copy's destination), or its standard
// output is redirected by a redirection of its own rather than one of the
// local command that runs it (ssh host 'tar cf - /etc' > etc.tar sends
// the archive here; ssh host 'tar cf - /etc > /tmp/e.tar' does not).
func keepsOutput(c *shell.Command) bool {
	for _, e := range c.Effects {
		if (e.Kind == shell.Writes || e.Kind == shell.Appends) && e.Role != programs.Unknown {
			return true
		}
	}
	local := c
	for local.Remote && local.Parent != nil {
		local = local.Parent
	}
	for _, r := range c.Redirects {
		if !r.Writes() || r.Fd != "" && r.Fd != "1" {
			continue
		}
		if !slices.ContainsFunc(local.Redirects, func(l shell.Redirect) bool {
			return l.Op == r.Op && l.Fd == r.Fd && l.Target.Raw == r.Target.Raw
		}) {
			return true
		}
	}
	return false
}

// readEffect records what a read (or a move) of c yields.
func (s *state) readEffect(c *shell.Command, f *facts, e shell.Effect) {
	if optionRead(e) || e.Role == programs.Upload || describer(c) {
		if describer(c) && !optionRead(e) {
			s.listing(c, f, e)
		}
		return
	}
	if placeholder(c, e.Word) {
		for _, w := range s.listed(c) {
			p := paths.Abs(paths.Expand(w.Value, s.home), c.Cwd)
			s.addReads(f, s.sourcesAt(p, w.Dynamic, true), e.Remote)
		}
		return
	}
	p, partial := s.effectPath(c, e)
	if p == "" {
		return
	}
	for _, o := range c.Effects {
		if o.Kind == shell.Sends && o.Path == e.Path {
			return // sent, not read here (scp key host:)
		}
	}
	if k, ok := s.namedKey(c, e, p); ok {
		f.keys = append(f.keys, k)
		return
	}
	srcs := s.sourcesAt(p, partial, true)
	s.addReads(f, srcs, e.Remote)
	if len(srcs) == 0 && accountFile(p) {
		f.out = append(f.out, source{kind: kMachine, name: "the content of " + p})
	}
}

// addReads records what a read yields; the trees of a read on another
// host or in a container are remembered apart (remoteReturn).
func (s *state) addReads(f *facts, srcs []source, remote bool) {
	f.reads = append(f.reads, srcs...)
	if !remote {
		return
	}
	for _, x := range srcs {
		if x.kind == kTree {
			f.remote = append(f.remote, x)
		}
	}
}

// accountFile reports a system file that tells who uses this machine and
// how it is reached: the account and host databases, logs, process
// information, root's files.
func accountFile(p string) bool {
	switch p {
	case "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/hostname", "/etc/machine-id", "/etc/resolv.conf":
		return true
	}
	return strings.HasPrefix(p, "/var/log/") || strings.HasPrefix(p, "/root/") ||
		strings.HasPrefix(p, "/proc/") && !strings.HasPrefix(p, "/proc/self/fd")
}

// listing records what a describer's output reveals: the names in a
// secret location or a system directory.
func (s *state) listing(c *shell.Command, f *facts, e shell.Effect) {
	p, _ := s.effectPath(c, e)
	if p == "" {
		return
	}
	if cl, _ := s.classOf(p); cl.Secret() || places.System(p) || p == s.home || s.holds(p) {
		f.out = append(f.out, source{kind: kMachine, name: "a listing of " + p})
	}
}

// namedKey reads grep NAME FILE of a secret file as the one key NAME:
// the pattern names a variable (GITHUB_TOKEN, ^OPENAI_API_KEY=), so what
// is printed is that key's line.
func (s *state) namedKey(c *shell.Command, e shell.Effect, p string) (source, bool) {
	v := c.Inv
	if v.Program() == nil || v.Program().Root().Name != "grep" || e.From != "operand" {
		return source{}, false
	}
	cl, held := s.classOf(p)
	if cl != places.ProjectSecret || len(held) > 0 || v.Has("r", "R", "recursive", "dereference-recursive", "v", "invert-match", "c", "count", "l", "files-with-matches") {
		return source{}, false
	}
	var pats []shell.Word
	pats = append(pats, v.Values("regexp")...)
	if len(pats) == 0 {
		pats = v.OperandsOf(programs.None)
	}
	if len(pats) != 1 || pats[0].Dynamic {
		return source{}, false
	}
	name := keyName(pats[0].Value)
	if name == "" {
		return source{}, false
	}
	svc, _ := places.NameService(name)
	return source{kind: kKey, class: cl, path: p, name: name, svc: svc}, true
}

// keyName returns the one variable name a grep pattern looks for
// ("^GITHUB_TOKEN=" → GITHUB_TOKEN), "" when it names none or several.
func keyName(pat string) string {
	name := ""
	for _, w := range strings.FieldsFunc(pat, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if !strings.Contains(w, "_") || strings.ToUpper(w) != w || w[0] >= '0' && w[0] <= '9' {
			continue
		}
		if name != "" && name != w {
			return ""
		}
		name = w
	}
	return name
}

// listed returns the files an xargs or find -exec tail is handed: what
// the find of a -exec lists, or what the commands feeding xargs print
// as a list (echo, printf, ls, find).
func (s *state) listed(c *shell.Command) []shell.Word {
	p := c.Parent
	if p == nil {
		return nil
	}
	if c.Via == "find -exec" {
		return findFiles(p)
	}
	var out []shell.Word
	for _, u := range feeds(p) {
		switch {
		case u.Name == "echo" || u.Name == "printf":
			out = append(out, u.Args[1:]...)
		case u.Inv.Program() != nil && u.Inv.Program().Root().Name == "find":
			out = append(out, findFiles(u)...)
		case u.Inv.Program() != nil && u.Inv.Program().Root().Name == "ls":
			out = append(out, u.Inv.OperandsOf(programs.Read)...)
		}
	}
	return out
}

// findFiles returns what a find command lists: its start directories,
// joined with each -name/-iname pattern when there are any; -path
// patterns as they are.
func findFiles(c *shell.Command) []shell.Word {
	v := c.Inv
	if v.Program() == nil {
		return nil
	}
	starts := v.OperandsOf(programs.Read, programs.Delete)
	if len(starts) == 0 {
		starts = []shell.Word{{Raw: ".", Value: ".", Prefix: "."}}
	}
	out := v.Values("path", "ipath", "wholename", "iwholename")
	names := v.Values("name", "iname")
	if len(names) == 0 && len(out) == 0 {
		return starts
	}
	for _, st := range starts {
		for _, n := range names {
			val := strings.TrimSuffix(st.Value, "/") + "/" + n.Value
			out = append(out, shell.Word{Raw: st.Raw + "/" + n.Raw, Value: val, Prefix: val, Dynamic: st.Dynamic || n.Dynamic, Glob: true})
		}
	}
	return out
}

// feeds returns the commands whose output reaches c's standard input.
func feeds(c *shell.Command) []*shell.Command {
	if c.Stdin.Kind != shell.StdinPipe {
		return nil
	}
	if len(c.Stdin.Feeds) > 0 {
		return c.Stdin.Feeds
	}
	if c.Stdin.From != nil {
		return []*shell.Command{c.Stdin.From}
	}
	return nil
}

// upstream returns what reaches c's standard input through a pipe: the
// output of every command upstream of it, transitively, each source
// once. It is computed once per command.
func (s *state) upstream(c *shell.Command) []source {
	if v, ok := s.ups[c]; ok {
		return v
	}
	put(&s.ups, c, nil) // a cycle reads nothing more
	var out []source
	seen := map[string]bool{}
	add := func(xs []source) {
		for _, x := range xs {
			if id := x.id(); !seen[id] {
				seen[id] = true
				out = append(out, x)
			}
		}
	}
	for _, u := range feeds(c) {
		s.examine(u)
		add(s.facts[u].out)
		add(s.stdinFile(u))
		add(s.upstream(u))
	}
	put(&s.ups, c, out)
	return out
}

// stdinFile returns what a "<" redirect of c feeds it.
func (s *state) stdinFile(c *shell.Command) []source {
	var out []source
	for _, e := range c.Effects {
		if e.Kind == shell.Reads && e.From == "<" {
			p, partial := s.effectPath(c, e)
			out = append(out, s.sourcesAt(p, partial, false)...)
		}
	}
	return out
}

// reportReads reports the secrets c reads and tags them.
func (s *state) reportReads(c *shell.Command, f *facts) {
	for _, h := range f.reads {
		if h.kind != kFile {
			continue
		}
		s.readFinding(c, h)
	}
}

func (s *state) readFinding(c *shell.Command, h source) {
	if s.seen[RuleRead+"\x00"+h.path] {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleRead, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Reading %s was stopped for a human: `%s` would copy a secret into the conversation, "+
			"the logs or another file. Pass the path to the program that needs it (ssh -i, --env-file), read a "+
			"template such as .env.example for names, or ask the user.", h.label(), quote(c)),
	}, h.path)
	s.tag(toolwall.TagSensitiveRead, h.path, "")
	if h.class == places.Credential || h.class == places.PrivateKey {
		s.tag(toolwall.TagCredential, h.path, "")
	}
}

// taintOutputs records what the files c writes now hold: what it reads
// and prints, and what reaches its standard input (tee, a redirect of a
// filter); a copy's destination holds what it copies.
func (s *state) taintOutputs(c *shell.Command, f *facts) {
	var carried []source
	for _, e := range c.Effects {
		if e.Remote || e.Path == "" || e.Kind != shell.Writes && e.Kind != shell.Appends {
			continue
		}
		if carried == nil {
			carried = append(append(carried, f.out...), s.upstream(c)...)
		}
		for _, x := range carried {
			if x.kind == kMachine || x.kind == kTree && e.Role != programs.Dest && e.Role != programs.Archive {
				continue
			}
			if x.kind == kTree {
				x = source{kind: kFile, class: places.PrivateKey, path: x.path}
			}
			if x.kind == kPrinted {
				// a later call that prints the file prints the
				// credential (chain.credential-print)
				s.tag(toolwall.TagCredential, e.Path, "written")
			}
			s.addTaint(e.Path, x)
		}
	}
}

// linkTaint marks a link made to a secret as that secret, so a later
// `cat link` or `curl -T link` is judged like the secret itself.
func (s *state) linkTaint(c *shell.Command, e shell.Effect) {
	p, partial := s.effectPath(c, e)
	srcs := s.sourcesAt(p, partial, false)
	if len(srcs) == 0 {
		return
	}
	for _, l := range c.Effects {
		if l.Kind == shell.Links && l.Path != "" {
			for _, x := range srcs {
				s.addTaint(l.Path, x)
			}
		}
	}
}

// addTaint records that the file at p now holds x.
func (s *state) addTaint(p string, x source) {
	k := p + "\x00" + x.id()
	if s.tainted[k] {
		return
	}
	put(&s.tainted, k, true)
	put(&s.taint, p, append(s.taint[p], x))
}

// pathLike reports a code or argument token that looks like a path: it
// holds "/", or starts with "." or "~".
func pathLike(t string) bool {
	return t != "" && (strings.ContainsRune(t, '/') || t[0] == '.' || t[0] == '~') && t != "." && t != ".."
}

// readCode records the secrets a program text names as string literals
// or words: python -c, node -e, perl -e, an awk or sed program, a
// heredoc fed to an interpreter, SQL given to sqlite3. A token counts
// when it looks like a path; only secret classes matter, so ordinary
// paths in code pass. Code that deletes or writes files and names a
// protected file destroys it.
func (s *state) readCode(c *shell.Command, f *facts, code string) {
	if len(code) > 64<<10 {
		code = code[:64<<10]
	}
	toks := strings.FieldsFunc(code, func(r rune) bool {
		return strings.ContainsRune(" \t\n\r'\"`()[]{},;=<>|&+:", r)
	})
	destructive := destructiveCode(code)
	for _, t := range toks {
		if !pathLike(t) && !storeName(t) {
			continue
		}
		p := paths.Abs(paths.Expand(t, s.home), c.Cwd)
		f.reads = append(f.reads, s.sourcesAt(p, false, false)...)
		if destructive {
			s.destroyPath(c, p, false, false, "Deleting")
		}
	}
}

// storeName reports a bare file name in program text that names a key or
// a credential store wherever it lies (id_rsa, .netrc,
// Cookies.binarycookies, login.keychain-db): AppleScript and the like
// name files by folder and name, not by path.
func storeName(t string) bool {
	if len(t) < 5 || strings.ContainsAny(t, "*?[") {
		return false
	}
	switch places.Classify("/" + t) {
	case places.PrivateKey, places.Credential:
		ext := path.Ext(strings.ToLower(t))
		return ext != ".pem" && ext != ".key" && ext != ".p12" && ext != ".pfx" // a generic key extension names nothing in particular
	}
	return false
}

// destructiveCode reports whether a program text holds a word that
// deletes, truncates or writes files (Python, Node, Perl, Ruby, PHP).
func destructiveCode(code string) bool {
	l := strings.ToLower(code)
	for _, v := range []string{
		"unlink", "remove", "rmtree", "rmsync", "rmdir", "rm_rf", "rm_r", "delete", "truncate",
		"writefile", "appendfile", "write_text", "write_bytes", "shred", "rename",
		"file_put_contents", "'w'", "\"w\"", "'a'", "\"a\"", "'wb'", "\"wb\"", "'w+'", "\"w+\"", "'>'", "'>>'", "\">\"", "\">>\"",
	} {
		if strings.Contains(l, v) {
			return true
		}
	}
	return false
}

// codeTexts returns the program texts c runs: its code-role operands and
// option values, a heredoc or here-string it reads as code, and the SQL
// given to sqlite3 or duckdb.
func codeTexts(c *shell.Command) []string {
	var out []string
	v := c.Inv
	if v.Program() != nil {
		for _, w := range append(v.ValuesOf(programs.Code), v.OperandsOf(programs.Code)...) {
			out = append(out, w.Value)
		}
		if c.Stdin.Kind == shell.StdinHeredoc && (v.Stdin == programs.Code || v.Program().Root().Lang != "" && stdinScript(v)) {
			out = append(out, c.Stdin.Text)
		}
	}
	switch c.Name {
	case "sqlite3", "duckdb":
		for _, w := range c.Args[1:] {
			out = append(out, w.Value)
		}
	}
	return out
}

// stdinScript reports an interpreter told to read its program from
// standard input ("python3 -", "perl /dev/stdin").
func stdinScript(v *shell.Invocation) bool {
	for _, w := range v.OperandsOf(programs.Exec) {
		if w.Value == "-" || w.Value == "/dev/stdin" {
			return true
		}
	}
	return false
}

// scriptArgs records secrets named on an interpreter's command line
// after its script (python3 upload.py ~/.aws/credentials): a secret
// handed to code.
func (s *state) scriptArgs(c *shell.Command, f *facts) {
	v := c.Inv
	p := v.Program()
	if p == nil || p.Root().Lang == "" || len(v.OperandsOf(programs.Exec)) == 0 {
		return
	}
	for _, w := range v.OperandsOf(programs.None) {
		if !w.Dynamic && pathLike(w.Value) {
			f.reads = append(f.reads, s.sourcesAt(paths.Abs(paths.Expand(w.Value, s.home), c.Cwd), false, false)...)
		}
	}
}

// assigns records what variables assigned by c hold: NAME=$(…) takes
// the sources of the substitutions that follow c.
func (s *state) assigns(c *shell.Command) {
	if len(c.Assigns) == 0 {
		return
	}
	subs := s.subsOf(c)
	for _, a := range c.Assigns {
		name, val, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			continue
		}
		var srcs []source
		if strings.Contains(val, "$(") || strings.Contains(val, "`") || strings.HasPrefix(val, "$") {
			for _, sub := range subs {
				srcs = append(srcs, s.outOf(sub)...)
			}
			for _, ref := range varRefs(val) {
				srcs = append(srcs, s.varSources(ref)...)
			}
		}
		put(&s.vars, name, srcs)
	}
}

// builtinAssigns records what the shell builtins that set variables
// store: export, declare, typeset, local and readonly NAME=VALUE take the
// sources of VALUE; read and mapfile take what their standard input
// carries.
func (s *state) builtinAssigns(c *shell.Command) {
	switch c.Name {
	case "export", "declare", "typeset", "local", "readonly":
		subs := s.subsOf(c)
		for _, w := range c.Args[1:] {
			name, _, ok := strings.Cut(w.Raw, "=")
			if !ok || name == "" || strings.HasPrefix(name, "-") {
				continue
			}
			var srcs []source
			for _, ref := range varRefs(w.Raw[len(name)+1:]) {
				srcs = append(srcs, s.varSources(ref)...)
			}
			for _, sub := range subsIn(w, subs) {
				if strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`") {
					srcs = append(srcs, s.outOf(sub)...)
				}
			}
			put(&s.vars, name, srcs)
		}
	case "read", "mapfile", "readarray":
		srcs := append(s.stdinFile(c), s.upstream(c)...)
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w.Value, "-") && w.Value != "" {
				put(&s.vars, w.Value, srcs)
			}
		}
	}
}

// outOf returns what c's output carries, examining it first if needed
// (a substitution is listed after the command that holds it).
func (s *state) outOf(c *shell.Command) []source {
	if s.facts[c] == nil {
		s.examine(c)
	}
	out := s.facts[c].out
	return append(out, s.upstream(c)...)
}

// subsOf returns the commands of c's own $(…), `…` and <(…): those
// listed right after c that run inside a substitution. A command that is
// itself inside a substitution has none (the reader lists its siblings
// next to it). It is computed once per command.
func (s *state) subsOf(c *shell.Command) []*shell.Command {
	if v, ok := s.subs[c]; ok {
		return v
	}
	var out []*shell.Command
	if i, ok := s.index[c]; ok && !inSubstitution(c) {
		cmds := s.script.Commands
		for j := i + 1; j < len(cmds) && inSubstitution(cmds[j]); j++ {
			out = append(out, cmds[j])
		}
	}
	put(&s.subs, c, out)
	return out
}

// inSubstitution reports a command run by $(…), `…`, <(…) or >(…).
func inSubstitution(c *shell.Command) bool {
	switch c.Via {
	case "$()", "``", "<()", ">()":
		return true
	}
	return false
}

// varSources returns what variable name holds: what this script assigned
// to it, else, when its name says it holds a secret, that variable's
// value.
func (s *state) varSources(name string) []source {
	if srcs, ok := s.vars[name]; ok {
		return srcs
	}
	if !places.SecretName(name) {
		return nil
	}
	svc, _ := places.NameService(name)
	return []source{{kind: kVar, name: name, svc: svc}}
}

// varRefs returns the names of the variables raw shell text expands
// ($NAME, ${NAME…}), outside single quotes.
func varRefs(raw string) []string {
	var out []string
	quote := false
	for i := 0; i < len(raw); i++ {
		switch ch := raw[i]; {
		case ch == '\'' && !quote:
			if j := strings.IndexByte(raw[i+1:], '\''); j >= 0 && !insideDouble(raw[:i]) {
				i += j + 1
			}
		case ch == '\\':
			i++
		case ch == '$' && i+1 < len(raw):
			j := i + 1
			if raw[j] == '{' {
				j++
			}
			k := j
			for k < len(raw) && (raw[k] == '_' || raw[k] >= 'A' && raw[k] <= 'Z' || raw[k] >= 'a' && raw[k] <= 'z' || k > j && raw[k] >= '0' && raw[k] <= '9') {
				k++
			}
			if k > j {
				out = append(out, raw[j:k])
			}
			i = k - 1
		}
	}
	return out
}

// insideDouble reports whether text ends inside a double-quoted string.
func insideDouble(text string) bool {
	in := false
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"':
			in = !in
		case '\'':
			if !in {
				if j := strings.IndexByte(text[i+1:], '\''); j >= 0 {
					i += j + 1
				}
			}
		}
	}
	return in
}

// argSources returns what the dynamic words of c carry: the output of
// its substitutions, the variables it expands, and for the {} of an
// xargs tail what is piped into xargs. With all unset, only the words
// given.
func (s *state) argSources(c *shell.Command, words []shell.Word, all bool) []source {
	if all {
		if len(c.Args) > 1 {
			words = c.Args[1:]
		}
		for _, r := range c.Redirects {
			if r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-" {
				words = append(words, r.Target)
			}
		}
	}
	var out []source
	seen := map[string]bool{}
	add := func(xs []source) {
		for _, x := range xs {
			if id := x.id(); !seen[id] {
				seen[id] = true
				out = append(out, x)
			}
		}
	}
	subs := s.subsOf(c)
	usedSubs := false
	for _, w := range words {
		if !w.Dynamic {
			continue
		}
		if placeholder(c, w) && c.Via == "xargs" && c.Parent != nil {
			add(s.upstream(c.Parent))
			continue
		}
		for _, ref := range varRefs(w.Raw) {
			add(s.varSources(ref))
		}
		if strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`") || strings.Contains(w.Raw, "<(") {
			for _, sub := range subsIn(w, subs) {
				add(s.outOf(sub))
			}
			usedSubs = true
		}
	}
	if c.Stdin.Kind == shell.StdinHeredoc && c.Stdin.Dynamic && !usedSubs {
		for _, sub := range subs {
			add(s.outOf(sub))
		}
	}
	return out
}

// subsIn returns the substitution commands of subs that appear in w:
// each is matched by its words' source text inside w's; when none
// matches, or there are more than 64, all of them (the reader does not
// say which word a substitution belongs to).
func subsIn(w shell.Word, subs []*shell.Command) []*shell.Command {
	if len(subs) > 64 {
		return subs
	}
	var out []*shell.Command
	for _, sub := range subs {
		if len(sub.Args) == 0 {
			continue
		}
		in := true
		for _, a := range sub.Args {
			if a.Raw != "" && !strings.Contains(w.Raw, a.Raw) {
				in = false
				break
			}
		}
		if in {
			out = append(out, sub)
		}
	}
	if len(out) == 0 {
		return subs
	}
	return out
}
