package secrets

import (
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// dest is one place a command sends data to.
type dest struct {
	// host is the lower-case host name or address; "" when it is only
	// known at run time.
	host    string
	network places.Network
	// path is a URL's path, for [places.Drop].
	path string
	// word is the word it comes from.
	word shell.Word
}

// sink is what a network command sends, and where.
type sink struct {
	dests []dest
	// files are paths whose content it sends.
	files []string
	// stdin: it sends its standard input.
	stdin bool
	// words are the words whose value goes out (data, URLs, host names,
	// a remote command, the operands of a client not in the catalog).
	words []shell.Word
	// hosts are the words that name hosts (DNS names leave the machine).
	hosts []shell.Word
	// socket: its output goes to /dev/tcp or /dev/udp.
	socket bool
	// drop: it is a peer-to-peer file sender (wormhole, croc).
	drop bool
}

// egress judges what c sends to the network.
func (s *state) egress(c *shell.Command) {
	s.trackSockets(c)
	s.codeEgress(c)
	sk, ok := s.sinkOf(c)
	if !ok {
		return
	}
	var sent []source
	local := false // a local file's content or a command's output goes out
	for _, p := range sk.files {
		srcs := s.sourcesAt(p, false, true)
		sent = append(sent, srcs...)
		local = true
	}
	if sk.stdin {
		sent = append(sent, s.stdinFile(c)...)
		up := s.upstream(c)
		if owner := s.writerOf(c); owner != nil {
			// cmd in >(…) reads what its owner writes there
			up = append(up, s.outOf(owner)...)
			local = true
		}
		sent = append(sent, up...)
		var here []shell.Word
		for _, r := range c.Redirects {
			if r.Op == "<<<" {
				here = append(here, r.Target)
			}
		}
		sent = append(sent, s.argSources(c, here, false)...)
		if len(up) > 0 || fedByCommand(c) {
			local = true
		}
	}
	args := s.argSources(c, sk.words, false)
	sent = append(sent, args...)
	if len(args) > 0 || substitutes(sk.words) {
		local = true
	}
	if sk.socket {
		if f := s.facts[c]; f != nil {
			sent = append(sent, f.out...)
		}
		local = true
	}
	s.tokens(c, sk)
	s.dnsData(c, sk)
	s.insecureUpload(c, sk)
	done := map[string]bool{}
	for _, x := range sent {
		if done[x.id()] {
			continue
		}
		done[x.id()] = true
		s.decide(c, sk, x)
	}
	if what, ok := dropDest(sk); ok && (local || sk.drop) || sk.drop {
		if !ok {
			what = "a peer-to-peer file transfer (" + c.Name + ")"
		}
		s.add(toolwall.Finding{
			Rule: RuleDrop, Action: toolwall.Ask,
			Reason: fmt.Sprintf("Sending local data to %s was stopped for a human: `%s` hands a file or a command's "+
				"output to a place made for others to collect it. Share results in the conversation instead, or ask "+
				"the user to confirm this upload.", what, quote(c)),
		}, fmt.Sprint(s.index[c]))
		s.tag(toolwall.TagEgress, "", "drop")
	}
}

// insecureUpload asks when c sends a body, a file or its standard input
// with certificate verification off (curl -k, wget
// --no-check-certificate) to a host that is neither this machine nor on
// a private network (RuleInsecureUpload). Loopback and private
// development hosts with self-signed certificates are ordinary.
func (s *state) insecureUpload(c *shell.Command, sk sink) {
	v := c.Inv
	if v == nil || v.Parsed == nil || !v.Has("insecure") {
		return
	}
	if !sk.stdin && len(sk.files) == 0 && !v.Has("data", "form", "upload-file", "body-file") {
		return
	}
	var far []dest
	for _, d := range sk.dests {
		if d.host == "" || d.network == places.Public || d.network == places.Reserved {
			far = append(far, d)
		}
	}
	if len(far) == 0 {
		return
	}
	s.add(toolwall.Finding{
		Rule: RuleInsecureUpload, Action: toolwall.Ask,
		Reason: fmt.Sprintf("Sending data to %s with certificate checks off was stopped for a human: anyone on the "+
			"path can read or change it. Drop -k/--insecure/--no-check-certificate and trust the server's CA "+
			"(--cacert), or ask the user. Command: `%s`", destNames(far), quote(c)),
	}, fmt.Sprint(s.index[c]))
	s.tag(toolwall.TagEgress, "", "insecure upload")
}

// writerOf returns the command whose >(…) argument c runs in: c reads
// what that command writes there (tee >(nc host port)).
func (s *state) writerOf(c *shell.Command) *shell.Command {
	if c.Via != "<()" && c.Via != ">()" || len(c.Args) == 0 {
		return nil
	}
	i := s.index[c]
	for j := i - 1; j >= 0; j-- {
		o := s.script.Commands[j]
		switch o.Via {
		case "$()", "``", "<()", ">()":
			continue
		}
		for _, w := range o.Args {
			if strings.Contains(w.Raw, ">(") && strings.Contains(w.Raw, c.Args[0].Raw) {
				return o
			}
		}
		return nil
	}
	return nil
}

// decide judges one source sent by c.
func (s *state) decide(c *shell.Command, sk sink, x source) {
	if x.kind == kMachine {
		if allLoopback(sk.dests) {
			return
		}
		s.add(toolwall.Finding{
			Rule: RuleOutput, Action: toolwall.Ask,
			Reason: fmt.Sprintf("Sending %s to the network was stopped for a human: `%s` sends out what the machine or "+
				"account is, the first thing an attacker collects. Send only the data the task needs, or ask the "+
				"user to confirm.", x.name, quote(c)),
		}, x.id())
		s.tag(toolwall.TagEgress, "", "system data")
		return
	}
	verdict := own
	if x.whole() {
		verdict = other
	} else {
		verdict = s.service(c, sk, x)
	}
	switch verdict {
	case own:
		put(&s.ownUse, x.id(), true)
		return
	case unsure:
		s.add(toolwall.Finding{
			Rule: RuleEgress, Action: toolwall.Ask,
			Reason: fmt.Sprintf("Sending %s was stopped for a human: `%s` sends a secret to %s, and whether that is "+
				"the secret's own service cannot be told. Name the service's URL plainly, or ask the user to confirm.",
				x.label(), quote(c), destNames(sk.dests)),
		}, x.id())
	default:
		what := "to the network"
		if x.svc.Known() {
			what = "to " + destNames(sk.dests) + ", not to " + x.svc.Name
		}
		s.add(toolwall.Finding{
			Rule: RuleExfil, Action: toolwall.Deny,
			Reason: fmt.Sprintf("Sending %s %s was refused: `%s` would copy a secret off this machine, which cannot "+
				"be taken back. Do not send keys, credentials, .env files or the environment anywhere; if a service "+
				"needs a credential, ask the user to configure it.", x.label(), what, quote(c)),
		}, x.id())
	}
	s.tag(toolwall.TagEgress, x.path, "secret")
}

// Verdicts on where a secret value goes.
const (
	own    = iota // its own service, or this machine
	unsure        // cannot be told
	other         // somewhere else
)

// service says whether every destination of sk is x's own service: a
// host of its known issuer, a destination whose name is configured
// beside it ($SUPABASE_URL with $SUPABASE_ANON_KEY), or this machine.
// A secret of unknown service may go to a host its name names
// (MYCOMPANY_TOKEN to api.mycompany.com) or to the local network; a
// printed secret of unknown service (op read) nowhere else.
func (s *state) service(c *shell.Command, sk sink, x source) int {
	verdict := own
	if len(sk.dests) == 0 {
		return unsure
	}
	for _, d := range sk.dests {
		switch {
		case d.network == places.Loopback:
		case d.host == "":
			if !s.paired(c, x, d.word) {
				verdict = max(verdict, unsure)
			}
		case x.svc.Known():
			if !x.svc.Serves(d.host) {
				return other
			}
		case x.kind == kPrinted:
			return other
		case stemHost(x.name, d.host) || d.network == places.Private:
		default:
			if _, drop := places.Drop(d.host, d.path); drop {
				return other
			}
			verdict = max(verdict, unsure)
		}
	}
	return verdict
}

// paired reports whether a destination known only at run time is named
// by the same service word as the secret: a variable or a key read from
// a file whose name shares its stem ($SUPABASE_URL, grep SUPABASE_URL
// .env.local beside SUPABASE_ANON_KEY).
func (s *state) paired(c *shell.Command, x source, w shell.Word) bool {
	stem := places.NameStem(x.name)
	if x.name == "" || stem == "" {
		return false
	}
	for _, n := range varRefs(w.Raw) {
		if places.NameStem(n) == stem && !places.SecretName(n) {
			return true
		}
	}
	if strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`") {
		for _, sub := range subsIn(w, s.subsOf(c)) {
			if root(sub) != "grep" {
				continue
			}
			for _, p := range sub.Inv.OperandsOf(programs.None) {
				if n := keyName(p.Value); n != "" && places.NameStem(n) == stem && !places.SecretName(n) {
					return true
				}
			}
		}
	}
	return false
}

// stemHost reports whether a variable's service word is a label of host
// (MYCOMPANY_TOKEN and api.mycompany.com).
func stemHost(name, host string) bool {
	stem := strings.ToLower(places.NameStem(name))
	switch stem {
	case "api", "app", "auth", "access", "secret", "token", "bearer", "db", "database", "service", "client",
		"private", "admin", "user", "my", "prod", "dev", "test", "staging", "local", "web", "server", "backend":
		return false // a generic word names no service
	}
	if len(stem) < 3 {
		return false
	}
	for _, l := range strings.Split(host, ".") {
		if l == stem {
			return true
		}
	}
	return false
}

func allLoopback(ds []dest) bool {
	for _, d := range ds {
		if d.network != places.Loopback {
			return false
		}
	}
	return len(ds) > 0
}

// destNames lists the destinations for a reason.
func destNames(ds []dest) string {
	var names []string
	for _, d := range ds {
		n := d.host
		if n == "" {
			n = "a host only known at run time (" + d.word.Raw + ")"
		}
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "an unnamed host"
	}
	if len(names) > 3 {
		names = append(names[:3], "…")
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// dropDest reports a destination that is a drop ([places.Drop]).
func dropDest(sk sink) (string, bool) {
	for _, d := range sk.dests {
		if d.host == "" {
			continue
		}
		if what, ok := places.Drop(d.host, d.path); ok {
			return what, true
		}
	}
	return "", false
}

// fedByCommand reports whether c's standard input comes from a command
// other than echo or printf of literal text, or from a file.
func fedByCommand(c *shell.Command) bool {
	switch c.Stdin.Kind {
	case shell.StdinFile:
		return true
	case shell.StdinPipe:
		for _, u := range feeds(c) {
			if (u.Name != "echo" && u.Name != "printf") || dynamicArgs(u) {
				return true
			}
		}
	}
	return false
}

// substitutes reports whether a word holds a command substitution.
func substitutes(ws []shell.Word) bool {
	for _, w := range ws {
		if w.Dynamic && (strings.Contains(w.Raw, "$(") || strings.Contains(w.Raw, "`") || strings.Contains(w.Raw, "<(")) {
			return true
		}
	}
	return false
}

func dynamicArgs(c *shell.Command) bool {
	for _, w := range c.Args[1:] {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// tokens judges credential-shaped tokens written on c's command line.
func (s *state) tokens(c *shell.Command, sk sink) {
	for _, w := range sk.words {
		if w.Dynamic {
			continue
		}
		kind, svc, ok := places.Token(w.Value)
		if !ok {
			continue
		}
		verdict := own
		for _, d := range sk.dests {
			switch {
			case d.network == places.Loopback:
			case d.host == "":
				verdict = max(verdict, unsure)
			case svc.Known() && svc.Serves(d.host):
			case !svc.Known() && kind == "a JSON Web Token":
				if !isURL(w) {
					continue // a bearer header to an API: its own use
				}
				verdict = max(verdict, unsure)
			default:
				verdict = other
			}
		}
		if len(sk.dests) == 0 {
			verdict = other
		}
		switch verdict {
		case unsure:
			s.add(toolwall.Finding{
				Rule: RuleEgress, Action: toolwall.Ask,
				Reason: fmt.Sprintf("Sending %s was stopped for a human: `%s` puts it where its own service cannot be "+
					"told (a URL ends up in logs and proxies). Send it in a header to its issuer, or ask the user.", kind, quote(c)),
			}, "token\x00"+w.Value)
		case other:
			s.add(toolwall.Finding{
				Rule: RuleTokenEgress, Action: toolwall.Deny,
				Reason: fmt.Sprintf("Sending %s to %s was refused: `%s` carries it on its command line, and a leaked "+
					"credential can only be fixed by rotating it. Do not send credentials anywhere; if a service needs "+
					"one, ask the user to configure it.", kind, destNames(sk.dests), quote(c)),
			}, "token\x00"+w.Value)
		default:
			continue
		}
		s.tag(toolwall.TagEgress, "", "credential token")
	}
}

// isURL reports a word that is a URL.
func isURL(w shell.Word) bool { return strings.Contains(w.Value, "://") }

// dnsData asks about a host name built from a command's output followed
// by a fixed domain ($(…).x.example): the name itself carries data to
// that domain's name servers.
//
// For the chain rules (a secret read in one call, egress in a later one),
// a host name that may carry data is tagged egress even when it asks
// nothing: a label from a variable ($X.x.example) or a label that looks
// like encoded data (20 or more base64 or hex characters).
func (s *state) dnsData(c *shell.Command, sk sink) {
	for _, w := range sk.hosts {
		host := w.Value
		if i := strings.Index(host, "://"); i >= 0 {
			host = host[i+3:]
		}
		if !w.Dynamic {
			if dataLabel(host) {
				s.tag(toolwall.TagEgress, "", "dns")
			}
			continue
		}
		if !strings.HasPrefix(host, ".") || !strings.ContainsAny(host, "abcdefghijklmnopqrstuvwxyz") {
			continue
		}
		if !strings.Contains(w.Raw, "$(") && !strings.Contains(w.Raw, "`") {
			s.tag(toolwall.TagEgress, "", "dns")
			continue
		}
		s.add(toolwall.Finding{
			Rule: RuleDNS, Action: toolwall.Ask,
			Reason: fmt.Sprintf("`%s` was stopped for a human: it builds a host name from a command's output, and the "+
				"lookup alone carries that output to the name servers of %s (DNS exfiltration). Use a fixed host name, "+
				"or ask the user.", quote(c), strings.TrimPrefix(host, ".")),
		}, "dns\x00"+w.Raw)
		s.tag(toolwall.TagEgress, "", "dns")
	}
}

// dataLabel reports a host name whose first label looks like encoded
// data: 20 or more letters and digits with digits among them and no
// hyphen (host names join words with hyphens; hex and base32 do not).
func dataLabel(host string) bool {
	label, rest, ok := strings.Cut(host, ".")
	if !ok || !strings.Contains(rest, ".") && len(rest) < 2 || len(label) < 20 {
		return false
	}
	digits := false
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		default:
			return false
		}
	}
	return digits
}

// trackSockets remembers the file descriptors a redirection opened on
// /dev/tcp or /dev/udp (exec 3<>/dev/tcp/host/80).
func (s *state) trackSockets(c *shell.Command) {
	for _, r := range c.Redirects {
		if host, ok := socketHost(r.Target); ok && r.Fd != "" && r.Fd != "1" && r.Fd != "2" && !r.Target.Dynamic {
			put(&s.sockets, r.Fd, host)
		}
	}
}

// socketHost returns the host of a /dev/tcp/HOST/PORT or /dev/udp path.
func socketHost(w shell.Word) (string, bool) {
	v := w.Value
	if w.Dynamic {
		v = w.Prefix
	}
	for _, p := range []string{"/dev/tcp/", "/dev/udp/"} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			h, _, _ := strings.Cut(rest, "/")
			return strings.ToLower(h), true
		}
	}
	return "", false
}

// sinkOf says what c sends to the network and where; ok is false when c
// sends nothing.
func (s *state) sinkOf(c *shell.Command) (sk sink, ok bool) {
	if len(c.Args) == 0 {
		return sk, false
	}
	v := c.Inv
	net := false
	for _, e := range c.Effects {
		switch e.Kind {
		case shell.Fetches:
			net = true
			sk.dests = append(sk.dests, urlDest(e.Word))
			sk.words = append(sk.words, e.Word)
			sk.hosts = append(sk.hosts, e.Word)
		case shell.Writes:
			if host, ok := socketHost(e.Word); ok && e.From != ">" && e.From != ">>" {
				// tee /dev/tcp/host/port: what reaches it goes out
				net, sk.stdin, sk.socket = true, true, true
				sk.dests = append(sk.dests, hostDest(shell.Word{Raw: host, Value: host, Prefix: host}, programs.Host))
			}
		case shell.Connects:
			net = true
			sk.dests = append(sk.dests, hostDest(e.Word, e.Role))
			sk.hosts = append(sk.hosts, e.Word)
			if e.Role == programs.Host && (!e.Word.Dynamic || strings.HasPrefix(e.Word.Value, ".")) {
				// a host name carries data when it is written out or
				// built as DATA.domain; a whole name from a command
				// (nslookup $(hostname)) is a lookup of that name
				sk.words = append(sk.words, e.Word)
			}
		case shell.Sends:
			net = true
			switch {
			case e.Data && placeholder(c, e.Word) && strings.Contains(e.Word.Value, "@"):
				// curl -d @{} under xargs: each item is a file sent
				for _, w := range s.listed(c) {
					sk.files = append(sk.files, paths.Abs(paths.Expand(w.Value, s.home), c.Cwd))
				}
			case e.Data:
				if file, ok := namedFile(e); ok {
					sk.files = append(sk.files, paths.Abs(paths.Expand(file, s.home), c.Cwd))
					continue
				}
				sk.words = append(sk.words, e.Word)
			case e.From == "--data-raw":
				sk.words = append(sk.words, e.Word) // --data-raw takes "@" literally
			case e.Path != "":
				p, _ := s.effectPath(c, e)
				sk.files = append(sk.files, p)
			case placeholder(c, e.Word) && e.Role == programs.Upload:
				// curl -d @{} under xargs: each item is a file sent
				for _, w := range s.listed(c) {
					sk.files = append(sk.files, paths.Abs(paths.Expand(w.Value, s.home), c.Cwd))
				}
			case e.Word.Dynamic:
				sk.words = append(sk.words, e.Word)
			}
		}
	}
	for _, r := range c.Redirects {
		if !r.Writes() && r.Op != ">&" {
			continue
		}
		if host, ok := socketHost(r.Target); ok {
			net, sk.socket = true, true
			sk.dests = append(sk.dests, hostDest(shell.Word{Raw: host, Value: host, Prefix: host}, programs.Host))
		} else if r.Op == ">&" && !r.Target.Dynamic && s.sockets[r.Target.Value] != "" {
			host := s.sockets[r.Target.Value]
			net, sk.socket = true, true
			sk.dests = append(sk.dests, hostDest(shell.Word{Raw: host, Value: host, Prefix: host}, programs.Host))
		}
	}
	if v != nil && v.Parsed != nil {
		// standard input sent: nc, mail, openssl s_client, ssh
		if (v.Stdin == programs.Upload || v.Stdin == programs.Remote) && !v.Has("no-command") && !(root(c) == "ssh" && v.Has("n")) {
			sk.stdin = true
		}
		for _, w := range append(v.ValuesOf(programs.Upload), v.OperandsOf(programs.Upload)...) {
			if w.Value == "-" || w.Value == "/dev/stdin" || w.Value == "." && root(c) == "curl" {
				sk.stdin, net = true, true
			}
		}
		for _, w := range append(v.ValuesOf(programs.Data), v.OperandsOf(programs.Data)...) {
			if d := w.Value; !w.Dynamic && (d == "@-" || strings.HasSuffix(d, "=@-") || strings.HasSuffix(d, "=<-") || d == "@/dev/stdin") {
				sk.stdin, net = true, true
			}
		}
		if root(c) == "curl" {
			// --variable NAME@FILE (curl 8.3) reads a file into a variable
			// that --expand-* options send
			for _, w := range v.Values("variable") {
				if i := strings.IndexByte(w.Value, '@'); i > 0 && !strings.Contains(w.Value[:i], "=") && !w.Dynamic {
					sk.files = append(sk.files, paths.Abs(paths.Expand(w.Value[i+1:], s.home), c.Cwd))
				}
			}
		}
		for _, w := range v.OperandsOf(programs.Remote) {
			sk.words = append(sk.words, w)
		}
	}
	switch r := root(c); {
	case r == "gh" && len(sk.files)+len(sk.words) > 0 || r == "gh" && sk.stdin:
		sk.dests = append(sk.dests, hostDest(shell.Word{Value: "api.github.com"}, programs.Host))
		net = true
	case r == "wormhole" || r == "croc":
		if len(sk.files) > 0 || sk.stdin || len(v.Values("text")) > 0 {
			sk.drop, net = true, true
			sk.words = append(sk.words, v.Values("text")...)
		}
	case r == "socat":
		net = s.socat(c, &sk) || net
	case r == "ftp" || r == "sftp":
		net = s.transfer(c, &sk) || net
	default:
		net = s.cloudCopy(c, &sk) || net
	}
	if c.Via == "xargs" {
		for _, w := range c.Args[1:] {
			if placeholder(c, w) && !containsWord(sk.words, w) {
				sk.words = append(sk.words, w)
			}
		}
	}
	return sk, net
}

func containsWord(ws []shell.Word, w shell.Word) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// namedFile reads curl's --data-urlencode NAME@FILE form, which sends
// a file's content (the reader takes it for literal data).
func namedFile(e shell.Effect) (string, bool) {
	if !strings.HasPrefix(e.From, "--data-urlencode") || e.Word.Dynamic {
		return "", false
	}
	v := e.Word.Value
	if _, after, ok := strings.Cut(v, "--data-urlencode="); ok {
		v = after
	}
	i := strings.IndexByte(v, '@')
	if i < 0 || strings.Contains(v[:i], "=") || v[i+1:] == "-" {
		return "", false
	}
	return v[i+1:], true
}

// urlDest reads a URL word's host; a dynamic word's host is read from
// its static prefix when that holds a whole host (https://h/$(…)).
func urlDest(w shell.Word) dest {
	text := w.Value
	if w.Dynamic && !onlySecretRefs(w.Raw) {
		text = w.Prefix
		rest := text
		if i := strings.Index(rest, "://"); i >= 0 {
			rest = rest[i+3:]
		}
		if !strings.ContainsAny(rest, "/?#") {
			return dest{word: w}
		}
	}
	u, err := places.ParseURL(text)
	if err != nil || u.Host == "" {
		return dest{word: w}
	}
	d := dest{host: strings.ToLower(u.Host), network: u.Network, word: w}
	if i := strings.Index(text, "://"); i >= 0 {
		rest := text[i+3:]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			d.path = rest[j:]
		}
	}
	return d
}

// onlySecretRefs reports raw text whose only expansions are secret
// variables ($GITHUB_TOKEN in https://x:$GITHUB_TOKEN@github.com/…): a
// token cannot move the host, so the host written is the host reached.
func onlySecretRefs(raw string) bool {
	if strings.Contains(raw, "$(") || strings.Contains(raw, "`") || strings.Contains(raw, "${!") {
		return false
	}
	refs := varRefs(raw)
	if len(refs) == 0 || strings.Count(raw, "$") != len(refs) {
		return false
	}
	for _, r := range refs {
		if !places.SecretName(r) {
			return false
		}
	}
	return true
}

// hostDest reads a host word (host, user@host, host:port, host:path,
// @resolver, a recipient's address); a dynamic word whose static text
// after the expansion is a domain (".x.example") goes to that domain.
func hostDest(w shell.Word, role programs.Role) dest {
	v := w.Value
	if w.Dynamic {
		if !strings.HasPrefix(v, ".") || strings.Count(v, ".") < 2 {
			return dest{word: w}
		}
		v = strings.TrimPrefix(v, ".")
	}
	v = strings.TrimPrefix(v, "@")
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	if strings.HasPrefix(v, "[") {
		if j := strings.IndexByte(v, ']'); j > 0 {
			v = v[1:j]
		}
	} else if i := strings.IndexByte(v, ':'); i >= 0 && strings.Count(v, ":") == 1 {
		v = v[:i]
	}
	if strings.Contains(v, "://") {
		return urlDest(shell.Word{Raw: w.Raw, Value: v, Prefix: v})
	}
	if v == "" {
		return dest{word: w}
	}
	u, err := places.ParseURL("//" + v)
	if err != nil || u.Host == "" {
		return dest{host: strings.ToLower(v), word: w}
	}
	return dest{host: strings.ToLower(u.Host), network: u.Network, word: w}
}

// socat reads socat's two addresses: FILE:, OPEN: and GOPEN: name files,
// "-", STDIO and STDIN the standard input, TCP:, UDP:, OPENSSL: and
// SSL: a host. It reports whether one address is on the network.
func (s *state) socat(c *shell.Command, sk *sink) bool {
	var files []string
	stdin, net := false, false
	for _, val := range operandValues(c) {
		l := strings.ToLower(val)
		kind, rest, _ := strings.Cut(val, ":")
		switch lk := strings.ToLower(kind); {
		case l == "-" || strings.HasPrefix(l, "stdin") || strings.HasPrefix(l, "stdio"):
			stdin = true
		case lk == "file" || lk == "open" || lk == "gopen":
			file, _, _ := strings.Cut(rest, ",")
			files = append(files, paths.Abs(paths.Expand(file, s.home), c.Cwd))
		case strings.HasPrefix(lk, "tcp") || strings.HasPrefix(lk, "udp") || lk == "openssl" || lk == "ssl" || lk == "sctp":
			net = true
			host, _, _ := strings.Cut(rest, ",")
			sk.dests = append(sk.dests, hostDest(shell.Word{Raw: host, Value: host, Prefix: host}, programs.Host))
		}
	}
	if net {
		sk.files = append(sk.files, files...)
		sk.stdin = sk.stdin || stdin
	}
	return net
}

// transfer reads the script of an interactive file-transfer client
// (sftp, ftp, lftp, tftp): the files a put names — in a heredoc, a
// here-string, echo piped in, -c or the command line — are sent; for ftp
// -u, the operands after the URL.
func (s *state) transfer(c *shell.Command, sk *sink) bool {
	n := len(sk.files)
	var words []string
	for _, w := range c.Args[1:] {
		words = append(words, w.Value)
	}
	texts := []string{strings.Join(words, " ")}
	switch c.Stdin.Kind {
	case shell.StdinHeredoc:
		texts = append(texts, c.Stdin.Text)
	case shell.StdinPipe:
		for _, u := range feeds(c) {
			if u.Name == "echo" || u.Name == "printf" {
				for _, w := range u.Args[1:] {
					texts = append(texts, strings.ReplaceAll(w.Value, `\n`, "\n"))
				}
			}
		}
	}
	for _, t := range texts {
		for _, line := range strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }) {
			fields := strings.Fields(line)
			for i, fw := range fields {
				switch strings.ToLower(fw) {
				case "put", "mput", "reput", "append", "send":
				default:
					continue
				}
				for _, file := range fields[i+1:] {
					if !strings.HasPrefix(file, "-") {
						sk.files = append(sk.files, paths.Abs(paths.Expand(strings.Trim(file, `'"`), s.home), c.Cwd))
					}
				}
				break
			}
		}
	}
	if c.Name == "ftp" && c.Inv.Has("u") {
		for k, val := range operandValues(c) {
			if k > 0 {
				sk.files = append(sk.files, paths.Abs(paths.Expand(val, s.home), c.Cwd))
			}
		}
	}
	return len(sk.files) > n
}

// cloudCopy reads the object-storage copies of the cloud clients, by
// their subcommand and operand words (aws s3 cp|mv|sync, gsutil cp|mv|rsync, gcloud storage
// cp|mv|rsync, rclone copy|copyto|move|moveto|sync, azcopy copy|cp|sync,
// az storage blob upload -f): when an operand is remote (scheme://… or
// remote:path), the local ones are sent. It reports whether c uploads.
func (s *state) cloudCopy(c *shell.Command, sk *sink) bool {
	switch c.Name {
	case "aws", "gsutil", "gcloud", "rclone", "azcopy", "az":
	default:
		return false // the words below are read only for these
	}
	ops := commandWords(c)
	if len(ops) == 0 {
		return false
	}
	verbs := 1
	switch {
	case c.Name == "aws" && ops[0] == "s3" && len(ops) > 1 && (ops[1] == "cp" || ops[1] == "mv" || ops[1] == "sync"):
		verbs = 2
	case c.Name == "gsutil" && (ops[0] == "cp" || ops[0] == "mv" || ops[0] == "rsync"):
	case c.Name == "gcloud" && ops[0] == "storage" && len(ops) > 1 && (ops[1] == "cp" || ops[1] == "mv" || ops[1] == "rsync"):
		verbs = 2
	case c.Name == "rclone" && (ops[0] == "copy" || ops[0] == "copyto" || ops[0] == "move" || ops[0] == "moveto" || ops[0] == "sync"):
	case c.Name == "azcopy" && (ops[0] == "copy" || ops[0] == "cp" || ops[0] == "sync"):
	case c.Name == "az" && contains(ops, "upload") || c.Name == "az" && contains(ops, "upload-batch"):
		for _, o := range c.Inv.Opts {
			if o.Name == "f" || o.Name == "file" || o.Name == "source" || o.Name == "s" {
				w := c.Inv.Value(o)
				if !o.HasValue && o.Word+1 < len(c.Inv.Args) {
					w = c.Inv.Args[o.Word+1]
				}
				sk.files = append(sk.files, paths.Abs(paths.Expand(w.Value, s.home), c.Cwd))
			}
		}
		sk.dests = append(sk.dests, dest{host: "blob.core.windows.net"})
		return len(sk.files) > 0
	default:
		return false
	}
	remote := false
	for _, o := range ops[verbs:] {
		if cloudRemote(o) {
			remote = true
		}
	}
	if !remote {
		return false
	}
	for _, o := range ops[verbs:] {
		if !cloudRemote(o) && o != "-" {
			sk.files = append(sk.files, paths.Abs(paths.Expand(o, s.home), c.Cwd))
		}
		if o == "-" {
			sk.stdin = true
		}
	}
	sk.dests = append(sk.dests, dest{host: "object storage (" + c.Name + ")"})
	return true
}

// cloudRemote reports an object-storage location: scheme://… or an
// rclone remote:path (a colon before the first slash).
func cloudRemote(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.Contains(v[:i], "/")
}

// codeEgress judges program text (python -c, node -e, a heredoc fed to
// an interpreter) that reads secrets from the environment and names a
// URL: the URL's host is taken for the destination. An environment
// variable is read through the language's API (os.environ["X"],
// os.getenv("X"), process.env.X, ENV["X"], $ENV{X}, getenv("X"),
// Deno.env.get("X"), os.Getenv("X")); the whole environment through
// dict(os.environ), JSON.stringify(process.env), %ENV and the like.
func (s *state) codeEgress(c *shell.Command) {
	for _, code := range codeTexts(c) {
		if len(code) > 64<<10 {
			code = code[:64<<10]
		}
		var sk sink
		hosts := map[string]bool{}
		for _, u := range urlsIn(code) {
			d := urlDest(shell.Word{Raw: u, Value: u, Prefix: u})
			if !hosts[d.host] {
				hosts[d.host] = true
				sk.dests = append(sk.dests, d)
			}
		}
		if len(sk.dests) == 0 {
			continue
		}
		var srcs []source
		names := map[string]bool{}
		for _, n := range envRefs(code) {
			if !names[n] {
				names[n] = true
				srcs = append(srcs, s.varSources(n)...)
			}
		}
		if wholeEnv(code) {
			srcs = append(srcs, source{kind: kEnv})
		}
		for _, x := range srcs {
			s.decide(c, sk, x)
		}
	}
}

// urlsIn returns the http(s) URL literals in program text.
func urlsIn(code string) []string {
	var out []string
	for i := 0; i < len(code); {
		j := strings.Index(code[i:], "http")
		if j < 0 {
			break
		}
		k := i + j
		rest := code[k:]
		if strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") {
			end := strings.IndexAny(rest, " \t\n'\"`)+,;}")
			if end < 0 {
				end = len(rest)
			}
			out = append(out, rest[:end])
			i = k + end
			continue
		}
		i = k + 4
	}
	return out
}

// envRefs returns the environment variable names program text reads.
func envRefs(code string) []string {
	var out []string
	for _, api := range []string{"environ[", "environ.get(", "getenv(", "process.env.", "process.env[", "ENV[", "ENV.fetch(", "$ENV{", "Deno.env.get(", "os.Getenv("} {
		for i := 0; ; {
			j := strings.Index(code[i:], api)
			if j < 0 {
				break
			}
			k := i + j + len(api)
			name := strings.TrimLeft(code[k:], "'\" ")
			end := 0
			for end < len(name) && (name[end] == '_' || name[end] >= 'A' && name[end] <= 'Z' || name[end] >= 'a' && name[end] <= 'z' || name[end] >= '0' && name[end] <= '9') {
				end++
			}
			if end > 0 {
				out = append(out, name[:end])
			}
			i = k
		}
	}
	return out
}

// wholeEnv reports program text that takes the whole environment.
func wholeEnv(code string) bool {
	for _, w := range []string{"dict(os.environ", "os.environ.copy()", "os.environ)", "os.environ.items()", "process.env)",
		"process.env,", "process.env}", "%ENV", "ENV.to_h", "getenv()", "Deno.env.toObject()", "os.Environ()"} {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}
