package persist

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).dumpTool, dumpTools...)
	register((*checker).cracker, "hashcat", "john", "unshadow")
	register((*checker).gcore, "gcore", "procdump", "memdump", "avml")
	register((*checker).gdb, "gdb", "lldb")
	register((*checker).security, "security")
	register((*checker).search, "grep", "egrep", "fgrep", "rg", "ag", "ack", "ggrep")
	register((*checker).locate, "locate", "mlocate", "plocate")
	register((*checker).sniff, "tcpdump", "tshark", "tcpflow", "ngrep", "dumpcap", "termshark")
	register((*checker).osascriptPrompt, "osascript")
	register((*checker).intercept, "ettercap", "bettercap", "arpspoof", "dsniff", "responder", "mitm6")
}

// dumpTools are credential dumpers by program or script name (lower
// case): LaZagne, mimipenguin, mimikatz, pypykatz, impacket's
// secretsdump, keychain dumpers (ATT&CK T1003, T1555).
var dumpTools = []string{"lazagne", "lazagne.py", "lazagne.exe", "mimipenguin", "mimipenguin.sh", "mimipenguin.py",
	"mimikatz", "mimikatz.exe", "pypykatz", "secretsdump", "secretsdump.py", "impacket-secretsdump", "keychaindump",
	"chainbreaker", "chainbreaker.py", "firefox_decrypt.py", "hack-browser-data", "sharpchrome", "dumpkeychain"}

func (k *checker) credAsk(c *shell.Command, rule, why, instead, p string) {
	k.r.Tag(toolwall.TagCredential, p, "")
	k.ask(quote(c), rule, catCredDump, why, instead)
}

func (k *checker) dumpTool(c *shell.Command) {
	k.credAsk(c, RuleDumpTool, path.Base(c.Args[0].Value)+" is a credential dumper: it extracts saved passwords, hashes and keys",
		"Do not dump credentials; if a tool needs a secret, ask the user to provide it", "")
}

// isInterpreter reports programs whose first operand is a script to run.
func isInterpreter(name string) bool {
	for _, p := range []string{"python", "perl", "ruby", "node", "bash", "sh", "zsh", "dash", "ksh", "php"} {
		if name == p || strings.HasPrefix(name, p) && strings.Trim(name[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// interpreted: "python3 laZagne.py all", "sh mimipenguin.sh".
func (k *checker) interpreted(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if strings.HasPrefix(w.Value, "-") {
			continue
		}
		b := baseName(w.Value)
		for _, t := range dumpTools {
			if b == t {
				k.credAsk(c, RuleDumpTool, b+" is a credential dumper: it extracts saved passwords, hashes and keys",
					"Do not dump credentials; if a tool needs a secret, ask the user to provide it", "")
				return
			}
		}
		return
	}
}

// cracker: unshadow always; hashcat and john when they are given the
// shadow or master.passwd file (password cracking of this machine).
func (k *checker) cracker(c *shell.Command) {
	if c.Name == "unshadow" {
		k.credAsk(c, RuleDumpTool, "unshadow merges the password and shadow files to crack the machine's passwords",
			"Do not crack passwords; ask the user", "/etc/shadow")
		return
	}
	for _, w := range c.Args[1:] {
		b := baseName(w.Value)
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

// gdb/lldb attached to a running process (-p, --pid, attach) with a
// memory dump command (dump, gcore, generate-core-file, memory read)
// asks; a plain attach warns.
func (k *checker) gdb(c *shell.Command) {
	attach, dump := false, false
	args := c.Args[1:]
	for i, w := range args {
		v := strings.ToLower(w.Value)
		switch {
		case v == "-p" || v == "--pid" || strings.HasPrefix(v, "--pid=") || v == "attach" || v == "--attach-pid" || v == "--attach-name" || v == "-n":
			attach = true
		case v == "-ex" || v == "--eval-command" || v == "-o" || v == "--one-line":
			if i+1 < len(args) {
				e := strings.ToLower(args[i+1].Value)
				dump = dump || strings.Contains(e, "dump") || strings.Contains(e, "gcore") || strings.Contains(e, "generate-core-file") ||
					strings.Contains(e, "memory read") || strings.HasPrefix(e, "x/")
				attach = attach || strings.HasPrefix(e, "attach") || strings.HasPrefix(e, "process attach")
			}
		}
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

// security (macOS): keychain dumps and password reads; adding a trusted
// root certificate is defense.protection-off.
func (k *checker) security(c *shell.Command) {
	a := parse(c.Args[1:], spec{posix: true})
	sub := a.lower(0)
	switch sub {
	case "dump-keychain", "export", "import", "set-keychain-settings", "unlock-keychain":
		if sub == "set-keychain-settings" || sub == "unlock-keychain" {
			return
		}
		k.credAsk(c, RuleKeychain, "security "+sub+" reads or writes whole keychains, which hold the user's saved passwords and keys",
			"Do not touch the keychain; ask the user for the one secret you need", "~/Library/Keychains")
	case "find-generic-password", "find-internet-password":
		for _, w := range a.operands[1:] {
			if w.Value == "-w" || w.Value == "-g" || strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "--") && strings.ContainsAny(w.Value[1:], "wg") && len(w.Value) <= 4 {
				k.credAsk(c, RuleKeychain, "security "+sub+" -w/-g prints a saved password from the keychain",
					"Ask the user for the secret, or have the program read it from the keychain itself", "~/Library/Keychains")
				return
			}
		}
	case "add-trusted-cert", "trust-settings-import":
		k.ask(quote(c), RuleProtectionOff, catDefense, "it makes the system trust a new certificate authority, which lets its owner intercept every TLS connection",
			"Trust a certificate only for the one tool that needs it (e.g. NODE_EXTRA_CA_CERTS), or ask the user")
	}
}

// browserStores are the files of a browser profile that hold saved
// passwords, cookies or the key that decrypts them (lower case).
var browserStores = map[string]bool{"login data": true, "login data for account": true, "cookies": true, "web data": true,
	"local state": true, "logins.json": true, "key4.db": true, "key3.db": true, "cookies.sqlite": true, "signons.sqlite": true,
	"cookies.binarycookies": true, "logins-backup.json": true}

// browserDirs are path components that mark a browser profile (lower
// case).
var browserDirs = []string{"google-chrome", "chromium", "/google/chrome", "bravesoftware", "microsoft-edge", "microsoft edge",
	".mozilla/firefox", "firefox/profiles", "com.apple.safari", "opera", "vivaldi", "librewolf", "/arc/user data"}

// historyWords are what a search of shell history for credentials looks
// for, beyond secretWords: logins typed with their password.
var historyWords = []string{"ssh", "key", "aws", "mysql", "psql", "-p", "login", "auth", "curl", "sudo"}

// browserStore reports whether p (lower case) names a browser store:
// its base is one of browserStores, or Cookies.binarycookies anywhere,
// and it lies in a browser profile.
func browserStore(p string) bool {
	b := path.Base(p)
	if !browserStores[b] {
		ok := false
		for s := range browserStores {
			if m, _ := path.Match(b, s); m && strings.ContainsAny(b, "*?[") {
				ok = true
				break
			}
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

// archivers copy whole directories.
var archivers = map[string]bool{"tar": true, "zip": true, "7z": true, "7za": true, "rar": true, "cp": true, "gcp": true,
	"rsync": true, "scp": true, "ditto": true, "cpio": true, "rclone": true}

// browserProfile reports a path inside a Chrome-family or Firefox
// profile tree (the tree itself included).
func browserProfile(p string) bool {
	for _, d := range []string{".mozilla/firefox", "firefox/profiles", "google-chrome", "/google/chrome", "chromium", "bravesoftware", "microsoft-edge", "microsoft edge"} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// browserWords: any operand naming a browser store, read by any program
// (cat, cp, sqlite3, strings, tar, …).
func (k *checker) browserWords(c *shell.Command) {
	ws := append([]shell.Word{}, c.Args[1:]...)
	for _, r := range c.Redirects {
		if r.Op == "<" {
			ws = append(ws, r.Target)
		}
	}
	archiver := archivers[c.Name]
	dest := -1 // a copy's destination is written, not read
	switch c.Name {
	case "cp", "gcp", "rsync", "scp", "ditto":
		dest = len(c.Args) - 2
	}
	for i, w := range ws {
		v := w.Value
		if w.Dynamic {
			v = w.Raw
		}
		if archiver && i != dest && !strings.HasPrefix(v, "-") && browserProfile(strings.ToLower(paths.Expand(v, k.home))) {
			k.credAsk(c, RuleBrowserStore, "it copies the browser profile "+v+", which holds saved passwords and cookies",
				"Do not copy browser profiles; ask the user for what you need", k.abs(c, w))
			return
		}
		p := strings.ToLower(paths.Expand(strings.TrimPrefix(v, "file:"), k.home))
		if i := strings.LastIndexByte(p, '?'); i > 0 && strings.Contains(p[i:], "=") {
			p = p[:i] // an SQLite URI: file:…/Login Data?immutable=1
		}
		if browserStore(p) {
			k.credAsk(c, RuleBrowserStore, "it touches "+v+", a browser's saved passwords or cookies (or the key to them)",
				"Do not read browser credential stores; ask the user for what you need", k.abs(c, w))
			return
		}
	}
}

// secretWords are search patterns that hunt for credentials.
var secretWords = []string{"pass", "pwd", "secret", "token", "api_key", "apikey", "api-key", "credential", "private key", "begin rsa", "begin openssh", "aws_access", "aws_secret"}

// historyPattern reports a pattern for credentials typed on a command
// line.
func historyPattern(s string) bool {
	l := strings.ToLower(s)
	for _, w := range historyWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

func secretPattern(s string) bool {
	l := strings.ToLower(s)
	for _, w := range secretWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
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
	a := parse(c.Args[1:], spec{vals: "efmABCdDgtTM", long: []string{"regexp=", "file=", "max-count=", "after-context=", "before-context=", "context=", "include=", "exclude=", "exclude-dir=", "glob=", "type=", "type-not=", "ignore-file=", "max-depth=", "color=", "colour="}})
	var pats []string
	for _, e := range a.values("-e", "--regexp") {
		pats = append(pats, e.Value)
	}
	ops := a.operands
	if len(pats) == 0 && len(ops) > 0 {
		pats, ops = []string{ops[0].Value}, ops[1:]
	}
	secret, hist := false, false
	for _, p := range pats {
		secret = secret || secretPattern(p)
		hist = hist || secretPattern(p) || historyPattern(p)
	}
	if !hist {
		return
	}
	recursive := c.Name != "grep" && c.Name != "egrep" && c.Name != "fgrep" && c.Name != "ggrep" ||
		a.has("-r", "-R", "--recursive", "--dereference-recursive")
	for _, o := range ops {
		p := k.abs(c, o)
		if p == "" {
			continue
		}
		if isHistoryName(p) {
			k.historyAsk(c, "it searches the shell history for passwords or tokens typed on the command line")
			return
		}
		if secret && recursive && k.broadRoot(p) {
			k.credAsk(c, RuleSecretSearch, "it searches all of "+p+" for passwords, secrets or tokens",
				"Search only the project for the setting you need, or ask the user for the secret", p)
			return
		}
	}
	if from := c.Stdin.From; c.Stdin.Kind == shell.StdinPipe && from != nil && readsHistory(k, from) {
		k.historyAsk(c, "it searches the shell history for passwords or tokens typed on the command line")
	}
}

// readsHistory reports a cat/head/tail/less/strings/sort of a history
// file.
func readsHistory(k *checker, c *shell.Command) bool {
	switch c.Name {
	case "cat", "head", "tail", "strings", "sort", "uniq", "tac", "more", "less", "awk", "sed", "cut":
	default:
		return false
	}
	for _, w := range c.Args[1:] {
		if p := k.abs(c, w); p != "" && isHistoryName(p) {
			return true
		}
	}
	return c.Stdin.Kind == shell.StdinFile && isHistoryName(c.Stdin.Path)
}

// historyNames are shell history files.
var historyNames = map[string]bool{".bash_history": true, ".zsh_history": true, ".zhistory": true, ".history": true,
	".sh_history": true, ".ash_history": true, "fish_history": true, ".histfile": true}

func isHistoryName(p string) bool { return historyNames[path.Base(p)] }

func (k *checker) historyAsk(c *shell.Command, why string) {
	k.credAsk(c, RuleHistory, why, "Leave the shell history alone; ask the user for the secret you need", "")
}

// copiesHistory: cp, scp, rsync, tar, zip, mv of a shell history file
// (collection of everything typed, passwords included).
func (k *checker) copiesHistory(c *shell.Command) {
	switch c.Name {
	case "cp", "scp", "rsync", "tar", "zip", "mv", "ditto", "gcp":
	default:
		return
	}
	for _, w := range c.Args[1:] {
		if p := k.abs(c, w); p != "" && isHistoryName(p) {
			k.historyAsk(c, "it copies a shell history file, which often holds passwords and tokens typed on the command line")
			return
		}
	}
}

// keyFiles are names (lower case, glob patterns allowed in the search)
// that locate private keys and password databases.
var keyFiles = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "*.pem", "*.key", "*.kdbx", "*.kdb", "*.ppk", "*.p12", "*.pfx", "*.keychain", "*.keychain-db", "shadow", ".netrc", "credentials", ".git-credentials", "*.jks", "wallet.dat", "id_*", "*id_rsa*"}

// keySearch: find over a broad root for a key file name warns; handing
// what it finds to a program that copies, prints or sends it (-exec cp,
// cat, scp, tar, curl, base64, …) asks.
func (k *checker) keySearch(c *shell.Command) {
	broad, take := false, ""
	for i, w := range c.Args[1:] {
		if (w.Value == "-exec" || w.Value == "-execdir" || w.Value == "-ok") && i+2 < len(c.Args) {
			switch b := baseName(c.Args[i+2].Value); b {
			case "cp", "gcp", "cat", "scp", "rsync", "tar", "zip", "curl", "wget", "nc", "base64", "xxd", "mv", "ditto", "install", "head", "tail", "less", "more", "strings":
				take = b
			}
		}
	}
	for i, w := range c.Args[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "(") || strings.HasPrefix(v, "!") {
			if v == "-name" || v == "-iname" || v == "-path" || v == "-ipath" || v == "-regex" || v == "-iregex" {
				if broad && i+2 < len(c.Args) && keyName(c.Args[i+2].Value) && take != "" {
					k.credAsk(c, RuleKeySearch, "it searches "+c.Args[1].Value+" for private keys or password databases and hands each to "+take,
						"Name the one key file you need, or ask the user", "")
					return
				}
				if broad && i+2 < len(c.Args) && keyName(c.Args[i+2].Value) {
					k.r.Tag(toolwall.TagCredential, "", "search")
					k.warn(quote(c), RuleKeySearch, catCredDump, "it searches "+c.Args[1].Value+" for private keys or password databases",
						"Name the one key file you need, or ask the user")
					return
				}
			}
			continue
		}
		if p := k.abs(c, w); p != "" && k.broadRoot(p) {
			broad = true
		}
	}
}

func keyName(v string) bool {
	l := strings.ToLower(strings.Trim(v, "*"))
	if l == "" {
		return false
	}
	for _, n := range keyFiles {
		n = strings.Trim(n, "*")
		if l == n || strings.HasPrefix(n, ".") && l == n[1:] {
			return true
		}
	}
	return false
}

// locate NAME of a key file (warn).
func (k *checker) locate(c *shell.Command) {
	for _, w := range c.Args[1:] {
		if !strings.HasPrefix(w.Value, "-") && keyName(path.Base(w.Value)) {
			k.warn(quote(c), RuleKeySearch, catCredDump, "it looks for private keys or password databases across the file system",
				"Name the one key file you need, or ask the user")
			return
		}
	}
}

// find: log deletion and key searches.
func (k *checker) find(c *shell.Command) {
	k.findLogs(c)
	k.keySearch(c)
}

// sniff: capturing traffic warns (developers debug with it); reading a
// capture file (-r) without an interface passes.
func (k *checker) sniff(c *shell.Command) {
	live, read := false, false
	for _, w := range c.Args[1:] {
		v := w.Value
		switch {
		case v == "-i" || strings.HasPrefix(v, "--interface") || (strings.HasPrefix(v, "-i") && c.Name != "ngrep" && len(v) > 2 && !strings.HasPrefix(v, "--")):
			live = true
		case v == "-r" || strings.HasPrefix(v, "--read-file") || v == "-I":
			read = true
		case v == "-h" || v == "--help" || v == "-D" || v == "--list-interfaces" || v == "--version" || v == "-v" && len(c.Args) == 2:
			return
		}
	}
	if read && !live {
		return
	}
	k.r.Tag(toolwall.TagCredential, "", "network-capture")
	k.warn(quote(c), RuleSniff, catCredDump, "it captures network traffic, which can include passwords, tokens and cookies sent in clear text",
		"Capture only the interface and port you are debugging (e.g. `-i lo port 8080`) and do not keep the capture")
}

// osascriptPrompt: an AppleScript dialog with a hidden answer is a fake
// password prompt (ATT&CK T1056.002).
func (k *checker) osascriptPrompt(c *shell.Command) {
	for _, w := range c.Args[1:] {
		l := strings.ToLower(w.Value)
		if strings.Contains(l, "display dialog") && strings.Contains(l, "hidden answer") {
			k.credAsk(c, RulePrompt, "the AppleScript shows a dialog that asks for a hidden answer: a fake password prompt",
				"Do not ask the user for passwords through dialogs; tell them what you need in the conversation", "")
			return
		}
	}
	k.osascript(c)
}

// intercept: active interception tools (ARP spoofing, poisoning) ask.
func (k *checker) intercept(c *shell.Command) {
	if helpOnly(c) {
		return
	}
	k.credAsk(c, RuleSniff, c.Name+" intercepts other machines' traffic (spoofing or poisoning) to capture credentials",
		"Do not intercept network traffic; ask the user", "")
}
