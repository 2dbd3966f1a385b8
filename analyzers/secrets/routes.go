package secrets

import (
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// RuleCommit (ask, score 0.6): a secret file is staged into git by name
// (git add -f .env), the step before it is pushed to a shared remote.
const RuleCommit = "secrets.commit"

// RuleServe (ask, score 0.6): a file server is started on a tree that
// holds secrets (python3 -m http.server in home or ~/.ssh), which hands
// them to anyone who can reach the port.
const RuleServe = "secrets.serve"

// transferVerbs are the commands of an sftp, ftp, lftp or tftp script
// that upload the local files named after them.
var transferVerbs = map[string]bool{"put": true, "mput": true, "reput": true, "append": true, "send": true}

// transfer handles the interactive file-transfer clients: the files a
// put names in their script (a heredoc, here-string, echo piped in, lftp
// -c, tftp -c) or, for ftp -u, the operands after the URL, are sent.
func (s *state) transfer(c *shell.Command, f *facts, args []shell.Word) {
	var line []string
	for _, w := range args {
		line = append(line, w.Value)
	}
	texts := []string{strings.Join(line, " ")}
	switch c.Stdin.Kind {
	case shell.StdinHeredoc:
		texts = append(texts, c.Stdin.Text)
	case shell.StdinPipe:
		if u := c.Stdin.From; u != nil && (u.Name == "echo" || u.Name == "printf") {
			for _, w := range u.Args[1:] {
				texts = append(texts, strings.ReplaceAll(w.Value, `\n`, "\n"))
			}
		}
	}
	for _, t := range texts {
		for _, line := range strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }) {
			fields := strings.Fields(line)
			for i, fw := range fields {
				if !transferVerbs[strings.ToLower(fw)] {
					continue
				}
				for _, file := range fields[i+1:] {
					if strings.HasPrefix(file, "-") {
						continue
					}
					s.appendSend(c, f, shell.Word{Raw: file, Value: file, Prefix: file}, strings.Trim(file, `'"`))
				}
				break
			}
		}
	}
	if c.Name == "ftp" && argIs(c, "-u") {
		ops := parse(args, spec{short: "PrTs"}).operands
		for i, w := range ops {
			if i > 0 {
				s.appendSend(c, f, w, w.Value)
			}
		}
	}
}

// gh handles the GitHub CLI commands that upload local files: gist
// create FILES, release upload TAG FILES, --body-file of issues, pull
// requests and comments, api -F name=@FILE and --input FILE. A "-" sends
// standard input. gh secret set -f FILE reads a dotenv file to store it
// as repository secrets: a read (the user's own store, but a human should
// see which values leave).
func (s *state) gh(c *shell.Command, f *facts, args []shell.Word) {
	if len(args) < 2 {
		return
	}
	send := func(w shell.Word, v string) {
		if v == "-" {
			f.stdinOut = true
			return
		}
		s.appendSend(c, f, w, v)
	}
	group, verb := args[0].Value, args[1].Value
	rest := args[2:]
	switch {
	case group == "gist" && (verb == "create" || verb == "new"):
		for _, w := range parse(rest, spec{short: "df", long: []string{"desc", "filename"}}).operands {
			send(w, w.Value)
		}
	case group == "release" && verb == "upload":
		ops := parse(rest, spec{short: "R", long: []string{"repo"}}).operands
		for i, w := range ops {
			if i > 0 {
				name, _, _ := strings.Cut(w.Value, "#")
				send(w, name)
			}
		}
	case group == "api":
		a := parse(args[1:], spec{short: "FfHXpqt", long: []string{"field", "raw-field", "header", "method", "preview", "jq", "template", "input", "cache", "hostname"}})
		for _, w := range a.values("F", "field") {
			if _, file, ok := strings.Cut(w.Value, "=@"); ok {
				send(w, file)
			}
		}
		for _, w := range a.values("input") {
			send(w, w.Value)
		}
	case group == "secret" && verb == "set":
		for _, w := range parse(rest, spec{short: "abefrRo", long: []string{"app", "body", "env", "env-file", "org", "repos", "repo", "visibility"}}).values("f", "env-file") {
			s.read(c, f, w, false)
		}
	default:
		for _, w := range parse(args[1:], spec{short: "btFaAlmpRTeHr", long: []string{"body", "title", "body-file", "assignee", "label", "milestone", "project", "repo", "template", "base", "head", "reviewer"}}).values("F", "body-file") {
			send(w, w.Value)
		}
	}
}

// git handles the git commands that print a file from history or the
// work tree (show REV:PATH, cat-file -p REV:PATH, diff --no-index) and
// the staging of a secret by name (add).
func (s *state) git(c *shell.Command, f *facts, args []shell.Word) {
	// Skip git's global options; -C moves the directory paths resolve in.
	dir := s.cwd(c)
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		if v == "-C" && i+1 < len(args) {
			i++
			if t, ok := s.resolveIn(dir, args[i]); ok && !t.dynamic {
				dir = t.path
			}
			continue
		}
		if v == "-c" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" {
			i++
			continue
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
	}
	if i >= len(args) {
		return
	}
	verb, rest := args[i].Value, args[i+1:]
	switch verb {
	case "show", "cat-file":
		for _, w := range rest {
			if _, p, ok := strings.Cut(w.Value, ":"); ok && p != "" && !strings.HasPrefix(w.Value, "-") {
				if t, ok := s.resolveIn(dir, sub(w, p)); ok {
					s.readTarget(f, t, false)
				}
			}
		}
	case "diff":
		if !argIs(c, "--no-index") {
			return
		}
		for _, w := range parse(rest, spec{}).operands {
			if t, ok := s.resolveIn(dir, w); ok {
				s.readTarget(f, t, false)
			}
		}
	case "add", "stage":
		for _, w := range parse(rest, spec{long: []string{"chmod", "pathspec-from-file"}}).operands {
			t, ok := s.resolveIn(dir, w)
			if !ok {
				continue
			}
			if cl := s.classOf(t); cl.Secret() {
				s.add(toolwall.Finding{
					Rule: RuleCommit, Category: category, Score: askScore, Action: toolwall.Ask,
					Reason: fmt.Sprintf("Staging %s (%s) was stopped for a human: `%s` puts a secret into git, "+
						"where a push copies it to every clone and history keeps it. Commit a template "+
						"(.env.example) instead and keep the real file ignored.", t.path, cl, quote(c)),
				}, t.path)
			}
		}
	}
}

// editors open the files named by their operands; scripted (vim -c, ex
// -s) or not, what they open is read and may be changed in place.
var editors = map[string]bool{
	"vi": true, "vim": true, "nvim": true, "view": true, "vimdiff": true, "ex": true, "ed": true,
	"nano": true, "pico": true, "emacs": true, "micro": true, "joe": true, "mcedit": true,
}

// edit records that an editor reads its file operands and may change
// them.
func (s *state) edit(c *shell.Command, f *facts, args []shell.Word) {
	for _, w := range args {
		if strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+") {
			continue
		}
		s.read(c, f, w, false)
		s.modify(c, w)
	}
}

// inPlace reports whether an interpreter or awk edits its file operands
// in place: perl -i / -pi, ruby -i, gawk -i inplace.
func inPlace(c *shell.Command, a argv) bool {
	switch c.Name {
	case "perl", "ruby":
		return a.has("i")
	}
	for _, w := range a.values("i", "include") {
		if w.Value == "inplace" {
			return true
		}
	}
	return false
}

// codeVerbs are the words of a program text that delete, truncate or
// write files (Python, Node, Perl, Ruby, PHP).
var codeVerbs = []string{
	"unlink", "remove", "rmtree", "rmsync", "rmdir", "rm_rf", "rm_r", "delete", "truncate",
	"writefile", "appendfile", "write_text", "write_bytes", "shred", "rename",
	"file_put_contents", "'w'", "\"w\"", "'a'", "\"a\"", "'wb'", "\"wb\"", "'w+'", "\"w+\"", "'>'", "'>>'", "\">\"", "\">>\"",
}

// destructiveCode reports whether a program text holds one of codeVerbs.
func destructiveCode(code string) bool {
	l := strings.ToLower(code)
	for _, v := range codeVerbs {
		if strings.Contains(l, v) {
			return true
		}
	}
	return false
}

// chmodLoosens reports whether a chmod mode gives group or others write
// access, or (for a file holding a secret) any access.
func chmodLoosens(mode string, secret bool) bool {
	if mode != "" && strings.Trim(mode, "01234567") == "" {
		n := len(mode)
		if n < 3 {
			return false
		}
		g, o := mode[n-2]-'0', mode[n-1]-'0'
		if secret {
			return g != 0 || o != 0
		}
		return g&2 != 0 || o&2 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		who, perm, ok := strings.Cut(clause, "+")
		if !ok {
			who, perm, ok = strings.Cut(clause, "=")
		}
		if !ok || who != "" && !strings.ContainsAny(who, "goa") {
			continue
		}
		if strings.Contains(perm, "w") || secret && strings.Contains(perm, "r") {
			return true
		}
	}
	return false
}

// chmod reports loosening the permissions of a protected file: sshd
// ignores keys in a group- or world-writable .ssh, and anyone may then
// add a key; a readable /etc/shadow or key hands it to every user.
func (s *state) chmod(c *shell.Command, args []shell.Word) {
	a := parse(args, spec{long: []string{"reference"}})
	ops := a.operands
	if len(a.values("reference")) > 0 || len(ops) < 2 {
		return
	}
	mode := ops[0].Value
	for _, w := range ops[1:] {
		t, ok := s.resolve(c, w)
		if !ok || t.dynamic || !Protected(t.path, s.home, s.project) {
			continue
		}
		// A key file may not be readable by others; a key directory
		// only may not be writable (sshd's StrictModes).
		pl := classify(t.path)
		if !chmodLoosens(mode, pl.class.Secret() && !pl.keyDir) {
			continue
		}
		s.add(toolwall.Finding{
			Rule: RuleModifyAuth, Category: category, Score: denyScore, Action: toolwall.Deny,
			Reason: fmt.Sprintf("Loosening the permissions of %s was refused: `%s` would let other users read or "+
				"change a key or login file (and sshd stops accepting keys from a group- or world-writable "+
				".ssh). Keep ~/.ssh at 700 and keys at 600; ask the user if access must change.", t.path, quote(c)),
		}, t.path)
	}
}

// extractInto reports extracting an archive into a protected directory
// (tar -x -C ~/.ssh, unzip -d ~/.ssh): its files replace keys and login
// files there.
func (s *state) extractInto(c *shell.Command, dir string) {
	if dir == "" || !Protected(dir, s.home, s.project) {
		return
	}
	s.destroyed(c, target{path: dir}, "Extracting an archive into")
}

// unzip reads -d DIR.
func (s *state) unzip(c *shell.Command, args []shell.Word) {
	for _, w := range parse(args, spec{short: "dxP"}).values("d") {
		if t, ok := s.resolve(c, w); ok && !t.dynamic {
			s.extractInto(c, t.path)
		}
	}
}

// serverDir: python -m http.server [--directory D], php -S -t D, ruby
// -run -e httpd [D], busybox httpd -h D (the reader unwraps busybox). Returns the directory served and
// whether c starts such a server bound beyond loopback.
func (s *state) serverDir(c *shell.Command, args []shell.Word) (string, bool) {
	dir := s.cwd(c)
	var bind string
	switch c.Name {
	case "httpd":
		a := parse(args, spec{short: "phcrmeduP"})
		for _, w := range a.values("h") {
			dir = paths.Abs(paths.Expand(w.Value, s.home), dir)
		}
		for _, w := range a.values("p") {
			bind = w.Value
		}
	case "php":
		a := parse(args, spec{short: "cdSt"})
		if len(a.values("S")) == 0 {
			return "", false
		}
		bind = a.values("S")[0].Value
		for _, w := range a.values("t") {
			dir = paths.Abs(paths.Expand(w.Value, s.home), dir)
		}
	default:
		a := parse(args, spec{short: "mdbcW", long: []string{"directory", "bind"}})
		m := a.values("m")
		if len(m) == 0 || m[0].Value != "http.server" && m[0].Value != "SimpleHTTPServer" {
			if c.Name != "ruby" || !argIs(c, "-run") && !argIs(c, "httpd") {
				return "", false
			}
		}
		for _, w := range a.values("d", "directory") {
			dir = paths.Abs(paths.Expand(w.Value, s.home), dir)
		}
		for _, w := range a.values("b", "bind") {
			bind = w.Value
		}
		if c.Name == "ruby" {
			for _, w := range a.operands {
				if !strings.HasPrefix(w.Value, "-") && w.Value != "httpd" {
					dir = paths.Abs(paths.Expand(w.Value, s.home), dir)
				}
			}
		}
	}
	host, _, _ := strings.Cut(bind, ":")
	switch host {
	case "127.0.0.1", "localhost", "::1", "[::1]":
		return "", false
	}
	return dir, dir != ""
}

// serve reports a file server on a tree holding secrets.
func (s *state) serve(c *shell.Command, args []shell.Word) {
	dir, ok := s.serverDir(c, args)
	if !ok || !Holds(dir, s.home) && !classify(dir).class.Secret() {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleServe, Category: category, Score: askScore, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Serving %s over HTTP was stopped for a human: `%s` would hand the keys and credentials "+
			"in that tree to anyone who can reach the port. Serve a build or docs directory instead, or bind "+
			"to 127.0.0.1 (--bind 127.0.0.1).", dir, quote(c)),
	}, dir)
}

// kubectl reads the local files it puts into a cluster: create secret or
// configmap --from-file / --from-env-file, and cp of a local source.
func (s *state) kubectl(c *shell.Command, f *facts, args []shell.Word) {
	a := parse(args, spec{short: "ncf", long: []string{"namespace", "context", "cluster", "kubeconfig", "container", "from-file", "from-env-file", "from-literal", "type", "output", "dry-run"}})
	for _, w := range a.values("from-file", "from-env-file") {
		_, file, ok := strings.Cut(w.Value, "=")
		if !ok {
			file = w.Value
		}
		s.read(c, f, sub(w, file), true)
	}
	if len(a.operands) >= 3 && a.operands[0].Value == "cp" && !strings.Contains(a.operands[1].Value, ":") {
		s.read(c, f, a.operands[1], true)
	}
}
