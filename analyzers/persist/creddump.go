package persist

import (
	"path"
	"strconv"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

func (k *checker) credAsk(c *shell.Command, rule, why, instead, p string) {
	k.r.Tag(toolwall.TagCredential, p, "")
	k.ask(quote(c), rule, catCredDump, why, instead)
}

// dumpTool: a credential dumper run by name (the catalog's "lazagne"
// entry names LaZagne, mimipenguin, mimikatz, pypykatz, secretsdump and
// keychain and browser dumpers; ATT&CK T1003, T1555).
func (k *checker) dumpTool(c *shell.Command) {
	k.credAsk(c, RuleDumpTool, path.Base(c.Args[0].Value)+" is a credential dumper: it extracts saved passwords, hashes and keys",
		"Do not dump credentials; if a tool needs a secret, ask the user to provide it", "")
}

// interpreted: a dumper's script run by an interpreter ("python3
// laZagne.py all", "sh mimipenguin.sh"): the script operand names an
// entry of the dumpers.
func (k *checker) interpreted(c *shell.Command) {
	if c.Inv.Program() == nil {
		return
	}
	for _, w := range c.Inv.OperandsOf(programs.Exec) {
		if w.Dynamic {
			continue
		}
		b := baseName(w.Value)
		if p := programs.Lookup(b); p != nil && p.Root().Name == "lazagne" {
			k.credAsk(c, RuleDumpTool, b+" is a credential dumper: it extracts saved passwords, hashes and keys",
				"Do not dump credentials; if a tool needs a secret, ask the user to provide it", "")
		}
		return
	}
}

// cracker: unshadow always; hashcat and john when a word names the
// shadow or master.passwd file (password cracking of this machine).
func (k *checker) cracker(c *shell.Command) {
	if c.Name == "unshadow" {
		k.credAsk(c, RuleDumpTool, "unshadow merges the password and shadow files to crack the machine's passwords",
			"Do not crack passwords; ask the user", "/etc/shadow")
		return
	}
	for _, w := range c.Args[1:] {
		v := w.Value
		if i := strings.IndexByte(v, '='); i > 0 && strings.HasPrefix(v, "-") {
			v = v[i+1:]
		}
		b := baseName(v)
		if b == "shadow" || b == "master.passwd" || b == "gshadow" || strings.Contains(b, "unshadow") {
			k.credAsk(c, RuleDumpTool, c.Name+" cracks the password hashes of the machine's accounts",
				"Do not crack passwords; ask the user", "/etc/shadow")
			return
		}
	}
}

// memoryWords: any word or redirection naming another process's memory
// (/proc/PID/mem, /dev/mem, /dev/kmem, /proc/kcore), read by any program
// (dd if=, cat, python, …). /proc/self/mem is the program's own.
func (k *checker) memoryWords(c *shell.Command) {
	check := func(w shell.Word) bool {
		v := w.Value
		if i := strings.IndexByte(v, '='); i > 0 && !strings.HasPrefix(v, "/") {
			v = v[i+1:] // dd if=…
		}
		if w.Dynamic {
			v = w.Raw
			if i := strings.Index(v, "/proc/"); i >= 0 {
				v = v[i:]
			}
			v = strings.Trim(v, `"'`)
		}
		switch {
		case v == "/dev/mem" || v == "/dev/kmem" || v == "/proc/kcore":
		case strings.HasPrefix(v, "/proc/") && strings.HasSuffix(v, "/mem") && !strings.HasPrefix(v, "/proc/self/") && strings.Count(v, "/") == 3:
		default:
			return false
		}
		k.credAsk(c, RuleProcessMemory, "it reads "+v+", the memory of another process or of the kernel, where passwords and keys sit in clear text",
			"Do not read process memory; debug your own program with its logs or a debugger you start", "")
		return true
	}
	for _, w := range c.Args {
		if check(w) {
			return
		}
	}
	for _, r := range c.Redirects {
		if r.Op == "<" && check(r.Target) {
			return
		}
	}
}

// gcore, procdump, memdump, avml dump process or physical memory.
func (k *checker) gcore(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	k.credAsk(c, RuleProcessMemory, c.Name+" dumps the memory of a process or the machine, where passwords and keys sit in clear text",
		"Do not dump memory; debug your own program with its logs, or ask the user", "")
}

// gdb/lldb attached to a running process (-p, --pid, --attach-name, or
// an attach command) with a memory dump command (dump, gcore,
// generate-core-file, memory read, x/) asks; a plain attach warns.
func (k *checker) gdb(c *shell.Command) {
	attach := has(c, "pid", "attach-name")
	dump := false
	for _, w := range values(c, "ex", "iex", "one-line", "one-line-before") {
		e := strings.ToLower(strings.TrimSpace(w.Value))
		dump = dump || strings.Contains(e, "dump") || strings.Contains(e, "gcore") || strings.Contains(e, "generate-core-file") ||
			strings.Contains(e, "memory read") || strings.HasPrefix(e, "x/")
		attach = attach || strings.HasPrefix(e, "attach") || strings.HasPrefix(e, "process attach")
	}
	switch {
	case attach && dump:
		k.credAsk(c, RuleProcessMemory, c.Name+" attaches to a running process and dumps its memory, where passwords and keys sit in clear text",
			"Do not dump another process's memory; debug your own program, or ask the user", "")
	case attach:
		k.warn(quote(c), RuleProcessMemory, catCredDump, c.Name+" attaches to a running process and can read all of its memory",
			"Attach only to a process you started")
	}
}

// browserStoreName reports the base names (lower case) of a browser
// profile's files that hold saved passwords, cookies or the key that
// decrypts them.
func browserStoreName(b string) bool {
	switch b {
	case "login data", "login data for account", "cookies", "web data", "local state", "logins.json", "key4.db", "key3.db",
		"cookies.sqlite", "signons.sqlite", "cookies.binarycookies", "logins-backup.json":
		return true
	}
	return false
}

// browserDirs are path components that mark a browser profile (lower
// case).
var browserDirs = [...]string{"google-chrome", "chromium", "/google/chrome", "bravesoftware", "microsoft-edge", "microsoft edge", "/microsoft/edge",
	".mozilla/firefox", "firefox/profiles", "com.apple.safari", "opera", "vivaldi", "librewolf", "/arc/user data"}

// browserStore reports whether p (lower case) names a browser store: its
// base is a store's name (or a glob whose literal start is one's), and
// it lies in a browser profile; Cookies.binarycookies anywhere.
func browserStore(p string) bool {
	b := path.Base(p)
	if !browserStoreName(b) {
		i := strings.IndexAny(b, "*?[")
		if i < 2 {
			return false
		}
		lit := b[:i]
		ok := false
		for _, s := range [...]string{"login data", "cookies", "web data", "local state", "logins.json", "key4.db", "key3.db"} {
			ok = ok || strings.HasPrefix(s, lit)
		}
		if !ok {
			return false
		}
	}
	if b == "cookies.binarycookies" {
		return true
	}
	for _, d := range browserDirs {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// archiver reports programs that copy whole directories.
func archiver(root string) bool {
	switch root {
	case "tar", "zip", "7z", "cp", "rsync", "scp", "ditto", "cpio", "rclone":
		return true
	}
	return false
}

// browserProfile reports a path inside a Chrome-family or Firefox
// profile tree (the tree itself included).
func browserProfile(p string) bool {
	for _, d := range [...]string{".mozilla/firefox", "firefox/profiles", "google-chrome", "/google/chrome", "chromium", "bravesoftware", "microsoft-edge", "microsoft edge", "/microsoft/edge"} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// browserWords: any word naming a browser store, read by any program
// (cat, cp, sqlite3, strings, tar, …), and an archiver copying a whole
// profile. A copy's destination is written, not read.
func (k *checker) browserWords(c *shell.Command) {
	arch := archiver(rootName(c))
	check := func(w shell.Word) bool {
		v := w.Value
		if w.Dynamic {
			v = w.Raw
		}
		if !strings.Contains(strings.ToLower(v), "cookies") && !strings.ContainsAny(v, "*?[") && !browserProfile(strings.ToLower(v)) &&
			!strings.Contains(v, "/") && !strings.HasPrefix(v, "~") {
			return false // a bare word names no profile file (fast path)
		}
		if arch && !strings.HasPrefix(v, "-") && browserProfile(strings.ToLower(paths.Expand(v, k.home))) {
			k.credAsk(c, RuleBrowserStore, "it copies the browser profile "+v+", which holds saved passwords and cookies",
				"Do not copy browser profiles; ask the user for what you need", k.abs(c, w))
			return true
		}
		p := strings.ToLower(paths.Expand(strings.TrimPrefix(v, "file:"), k.home))
		if i := strings.LastIndexByte(p, '?'); i > 0 && strings.Contains(p[i:], "=") {
			p = p[:i] // an SQLite URI: file:…/Login Data?immutable=1
		}
		if browserStore(p) {
			k.credAsk(c, RuleBrowserStore, "it touches "+v+", a browser's saved passwords or cookies (or the key to them)",
				"Do not read browser credential stores; ask the user for what you need", k.abs(c, w))
			return true
		}
		return false
	}
	if v := c.Inv; v != nil && v.Program() != nil {
		for i, op := range v.Operands {
			switch op.Role {
			case programs.Dest, programs.XferDest, programs.Write, programs.Create, programs.Link:
				continue
			}
			if check(v.Operand(i)) {
				return
			}
		}
		for _, o := range v.Opts {
			if o.HasValue && check(v.Value(o)) {
				return
			}
		}
	} else {
		for _, w := range c.Args[1:] {
			if check(w) {
				return
			}
		}
	}
	for _, r := range c.Redirects {
		if r.Op == "<" && check(r.Target) {
			return
		}
	}
}

// containsAny reports whether the lower-cased s contains one of words.
func containsAny(s string, words ...string) bool {
	l := strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// secretPattern reports search patterns that hunt for credentials.
func secretPattern(s string) bool {
	return containsAny(s, "pass", "pwd", "secret", "token", "api_key", "apikey", "api-key", "credential", "private key",
		"begin rsa", "begin openssh", "aws_access", "aws_secret")
}

// historyPattern reports a pattern for credentials typed on a command
// line: a secret word, or logins typed with their password.
func historyPattern(s string) bool {
	return secretPattern(s) || containsAny(s, "ssh", "key", "aws", "mysql", "psql", "-p", "login", "auth", "curl", "sudo")
}

// broadRoot reports a search root that spans far beyond a project: /,
// a home, /home, /Users, /root, /etc, /var, /opt, /mnt, /media.
func (k *checker) broadRoot(p string) bool {
	switch p {
	case "/", "/home", "/users", "/Users", "/root", "/etc", "/var", "/opt", "/mnt", "/media", "/srv", "/private", "/Volumes":
		return true
	}
	return p == k.home || path.Dir(p) == "/home" || path.Dir(p) == "/Users"
}

// search: grep -r / rg / ag / ack for a password-like pattern over a
// broad root; grep for one in a shell history file.
func (k *checker) search(c *shell.Command) {
	v := c.Inv
	var pats []string
	for _, e := range values(c, "regexp") {
		pats = append(pats, e.Value)
	}
	for _, w := range v.OperandsOf(programs.None) {
		pats = append(pats, w.Value) // the pattern operand (role none)
	}
	secret, hist := false, false
	for _, p := range pats {
		secret = secret || secretPattern(p)
		hist = hist || historyPattern(p)
	}
	if !hist {
		return
	}
	recursive := rootName(c) != "grep" || has(c, "r", "R", "recursive", "dereference-recursive")
	for _, e := range c.Effects {
		if e.Kind != shell.Reads || e.Path == "" || e.Role != programs.Read {
			continue
		}
		if isHistoryName(e.Path) {
			k.historyAsk(c, "it searches the shell history for passwords or tokens typed on the command line")
			return
		}
		if secret && recursive && k.broadRoot(e.Path) {
			k.credAsk(c, RuleSecretSearch, "it searches all of "+e.Path+" for passwords, secrets or tokens",
				"Search only the project for the setting you need, or ask the user for the secret", e.Path)
			return
		}
	}
	if from := c.Stdin.From; c.Stdin.Kind == shell.StdinPipe && from != nil && readsHistory(from) {
		k.historyAsk(c, "it searches the shell history for passwords or tokens typed on the command line")
	}
}

// readsHistory reports a command that prints a shell history file (cat,
// head, tail, strings, sort, awk, sed, cut, …): it reads one, by operand
// or on stdin.
func readsHistory(c *shell.Command) bool {
	switch rootName(c) {
	case "cat", "sort", "uniq", "awk", "sed", "cut":
	default:
		return false
	}
	for _, e := range c.Effects {
		if e.Kind == shell.Reads && e.Path != "" && isHistoryName(e.Path) {
			return true
		}
	}
	return c.Stdin.Kind == shell.StdinFile && isHistoryName(c.Stdin.Path)
}

// isHistoryName reports shell history files by name.
func isHistoryName(p string) bool {
	switch path.Base(p) {
	case ".bash_history", ".zsh_history", ".zhistory", ".history", ".sh_history", ".ash_history", "fish_history", ".histfile":
		return true
	}
	return false
}

func (k *checker) historyAsk(c *shell.Command, why string) {
	k.credAsk(c, RuleHistory, why, "Leave the shell history alone; ask the user for the secret you need", "")
}

// copiesHistory: cp, scp, rsync, tar, zip, mv, ditto of a shell history
// file (collection of everything typed, passwords included).
func (k *checker) copiesHistory(c *shell.Command) {
	switch rootName(c) {
	case "cp", "scp", "rsync", "tar", "zip", "mv", "ditto":
	default:
		return
	}
	for _, e := range c.Effects {
		if (e.Kind == shell.Reads || e.Kind == shell.Moves) && e.Path != "" && isHistoryName(e.Path) {
			k.historyAsk(c, "it copies a shell history file, which often holds passwords and tokens typed on the command line")
			return
		}
	}
}

// keyName reports a name pattern (glob stars allowed) that locates
// private keys and password databases.
func keyName(v string) bool {
	l := strings.ToLower(strings.Trim(v, "*"))
	if l == "" {
		return false
	}
	for _, n := range [...]string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".pem", ".key", ".kdbx", ".kdb", ".ppk", ".p12", ".pfx",
		".keychain", ".keychain-db", "shadow", ".netrc", "credentials", ".git-credentials", ".jks", "wallet.dat", "id_"} {
		if l == n || strings.HasPrefix(n, ".") && l == n[1:] {
			return true
		}
	}
	return false
}

// keySearch: find over a broad root for a key file name warns; handing
// what it finds to a program that copies, prints or sends it (-exec cp,
// cat, scp, tar, curl, base64, …) asks.
func (k *checker) keySearch(c *shell.Command) {
	broad := false
	for _, p := range findRoots(c) {
		broad = broad || k.broadRoot(p)
	}
	if !broad {
		return
	}
	named := false
	for _, n := range values(c, "name", "iname", "path", "ipath", "regex", "iregex") {
		named = named || keyName(n.Value) || keyName(path.Base(n.Value))
	}
	if !named {
		return
	}
	take := ""
	for _, t := range k.findTails(c) {
		switch r := rootName(t); r {
		case "cp", "cat", "scp", "rsync", "tar", "zip", "curl", "wget", "nc", "base64", "xxd", "mv", "ditto", "install", "strings":
			take = r
		}
	}
	root := c.Arg(1)
	if take != "" {
		k.credAsk(c, RuleKeySearch, "it searches "+root+" for private keys or password databases and hands each to "+take,
			"Name the one key file you need, or ask the user", "")
		return
	}
	k.r.Tag(toolwall.TagCredential, "", "search")
	k.warn(quote(c), RuleKeySearch, catCredDump, "it searches "+root+" for private keys or password databases",
		"Name the one key file you need, or ask the user")
}

// locate NAME of a key file (warn).
func (k *checker) locate(c *shell.Command) {
	for _, w := range operands(c) {
		if keyName(path.Base(w.Value)) {
			k.warn(quote(c), RuleKeySearch, catCredDump, "it looks for private keys or password databases across the file system",
				"Name the one key file you need, or ask the user")
			return
		}
	}
}

// sniff: capturing live traffic asks (ATT&CK T1040): a capture holds
// every program's and user's traffic on the interface, passwords, tokens
// and cookies sent in clear text among it. Reading a saved capture (-r,
// tcpdump -V, tcpflow -l, ngrep -I) without an interface passes, and so
// do listing interfaces, data-link or time-stamp types, help and version.
// A few packets' headers printed to the terminal (tcpdump -c 5 -n -i
// eth0, see headerCapture) is troubleshooting: it warns, and is still
// tagged a credential source for the chains.
func (k *checker) sniff(c *shell.Command) {
	if helpOnly(c) || has(c, "list-interfaces", "list-data-links", "list-time-stamp-types") || len(c.Args) == 2 && c.Args[1].Value == "-v" {
		return
	}
	if has(c, "read-file", "read-list", "read-operands") && !has(c, "interface") {
		return
	}
	k.r.Tag(toolwall.TagCredential, "", "network-capture")
	if headerCapture(c) {
		k.warn(quote(c), RuleSniff, catCredDump, "it prints the headers of a few live packets, where the first line of a clear-text protocol (FTP, HTTP) can show",
			"Filter the capture to your own service's port, and add -q to tcpdump to leave protocol lines out")
		return
	}
	k.askShown(c, RuleSniff, catCredDump, "it captures live network traffic, which carries other programs' and users' passwords, tokens and cookies",
		"To debug your own service, log its requests instead, or ask the user to run the capture and read the saved file with -r")
}

// maxHeaderPackets is the largest packet count (-c) of a live capture
// judged as troubleshooting rather than collection.
const maxHeaderPackets = 100

// headerCapture reports a live capture that is network troubleshooting
// rather than credential collection: tcpdump or tshark printing one line
// of headers per packet to the terminal, stopped after at most
// maxHeaderPackets packets (-c), saving nothing (no -w) and printing no
// payload or dissected fields (tcpdump -A -x -X -xx -XX; tshark -x -V -T
// -e -O -z --export-objects).
func headerCapture(c *shell.Command) bool {
	switch c.Inv.Program().Root().Name {
	case "tcpdump":
		if has(c, "write-file", "payload") {
			return false
		}
	case "tshark":
		if c.Name != "tshark" || has(c, "write-file", "payload", "format", "field", "detail", "statistics", "export-objects") {
			return false // dumpcap saves, termshark shows every byte
		}
	default:
		return false
	}
	counts := values(c, "count")
	if len(counts) == 0 {
		return false
	}
	for _, w := range counts {
		n, err := strconv.Atoi(w.Value)
		if w.Dynamic || err != nil || n < 1 || n > maxHeaderPackets {
			return false
		}
	}
	return true
}

// intercept: active interception tools (ARP spoofing, poisoning) ask.
func (k *checker) intercept(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	k.credAsk(c, RuleSniff, c.Name+" intercepts other machines' traffic (spoofing or poisoning) to capture credentials",
		"Do not intercept network traffic; ask the user", "")
}
