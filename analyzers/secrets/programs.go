package secrets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// Program-specific judgments: what a program does that its catalog
// entry's roles do not say, read through the invocation (shell.Inv).

// root returns the name of c's catalog entry ("" when not in the
// catalog).
func root(c *shell.Command) string {
	if p := c.Inv.Program(); p != nil {
		return p.Root().Name
	}
	return ""
}

// sub reports whether c's invocation named the subcommand path.
func sub(c *shell.Command, names ...string) bool {
	return c.Inv != nil && c.Inv.Parsed != nil && c.Inv.Sub(names...)
}

// operandValues returns the values of c's operands (for a program not in
// the catalog: every word that is not an option).
func operandValues(c *shell.Command) []string {
	v := c.Inv
	if v == nil || v.Parsed == nil {
		return nil
	}
	var out []string
	for k := range v.Operands {
		out = append(out, v.Operand(k).Value)
	}
	return out
}

// commandWords returns the subcommand words of c as written, then its
// operand values: aws s3 cp reads "s3", "cp", … whether or not the
// catalog describes the subcommands.
func commandWords(c *shell.Command) []string {
	if c.Inv == nil || c.Inv.Parsed == nil {
		return nil
	}
	return append(slices.Clone(c.Inv.SubNames), operandValues(c)...)
}

// prints returns what c prints beyond the files it reads: the whole
// environment, a secret its catalog entry says it prints (gh auth
// token), the value of a variable named on printenv's command line, or
// output that describes this machine or account.
func (s *state) prints(c *shell.Command) []source {
	var out []source
	switch {
	case envDump(c):
		out = append(out, source{kind: kEnv})
	case printsSecret(c):
		svc, _ := places.ProgramService(strings.ToLower(c.Name))
		out = append(out, source{kind: kPrinted, name: quote(c), svc: svc})
		s.tag(toolwall.TagCredential, "", c.Name)
	}
	if c.Name == "printenv" {
		for _, n := range c.Inv.OperandsOf(programs.None) {
			if places.SecretName(n.Value) {
				svc, _ := places.NameService(n.Value)
				out = append(out, source{kind: kVar, name: n.Value, svc: svc})
			}
		}
	}
	if what := reveals(c); what != "" {
		out = append(out, source{kind: kMachine, name: what})
	}
	return out
}

// envDump reports a command that prints the whole environment: env and
// printenv without operands (their catalog entries say "prints secret if
// noargs"), export alone or -p, declare/typeset -x or -p, set alone.
func envDump(c *shell.Command) bool {
	switch c.Name {
	case "env", "printenv":
		p := c.Inv.Program()
		return p != nil && p.Prints == "secret" && c.Inv.Holds(p.PrintsIf)
	case "set":
		return len(c.Args) == 1
	case "export":
		return len(c.Args) == 1 || c.Arg(1) == "-p"
	case "declare", "typeset":
		return c.Arg(1) == "-x" || c.Arg(1) == "-p"
	}
	return false
}

// printsSecret reports a command whose output is a credential: its
// catalog entry says "prints secret" (gh auth token, op read, kubectl
// config view --raw, kubectl get secret -o yaml, aws secretsmanager
// get-secret-value, gcloud auth print-access-token, vault kv get, git
// credential fill, security find-generic-password -w, pass NAME).
func printsSecret(c *shell.Command) bool {
	p := c.Inv.Program()
	return p != nil && p.Prints == "secret" && c.Inv.Holds(p.PrintsIf)
}

// reveals says what c's output tells about this machine or account, ""
// for none: who the user is, the host's name and network, the processes,
// the accounts, the system's configuration, the traffic a capture saw.
func reveals(c *shell.Command) string {
	if p := c.Inv.Program(); p != nil && (p.Prints == "user" || p.Prints == "home") {
		return "the user's name (`" + quote(c) + "`)"
	}
	switch c.Name {
	case "whoami", "logname", "id", "groups", "users", "who", "w", "last", "lastlog", "finger", "getent", "dscl", "dscacheutil":
		return "who is on this machine (`" + quote(c) + "`)"
	case "hostname", "hostnamectl", "uname", "sw_vers", "system_profiler", "lscpu", "lsblk", "dmidecode", "ioreg", "scutil", "sysctl", "df", "mount", "uptime":
		return "what this machine is (`" + quote(c) + "`)"
	case "ifconfig", "ip", "netstat", "ss", "arp", "route", "nmcli", "iwconfig", "networksetup":
		return "this machine's network (`" + quote(c) + "`)"
	case "ps", "pstree", "top", "lsof", "history", "crontab":
		return "what runs on this machine (`" + quote(c) + "`)"
	case "tcpdump", "tshark", "dumpcap", "termshark", "tcpflow", "ngrep":
		return "traffic captured on this machine's network (`" + quote(c) + "`)"
	}
	return ""
}

// programReads records reads its catalog roles leave out or that come
// through an option whose file the program prints.
func (s *state) programReads(c *shell.Command, f *facts) {
	v := c.Inv
	read := func(w shell.Word, value string, tree bool) {
		if value == "" || value == "-" {
			return
		}
		p := paths.Abs(paths.Expand(value, s.home), c.Cwd)
		f.reads = append(f.reads, s.sourcesAt(p, w.Dynamic, tree)...)
	}
	switch r := root(c); {
	case r == "openssl" && !v.Has("pubout") && (sub(c, "rsa") || sub(c, "pkey") || sub(c, "ec") || sub(c, "dsa") ||
		sub(c, "pkcs8") || sub(c, "pkcs12") || sub(c, "enc") || sub(c, "base64")):
		// these print or re-encode the -in file
		for _, w := range v.Values("in") {
			read(w, w.Value, false)
		}
	case r == "gh" && sub(c, "secret", "set"):
		// the dotenv file becomes repository secrets: the user's own
		// store, but a human should see which values leave
		for _, w := range v.Values("env-file") {
			read(w, w.Value, false)
		}
	case r == "curl":
		for _, w := range v.Values("w", "write-out") {
			if file, ok := strings.CutPrefix(w.Value, "@"); ok {
				read(w, file, false) // -w @file prints the file
			}
		}
	case r == "kubectl" && (sub(c, "create") || sub(c, "cp")):
		// create secret/configmap --from-file puts local files into the
		// cluster; cp copies a local source into a pod
		for k, o := range v.Opts {
			if o.Name != "from-file" && o.Name != "from-env-file" {
				continue
			}
			w := v.Value(o)
			if !o.HasValue && o.Word+1 < len(v.Args) {
				w = v.Args[o.Word+1]
				_ = k
			}
			_, file, ok := strings.Cut(w.Value, "=")
			if !ok {
				file = w.Value
			}
			read(w, file, true)
		}
		if sub(c, "cp") {
			if w := v.Operand(0); w.Value != "" && !strings.Contains(w.Value, ":") {
				read(w, w.Value, true)
			}
		}
	case r == "git":
		s.gitReads(c, f)
	case r == "gpg":
		keys := paths.Abs(".gnupg/private-keys-v1.d", s.home)
		for _, o := range v.Opts {
			if strings.HasPrefix(o.Name, "export-secret") {
				f.reads = append(f.reads, source{kind: kFile, class: places.PrivateKey, path: keys})
			}
		}
	case editor(c.Name):
		for _, w := range v.Args[1:] {
			if strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+") || strings.HasPrefix(w.Value, ":") {
				continue
			}
			p := paths.Abs(paths.Expand(w.Value, s.home), c.Cwd)
			f.reads = append(f.reads, s.sourcesAt(p, w.Dynamic, false)...)
			s.modifyPath(c, p)
		}
	}
}

// editor reports text editors: they open the files named by their
// operands, and what they open is read and may be changed in place
// (vim -c, ex -s).
func editor(name string) bool {
	switch name {
	case "vi", "vim", "nvim", "view", "vimdiff", "ex", "ed", "nano", "pico", "emacs", "micro", "joe", "mcedit", "kak", "hx", "helix":
		return true
	}
	return false
}

// gitReads handles the git commands that print a file from history or
// the work tree (show REV:PATH, cat-file -p REV:PATH, diff --no-index)
// and the staging of a secret by name (add).
func (s *state) gitReads(c *shell.Command, f *facts) {
	v := c.Inv
	dir := c.Cwd
	if d := cdOption(c); d != "" {
		dir = d
	}
	switch {
	case sub(c, "show") || sub(c, "cat-file"):
		for k := range v.Operands {
			w := v.Operand(k)
			if _, p, ok := strings.Cut(w.Value, ":"); ok && p != "" {
				f.reads = append(f.reads, s.sourcesAt(paths.Abs(p, dir), w.Dynamic, false)...)
			}
		}
	case sub(c, "diff") && v.Has("no-index"):
		for _, w := range v.OperandsOf(programs.Read) {
			f.reads = append(f.reads, s.sourcesAt(paths.Abs(paths.Expand(w.Value, s.home), dir), w.Dynamic, false)...)
		}
	case sub(c, "add") || sub(c, "stage"):
		for k := range v.Operands {
			w := v.Operand(k)
			if w.Dynamic || w.Value == "" {
				continue
			}
			p := paths.Abs(paths.Expand(w.Value, s.home), dir)
			cl, _ := s.classOf(p)
			if !cl.Secret() {
				continue
			}
			s.add(toolwall.Finding{
				Rule: RuleCommit, Action: toolwall.Ask,
				Reason: fmt.Sprintf("Staging %s (%s) was stopped for a human: `%s` puts a secret into git, where a "+
					"push copies it to every clone and history keeps it. Commit a template (.env.example) instead "+
					"and keep the real file ignored.", p, cl, quote(c)),
			}, p)
		}
	}
}

// serve reports a file server started on a tree that holds secrets and
// bound beyond loopback: python -m http.server [--directory D] [--bind
// B], php -S ADDR -t D, ruby -run -e httpd [D], busybox httpd -h D.
func (s *state) serve(c *shell.Command) {
	v := c.Inv
	dir, bind := c.Cwd, ""
	abs := func(w string) string { return paths.Abs(paths.Expand(w, s.home), c.Cwd) }
	switch root(c) {
	case "python":
		mods := v.Values("module")
		if len(mods) == 0 || mods[0].Value != "http.server" && mods[0].Value != "SimpleHTTPServer" {
			return
		}
		// http.server's own arguments follow the module name.
		args := v.OperandsOf(programs.None)
		for i := 0; i < len(args); i++ {
			a := args[i].Value
			name, val, eq := strings.Cut(a, "=")
			switch name {
			case "-d", "--directory", "-b", "--bind":
				if !eq && i+1 < len(args) {
					i++
					val = args[i].Value
				}
				if name == "-d" || name == "--directory" {
					dir = abs(val)
				} else {
					bind = val
				}
			}
		}
	case "php":
		srv := v.Values("server")
		if len(srv) == 0 {
			return
		}
		bind = srv[0].Value
		for _, w := range v.Values("docroot") {
			dir = abs(w.Value)
		}
	case "ruby":
		if !anyValue(v.Values("r"), "un") || !anyValue(v.ValuesOf(programs.Code), "httpd") {
			return
		}
		for _, w := range v.OperandsOf(programs.Read) {
			if !strings.HasPrefix(w.Value, "-") {
				dir = abs(w.Value)
			}
		}
	case "httpd":
		for _, w := range v.Values("home") {
			dir = abs(w.Value)
		}
		for _, w := range v.Values("port") {
			bind = w.Value
		}
	default:
		return
	}
	host, _, _ := strings.Cut(bind, ":")
	switch host {
	case "127.0.0.1", "localhost", "::1", "[::1]":
		return
	}
	if dir == "" || !places.Holds(dir, s.home) && !places.Classify(dir).Secret() {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleServe, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Serving %s over HTTP was stopped for a human: `%s` would hand the keys and credentials "+
			"in that tree to anyone who can reach the port. Serve a build or docs directory instead, or bind "+
			"to 127.0.0.1 (--bind 127.0.0.1).", dir, quote(c)),
	}, dir)
}

// anyValue reports whether any word's value is v.
func anyValue(ws []shell.Word, v string) bool {
	for _, w := range ws {
		if w.Value == v {
			return true
		}
	}
	return false
}

// search reports find looking for keys and credential files by name:
// inside a credential store, or outside the project for names that are
// private keys, credential stores or system secrets (find / -name
// id_rsa, find /home -name .netrc). A search inside the project for
// .env files or certificates is ordinary.
func (s *state) search(c *shell.Command) {
	if root(c) != "find" {
		return
	}
	v := c.Inv
	starts := v.OperandsOf(programs.Read)
	if len(starts) == 0 {
		starts = []shell.Word{{Value: "."}}
	}
	names := append(v.Values("name", "iname"), v.Values("path", "ipath", "wholename", "iwholename")...)
	for _, st := range starts {
		if st.Dynamic {
			continue
		}
		dir := paths.Abs(paths.Expand(st.Value, s.home), c.Cwd)
		inStore := places.Classify(dir) == places.Credential || places.KeyDir(dir) && places.Classify(dir).Secret()
		if !inStore && (paths.Under(dir, s.project) || places.TempOutside(dir, s.home)) {
			continue // a search of the project or a temporary directory
		}
		for _, n := range names {
			if n.Dynamic || n.Value == "" {
				continue
			}
			cand := dir + "/" + strings.TrimPrefix(n.Value, "*/")
			if strings.HasPrefix(n.Value, "/") || strings.HasPrefix(n.Value, ".") && strings.Contains(n.Value, "/") {
				cand = paths.Abs(n.Value, c.Cwd)
			}
			cl := places.Classify(cand)
			if inStore && cl.Secret() || cl >= places.PrivateKey {
				s.add(toolwall.Finding{
					Rule: RuleSearch, Action: toolwall.Ask,
					Reason: fmt.Sprintf("Searching %s for %s files was stopped for a human: `%s` hunts for private keys "+
						"and credentials, the first step of stealing them. Name the one file you need, or ask the user.",
						dir, n.Value, quote(c)),
				}, dir+"\x00"+n.Value)
				s.tag(toolwall.TagCredential, "", "search")
				return
			}
		}
	}
}

// session reports a Chromium-family browser (Chrome, Chromium, Edge,
// Brave, Vivaldi, Opera; also through macOS open -a … --args) started
// with --remote-debugging-port or --remote-debugging-pipe on the user's
// own profile: no --user-data-dir, not headless. Chrome itself stopped
// honouring the switch on the default profile in 2025 for this reason.
func (s *state) session(c *shell.Command) {
	v := c.Inv
	if v == nil || v.Parsed == nil {
		return
	}
	debug, own := false, true
	for _, o := range v.Opts {
		switch {
		case o.Name == "remote-debugging-port" || o.Name == "remote-debugging-pipe":
			debug = true
		case o.Name == "user-data-dir" || strings.HasPrefix(o.Name, "headless"):
			own = false
		}
	}
	if !debug || !own {
		return
	}
	browser := false
	for _, w := range c.Args {
		l := strings.ToLower(w.Value)
		for _, b := range []string{"chrome", "chromium", "msedge", "microsoft edge", "brave", "vivaldi", "opera"} {
			if strings.Contains(l, b) {
				browser = true
			}
		}
	}
	if !browser {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleSession, Action: toolwall.Ask,
		Reason: fmt.Sprintf("`%s` was stopped for a human: it opens the user's own browser profile to remote "+
			"debugging, which hands every cookie and logged-in session to any program on this machine. Start the "+
			"browser with --headless or its own --user-data-dir instead.", quote(c)),
	}, fmt.Sprint(s.index[c]))
	s.tag(toolwall.TagCredential, "", "browser session")
}
