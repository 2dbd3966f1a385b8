package places

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
)

// Class is the kind of secret or login file a path names. The zero value
// is None. Classes above AuthFile are secrets: reading one puts a secret
// in an agent's context ([Class.Secret]).
type Class uint8

// The classes, from least to most sensitive.
const (
	// None: an ordinary path.
	None Class = iota
	// AuthFile: a file that decides who may log in or act as whom, but
	// holds no secret itself: ~/.ssh/config, authorized_keys, known_hosts,
	// *.pub, /etc/passwd, /etc/group, /etc/pam.d/**, /etc/ssh/** (other
	// than host private keys). Reading is fine; destroying it is not.
	AuthFile
	// ProjectSecret: a secret kept next to code: .env and .env.* (except
	// .example, .sample, .template, .dist, .defaults, .tmpl), *.env,
	// credentials.json, client_secret*.json, secrets.{yml,yaml,json,toml},
	// .htpasswd, Terraform state (*.tfstate).
	ProjectSecret
	// PrivateKey: a private key or key container: ~/.ssh/id_* and any
	// other non-public file in a .ssh directory, *.pem and *.key (except
	// certificate-like names), *.p12, *.pfx, *.jks, *.keystore, *.ppk,
	// ~/.gnupg/private-keys*, /etc/ssh/ssh_host_*_key, /etc/ssl/private.
	PrivateKey
	// Credential: a cloud, cluster, registry or package credential store:
	// ~/.aws/**, ~/.azure/**, ~/.config/gcloud/**, ~/.kube/config,
	// ~/.docker/config.json, ~/.config/gh/hosts.yml,
	// ~/.terraform.d/credentials.tfrc.json, .netrc, .git-credentials,
	// .npmrc, .pypirc, .pgpass, ~/.password-store/**, ~/Library/Keychains
	// and *.keychain(-db), browsers' saved logins and cookies (Chrome,
	// Chromium, Edge, Brave, Vivaldi, Opera "Login Data", "Cookies",
	// "Web Data"; Firefox logins.json, key4.db, cookies.sqlite; Safari
	// Cookies.binarycookies), /proc/*/environ, /run/secrets/**, shell and
	// client histories (~/.bash_history, ~/.psql_history), and the like.
	Credential
	// SystemSecret: the system's password and privilege databases:
	// /etc/shadow, /etc/gshadow, /etc/sudoers, /etc/sudoers.d/**,
	// /etc/master.passwd, /etc/security/opasswd, /etc/spwd.db (and their
	// "-" backups).
	SystemSecret
)

// String returns a short English name for messages ("private key").
func (c Class) String() string {
	switch c {
	case None:
		return "ordinary file"
	case AuthFile:
		return "authentication file"
	case ProjectSecret:
		return "project secret"
	case PrivateKey:
		return "private key"
	case Credential:
		return "credential store"
	case SystemSecret:
		return "system secret"
	}
	return "unknown class"
}

// Secret reports whether reading a file of this class puts a secret in the
// agent's context: ProjectSecret, PrivateKey, Credential or SystemSecret.
func (c Class) Secret() bool { return c >= ProjectSecret }

// place is what classify learns of a path: its class, and where the
// login-protecting directory it sits in (a .ssh or .gnupg directory, /etc)
// is, so that Protected can tell a user's keys from a test fixture.
type place struct {
	class Class
	// anchor is the absolute parent of the .ssh or .gnupg component, or
	// "/" for system files under /etc; "" when the path is not in one.
	anchor string
	// keyDir is set when the path is the .ssh or .gnupg directory itself
	// or a directory above the files that matter.
	keyDir bool
}

// Classify returns the class of p: an absolute, cleaned path (a relative
// or partial path, as left by a dynamic shell word, is matched by its
// components only). Matching is by path components anywhere in the path,
// not only under home, so another user's ~/.ssh or /root/.ssh is a key
// directory too; it ignores case (macOS file systems do) and looks
// through a leading /private (macOS's /etc) and /proc/PID/root ([Real]).
// A path holding shell glob characters is classified by the secret
// names it could match. A directory that holds a class (~/.ssh, ~/.aws,
// ~/.config/gcloud) has that class.
func Classify(p string) Class {
	return classify(p).class
}

// Protected reports whether deleting, truncating or overwriting p is
// irreversible or locks someone out: any file of class AuthFile or
// SystemSecret, and anything in a .ssh or .gnupg directory (the directory
// included) unless that directory lies inside project and is not home's
// own (a test fixture). p, home and project are absolute and clean;
// either of home and project may be empty.
func Protected(p, home, project string) bool {
	pl := classify(p)
	if pl.anchor == "" {
		return pl.class == AuthFile || pl.class == SystemSecret
	}
	home, project = strings.ToLower(home), strings.ToLower(project)
	if pl.anchor != "/" && project != "" && pl.anchor != home && paths.Under(pl.anchor, project) {
		return false
	}
	return true
}

// KeyDir reports whether p is a directory whose files are keys or login
// files (a .ssh or .gnupg directory, /etc/ssh, /etc/pam.d, /etc/sudoers.d,
// /etc/ssl/private) or a credential directory (~/.aws, ~/.kube): a file
// copied there lands inside it.
func KeyDir(p string) bool { return classify(p).keyDir }

// Holds reports whether the directory tree at dir holds well-known
// secrets: it is a secret location itself, it contains home's .ssh
// directory or /etc/shadow (so "/", "/home", home and /etc hold
// secrets), or it is root's home or every home at once (/home/*,
// /Users/*, /root). Another single user's home is not assumed to. A glob that matches dot-directories (~/.*) stands for
// its directory. A tar or rsync of such a tree copies those secrets.
func Holds(dir, home string) bool {
	d := strings.ToLower(path.Clean(dir))
	home = strings.ToLower(home)
	if base := path.Base(d); hasGlob(base) && (matchName(base, ".ssh", false) || matchName(base, ".aws", false)) {
		// ~/.* names ~/.ssh among others.
		d = path.Dir(d)
	}
	if classify(d).class.Secret() {
		return true
	}
	if !strings.HasPrefix(d, "/") {
		return false
	}
	if home != "" && paths.Under(home+"/.ssh", d) {
		return true
	}
	if d == "/root" || d == "/var/root" {
		return true
	}
	if parent, base := path.Dir(d), path.Base(d); (parent == "/home" || parent == "/users") && hasGlob(base) && !literalLetter(base) {
		return true // /home/*, /Users/*: every home
	}
	return paths.Under("/etc/shadow", d)
}

// isHomeDir reports whether dir (lower-cased) is a user's home:
// /home/NAME or /Users/NAME.
func isHomeDir(dir string) bool {
	parent := path.Dir(dir)
	return (parent == "/home" || parent == "/users") && !hasGlob(path.Base(dir))
}

// AppendTarget reports whether appending to p grants access: it is an
// authorized_keys file, or one of /etc/passwd, /etc/shadow, /etc/group,
// /etc/gshadow, /etc/sudoers*, /etc/master.passwd, a file in /etc/pam.d,
// or sshd's configuration (PermitRootLogin, AuthorizedKeysFile).
// ~/.ssh/config and known_hosts are not: appending a Host entry is
// ordinary work.
func AppendTarget(p string) bool {
	lp := strings.ToLower(systemPath(path.Clean(p)))
	if strings.HasPrefix(path.Base(lp), "authorized_keys") {
		return true
	}
	switch lp {
	case "/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow", "/etc/master.passwd", "/etc/sudoers",
		"/etc/ssh/sshd_config":
		return true
	}
	return strings.HasPrefix(lp, "/etc/sudoers.d/") || strings.HasPrefix(lp, "/etc/pam.d/") ||
		strings.HasPrefix(lp, "/etc/ssh/sshd_config.d/")
}

// systemPath strips macOS's /private prefix from /private/etc paths and
// looks through /proc/PID/root.
func systemPath(p string) string {
	p = Real(p)
	if strings.HasPrefix(p, "/private/etc/") || p == "/private/etc" {
		return p[len("/private"):]
	}
	return p
}

// Real returns the path a clean absolute path p opens through the
// kernel's root aliases: /proc/self/root/X, /proc/thread-self/root/X
// and /proc/PID/root/X are /X (for a process in the same mount
// namespace, which is what a tool call runs in). Other paths are returned
// unchanged.
func Real(p string) string {
	for {
		rest, ok := strings.CutPrefix(p, "/proc/")
		if !ok {
			return p
		}
		pid, tail, ok := strings.Cut(rest, "/")
		if !ok || (pid != "self" && pid != "thread-self" && strings.Trim(pid, "0123456789") != "") || pid == "" {
			return p
		}
		after, ok := strings.CutPrefix(tail, "root")
		if !ok || after != "" && after[0] != '/' {
			return p
		}
		if after == "" {
			after = "/"
		}
		p = after
	}
}

// classify does the work of Classify and Protected.
func classify(p string) place {
	if p == "" {
		return place{}
	}
	p = strings.ToLower(systemPath(path.Clean(p)))
	if pl, ok := classifyEtc(p); ok {
		return pl
	}
	if strings.HasPrefix(p, "/proc/") && path.Base(p) == "environ" {
		// A process's environment: where tokens are passed.
		return place{class: Credential}
	}
	if strings.HasPrefix(p, "/run/secrets/") || strings.HasPrefix(p, "/var/run/secrets/") {
		// Docker and Kubernetes mount secrets and service-account tokens here.
		return place{class: Credential}
	}
	var buf [16]string // most paths have fewer components: no allocation
	comps := buf[:0]
	for rest, more := strings.TrimPrefix(p, "/"), true; more; {
		var c string
		c, rest, more = strings.Cut(rest, "/")
		comps = append(comps, c)
	}
	// Directory components, innermost first: the nearest one decides.
	for i := len(comps) - 1; i >= 0; i-- {
		if pl, ok := classifyDir(comps[i], comps[i+1:], comps[:i], strings.HasPrefix(p, "/")); ok {
			return pl
		}
	}
	if browserStore(comps) {
		return place{class: Credential}
	}
	return place{class: classifyBase(comps[len(comps)-1])}
}

// classifyEtc classifies system files under /etc.
func classifyEtc(p string) (place, bool) {
	if !strings.HasPrefix(p, "/etc/") {
		return place{}, false
	}
	sys := func(c Class) (place, bool) { return place{class: c, anchor: "/"}, true }
	switch p {
	case "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
		"/etc/master.passwd", "/etc/sudoers", "/etc/security/opasswd", "/etc/spwd.db":
		return sys(SystemSecret)
	case "/etc/passwd", "/etc/passwd-", "/etc/group", "/etc/group-":
		return sys(AuthFile)
	case "/etc/sudoers.d":
		return place{class: SystemSecret, anchor: "/", keyDir: true}, true
	case "/etc/pam.d", "/etc/ssh":
		return place{class: AuthFile, anchor: "/", keyDir: true}, true
	case "/etc/ssl/private":
		return place{class: PrivateKey, anchor: "/", keyDir: true}, true
	}
	switch {
	case strings.HasPrefix(p, "/etc/sudoers.d/"):
		return sys(SystemSecret)
	case strings.HasPrefix(p, "/etc/pam.d/"):
		return sys(AuthFile)
	case strings.HasPrefix(p, "/etc/ssl/private/"):
		return sys(PrivateKey)
	case strings.HasPrefix(p, "/etc/ssh/"):
		base := path.Base(p)
		if !strings.HasSuffix(base, ".pub") && (strings.HasPrefix(base, "ssh_host_") && strings.HasSuffix(base, "_key") || matchName(base, "ssh_host_rsa_key", true)) {
			return sys(PrivateKey)
		}
		return sys(AuthFile)
	}
	return place{}, false
}

// sshPublic reports the names in a .ssh directory that hold no secret.
func sshPublic(name string) bool {
	switch name {
	case "config", "known_hosts", "known_hosts.old", "authorized_keys", "authorized_keys2", "environment", "rc":
		return true
	}
	return false
}

// sshKeyNames are candidate private key names a glob in .ssh may match.
func sshKeyNames() []string {
	return []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ed25519_sk", "id_ecdsa_sk", "identity"}
}

// credentialTables are the credential directories and files, split into
// components on first use.
var credentialTables = lazy[credentialTable]{build: func() credentialTable {
	split := func(list []string) [][]string {
		out := make([][]string, len(list))
		for i, s := range list {
			out[i] = strings.Split(s, "/")
		}
		return out
	}
	return credentialTable{
		// Directories whose whole content is credentials, relative to the
		// directory that holds them.
		dirs: split([]string{
			".aws", ".azure", ".config/gcloud", ".config/gh", ".config/hub", ".config/doctl",
			".password-store", ".terraform.d", ".local/share/keyrings", ".config/rclone",
			".oci", ".docker", ".kube", "library/keychains",
		}),
		// Credential files, relative to the directory that holds them.
		files: split([]string{
			".netrc", "_netrc", ".git-credentials", ".config/git/credentials",
			".npmrc", ".yarnrc.yml", ".pypirc", ".pgpass", ".my.cnf", ".vault-token", ".s3cfg", ".boto",
			".databrickscfg", ".dockercfg", ".gem/credentials", ".cargo/credentials",
			".cargo/credentials.toml", ".huggingface/token", ".cache/huggingface/token",
			".m2/settings-security.xml", ".config/op/config",
			// Shell and client histories: passwords and tokens typed on
			// command lines (ATT&CK T1552.003).
			".bash_history", ".zsh_history", ".sh_history", ".histfile", ".history", ".psql_history", ".mysql_history",
			".python_history", ".node_repl_history", ".rediscli_history", ".sqlite_history",
			".local/share/fish/fish_history",
		}),
	}
}}

type credentialTable struct {
	dirs, files [][]string
}

// credentialOnly narrows a credential directory (by its components
// joined with "/") to the one file in it that holds credentials; a
// directory not listed is credentials throughout.
func credentialOnly(dir string) string {
	switch dir {
	case ".docker":
		return "config.json"
	case ".kube":
		return "config"
	case ".terraform.d":
		return "credentials.tfrc.json"
	case ".config/gh":
		return "hosts.yml"
	case ".config/rclone":
		return "rclone.conf"
	}
	return ""
}

// classifyDir classifies a path whose component c (preceded by the
// components before, followed by rest) may be a key or credential
// directory.
func classifyDir(c string, rest, before []string, abs bool) (place, bool) {
	anchor := func() string {
		a := "/" + strings.Join(before, "/")
		if !abs {
			a = strings.TrimPrefix(a, "/")
			if a == "" {
				a = "."
			}
		}
		return a
	}
	switch {
	case matchName(c, ".ssh", true):
		if len(rest) == 0 {
			return place{class: PrivateKey, anchor: anchor(), keyDir: true}, true
		}
		base := rest[len(rest)-1]
		if len(rest) > 1 && rest[0] == "config.d" || sshPublic(base) || strings.HasSuffix(base, ".pub") {
			return place{class: AuthFile, anchor: anchor()}, true
		}
		if hasGlob(base) {
			for _, k := range sshKeyNames() {
				if matchName(base, k, false) {
					return place{class: PrivateKey, anchor: anchor()}, true
				}
			}
			return place{class: AuthFile, anchor: anchor()}, true
		}
		return place{class: PrivateKey, anchor: anchor()}, true
	case matchName(c, ".gnupg", true):
		if len(rest) == 0 {
			return place{class: PrivateKey, anchor: anchor(), keyDir: true}, true
		}
		if matchName(rest[0], "private-keys-v1.d", false) || matchName(rest[0], "secring.gpg", false) {
			return place{class: PrivateKey, anchor: anchor()}, true
		}
		return place{class: AuthFile, anchor: anchor()}, true
	}
	// Credential directories and files, matched on the components from c
	// on; every one of them starts with ".", "_" or "library".
	if !hasGlob(c) && c != "library" && (c == "" || c[0] != '.' && c[0] != '_') {
		return place{}, false
	}
	tail := append([]string{c}, rest...)
	t := credentialTables.get()
	for _, dc := range t.dirs {
		if !matchPrefix(tail, dc) {
			continue
		}
		if len(tail) == len(dc) {
			return place{class: Credential, keyDir: true}, true
		}
		only := credentialOnly(strings.Join(dc, "/"))
		if only == "" || len(tail) == len(dc)+1 && matchName(tail[len(dc)], only, false) {
			return place{class: Credential}, true
		}
		return place{}, true
	}
	for _, fc := range t.files {
		if len(tail) == len(fc) && matchPrefix(tail, fc) {
			return place{class: Credential}, true
		}
	}
	return place{}, false
}

// browserStore reports whether comps (lower case) name a browser's saved
// logins or cookies: a Chromium-family profile's "Login Data", "Login
// Data For Account", "Cookies", "Web Data" or "Local State" (the key that
// decrypts them), Firefox's logins.json, key3.db, key4.db and
// cookies.sqlite, Safari's Cookies.binarycookies (ATT&CK T1555.003,
// T1539).
func browserStore(comps []string) bool {
	base := comps[len(comps)-1]
	switch base {
	case "cookies.binarycookies":
		return true
	case "logins.json", "key3.db", "key4.db", "cookies.sqlite":
		for _, c := range comps[:len(comps)-1] {
			if c == ".mozilla" || c == "firefox" || c == "librewolf" {
				return true
			}
		}
	case "login data", "login data for account", "cookies", "web data", "local state":
		for _, c := range comps[:len(comps)-1] {
			switch c {
			case "chrome", "google-chrome", "chromium", "bravesoftware", "brave-browser", "microsoft edge",
				"microsoft-edge", "vivaldi", "opera", "com.operasoftware.opera", "yandexbrowser":
				return true
			}
		}
	}
	return false
}

// matchPrefix reports whether the components comps start with want,
// globs in comps matching the names they could expand to when they hold a
// literal letter ("*" alone is not taken to name ~/.aws).
func matchPrefix(comps, want []string) bool {
	if len(comps) < len(want) {
		return false
	}
	for i, w := range want {
		if !matchName(comps[i], w, true) {
			return false
		}
	}
	return true
}

// envExempt reports .env name parts that mark a template, not a secret.
func envExempt(part string) bool {
	switch part {
	case "example", "sample", "template", "dist", "defaults", "tmpl":
		return true
	}
	return false
}

// certWord reports whether the stem of a .pem or .key file names a
// certificate or a public key.
func certWord(stem string) bool {
	if stem == "ca" {
		return true
	}
	for _, w := range []string{"cert", "chain", "bundle", "public", "pub.", ".pub", "ca.", "-ca", "_ca", "trust"} {
		if strings.Contains(stem+".", w) {
			return true
		}
	}
	return false
}

// classifyBase classifies a file by its base name alone.
func classifyBase(base string) Class {
	if hasGlob(base) {
		// A glob: the most sensitive secret name it could match.
		for _, cand := range []struct {
			name  string
			class Class
		}{
			{"id_rsa", PrivateKey}, {"id_ed25519", PrivateKey}, {"server.key", PrivateKey},
			{"server.pem", PrivateKey}, {"store.p12", PrivateKey},
			{".netrc", Credential}, {".npmrc", Credential}, {".git-credentials", Credential},
			{".env", ProjectSecret}, {".env.local", ProjectSecret}, {"prod.env", ProjectSecret},
			{"credentials.json", ProjectSecret},
		} {
			if matchName(base, cand.name, true) {
				return cand.class
			}
		}
		return None
	}
	switch base {
	case "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519":
		return PrivateKey
	case ".netrc", "_netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass", ".vault-token":
		return Credential
	case "credentials.json", ".htpasswd", "secrets.yml", "secrets.yaml", "secrets.json", "secrets.toml",
		"terraform.tfstate", "terraform.tfstate.backup":
		// Terraform state holds every resource attribute in clear,
		// passwords included.
		return ProjectSecret
	}
	if strings.HasSuffix(base, ".tfstate") || strings.HasSuffix(base, ".tfstate.backup") {
		return ProjectSecret
	}
	if strings.HasPrefix(base, "client_secret") && strings.HasSuffix(base, ".json") {
		return ProjectSecret
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		for _, part := range strings.Split(base, ".") {
			if envExempt(part) {
				return None
			}
		}
		return ProjectSecret
	}
	ext := path.Ext(base)
	switch ext {
	case ".p12", ".pfx", ".jks", ".keystore", ".ppk":
		return PrivateKey
	case ".keychain", ".keychain-db":
		return Credential
	case ".pem", ".key":
		if certWord(strings.TrimSuffix(base, ext)) {
			return None
		}
		return PrivateKey
	}
	return None
}

// hasGlob reports whether s holds shell pattern characters.
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '*' || c == '?' || c == '[' {
			return true
		}
	}
	return false
}

// matchName reports whether the name pattern (a literal name or a shell
// glob) can name cand. As in the shell, a glob matches a dot-file only
// when it starts with a dot. When needLetter is set a glob must also hold
// a literal letter or digit, so "*" alone does not count as naming every
// secret in a project. Patterns longer than 256 bytes match nothing.
func matchName(pattern, cand string, needLetter bool) bool {
	if !hasGlob(pattern) {
		return pattern == cand
	}
	if len(pattern) > 256 || strings.HasPrefix(cand, ".") && !strings.HasPrefix(pattern, ".") {
		return false
	}
	if needLetter && !literalLetter(pattern) {
		return false
	}
	// "*.go" and "id_*", the common shapes, without the general matcher
	if rest, ok := strings.CutPrefix(pattern, "*"); ok && !hasGlob(rest) {
		return strings.HasSuffix(cand, rest)
	}
	if rest, ok := strings.CutSuffix(pattern, "*"); ok && !hasGlob(rest) {
		return strings.HasPrefix(cand, rest)
	}
	ok, err := path.Match(pattern, cand)
	return ok && err == nil
}

// literalLetter reports whether a glob holds a letter or digit outside
// its bracket expressions ("id_*" does, "[^l]*" and ".[^.]*" do not).
func literalLetter(pattern string) bool {
	inBracket := false
	for i := 0; i < len(pattern); i++ {
		b := pattern[i]
		switch {
		case inBracket:
			if b == ']' {
				inBracket = false
			}
		case b == '[':
			inBracket = true
			if i+1 < len(pattern) && (pattern[i+1] == ']' || pattern[i+1] == '^' || pattern[i+1] == '!') {
				i++ // a leading ] (or ^]) is part of the set
			}
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9':
			return true
		}
	}
	return false
}
