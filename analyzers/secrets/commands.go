package secrets

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// What a command does with the files it names, by command name. Each
// table entry lists the options that take a value so that a value is not
// read as a file.

// plainReaders print or transform the files named by every operand.
var plainReaders = map[string]spec{
	"cat": {}, "tac": {}, "nl": {short: "bdfhilnsvw"}, "less": {short: "bhjkopPtTxyz"}, "more": {}, "most": {}, "pg": {},
	"head":    {short: "nc", long: []string{"lines", "bytes"}},
	"tail":    {short: "ncs", long: []string{"lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"}},
	"bat":     {short: "lmHrp", long: []string{"language", "map-syntax", "highlight-line", "line-range", "style", "theme", "tabs", "wrap", "terminal-width", "color", "decorations", "paging", "pager", "file-name"}},
	"strings": {short: "nteT"}, "xxd": {short: "cglson"}, "hexdump": {short: "efns"}, "hd": {short: "efns"},
	"od": {short: "AjNtwS"}, "base64": {short: "w"}, "base32": {short: "w"}, "basenc": {short: "w"}, "uuencode": {},
	"cut": {short: "bcdf"}, "sort": {short: "kotST"}, "uniq": {short: "fsw"}, "paste": {short: "d"},
	"fold": {short: "w"}, "fmt": {short: "wpg"}, "pr": {}, "rev": {},
	"diff": {short: "CUFILSxX"}, "sdiff": {short: "oIw"}, "comm": {}, "join": {short: "eotj12"},
	"expand": {short: "t"}, "unexpand": {short: "t"}, "column": {short: "cstoN"}, "iconv": {short: "fto"},
	"zcat": {}, "gzcat": {}, "bzcat": {}, "xzcat": {}, "lzcat": {}, "zstdcat": {}, "zless": {}, "zmore": {},
	"split":  {short: "abCln", long: []string{"additional-suffix", "bytes", "line-bytes", "lines", "number", "suffix-length", "separator", "filter"}},
	"csplit": {short: "bfn", long: []string{"suffix-format", "prefix", "digits"}},
	"gzip":   {short: "S"}, "bzip2": {}, "xz": {short: "T"}, "zstd": {short: "oT"}, "lz4": {}, "compress": {},
}

// interpreters run a script and hand it the other operands; a secret
// named on their command line is a secret handed to code.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true, "nodejs": true, "ruby": true,
	"perl": true, "php": true, "deno": true, "bun": true, "lua": true, "rscript": true,
}

var interpreterSpec = spec{short: "ceEmIMrWX"}

// grepSpecs are the grep family; the first operand is the pattern unless
// -e or -f gave one.
var grepSpecs = map[string]spec{
	"grep": grepSpec, "egrep": grepSpec, "fgrep": grepSpec, "zgrep": grepSpec, "zegrep": grepSpec,
	"zfgrep": grepSpec, "bzgrep": grepSpec, "xzgrep": grepSpec,
	"rg":   {short: "efmABCgtTjMrEd", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "glob", "iglob", "type", "type-not", "threads", "max-columns", "replace", "encoding", "max-depth", "max-filesize", "pre", "pre-glob", "ignore-file", "sort", "sortr", "colors", "context-separator", "path-separator", "type-add", "type-clear", "engine"}},
	"ag":   {short: "ABCGgmp", long: []string{"after", "before", "context", "file-search-regex", "max-count", "depth", "path-to-ignore", "ignore", "ignore-dir"}},
	"look": {short: "t"},
	"ack":  {short: "ABCm", long: []string{"after-context", "before-context", "context", "max-count", "type", "ignore-dir", "ignore-file", "match"}},
}

var grepSpec = spec{short: "efmABCdD", long: []string{"regexp", "file", "max-count", "after-context", "before-context", "context", "devices", "directories", "label", "binary-files", "include", "exclude", "exclude-dir", "exclude-from", "group-separator"}}

// awkSpec and sedSpec: the program is the first operand unless given by
// -f (or -e for sed).
var (
	awkSpec = spec{short: "fvFi", long: []string{"file", "assign", "field-separator", "source", "include", "load"}}
	sedSpec = spec{short: "efl", long: []string{"expression", "file", "line-length"}}
)

var awks = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true, "busybox-awk": true}

// deleters remove or overwrite the files named by every operand.
var deleters = map[string]spec{
	"rm": {}, "unlink": {}, "srm": {}, "wipe": {}, "shred": {short: "ns", long: []string{"iterations", "size", "random-source"}},
	"truncate": {short: "sr", long: []string{"size", "reference"}},
}

// copiers copy sources to a destination (the last operand, or -t DIR).
var copiers = map[string]spec{
	"cp":      {short: "tS", long: []string{"target-directory", "suffix"}},
	"mv":      {short: "tS", long: []string{"target-directory", "suffix"}},
	"install": {short: "gmoSt", long: []string{"group", "mode", "owner", "suffix", "target-directory"}},
	"rsync":   {short: "eBfTM", long: []string{"rsh", "exclude", "include", "exclude-from", "include-from", "files-from", "filter", "temp-dir", "log-file", "password-file", "port", "chmod", "chown", "backup-dir", "suffix", "partial-dir", "compare-dest", "link-dest", "copy-dest", "timeout", "bwlimit", "max-size", "min-size", "rsync-path", "out-format", "info", "debug", "usermap", "groupmap", "sockopts", "contimeout", "address", "iconv", "block-size", "max-delete", "modify-window", "remote-option"}},
	"scp":     {short: "cDFiJloPSX"},
	// ln makes a secret readable under another name: a later call that
	// sends the link sends the secret.
	"ln": {short: "St", long: []string{"suffix", "target-directory"}},
}

// curlSpec lists curl's options that take a value.
var curlSpec = spec{short: "AbcCdDeEFHKmoQrTuUwxXyYztP", long: []string{
	"data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "json", "form", "form-string",
	"upload-file", "header", "output", "user", "request", "url", "user-agent", "referer", "cookie",
	"cookie-jar", "config", "proxy", "max-time", "connect-timeout", "cert", "key", "cacert", "capath",
	"resolve", "connect-to", "write-out", "range", "retry", "retry-delay", "retry-max-time",
	"limit-rate", "max-filesize", "dump-header", "interface", "local-port", "netrc-file", "proxy-user",
	"oauth2-bearer", "pass", "variable", "expand-url", "trace", "trace-ascii", "stderr", "aws-sigv4", "mail-from",
	"mail-rcpt", "mail-auth", "continue-at", "ftp-port", "quote", "time-cond", "preproxy", "unix-socket",
}, abbrev: true, flags: []string{"head"}}

var wgetSpec = spec{short: "aABDeiIlOoPQRtTUwX", long: []string{"post-file", "body-file", "post-data", "body-data", "method", "input-file", "output-document", "output-file", "header", "user-agent", "directory-prefix", "user", "password", "tries", "timeout", "wait", "execute", "referer"}, abbrev: true}

var sshSpec = spec{short: "BbcDEeFIiJLlmOopQRSWw"}

// streamSenders send their standard input to the network.
var streamSenders = map[string]bool{
	"nc": true, "ncat": true, "netcat": true, "telnet": true, "sendmail": true, "msmtp": true,
	"ftp": true, "sftp": true, "tftp": true, "lftp": true,
}

// argSenders put their arguments on the network (a secret in an argument,
// through $(…), leaves the machine): every sender, plus DNS and ping.
var argSenders = map[string]bool{
	"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true,
	"ssh": true, "scp": true, "rsync": true, "sftp": true, "ftp": true, "http": true, "https": true,
	"xh": true, "xhs": true, "nslookup": true, "dig": true, "host": true, "drill": true, "ping": true,
	"ping6": true, "mail": true, "mailx": true, "mutt": true, "aws": true, "gsutil": true, "gcloud": true,
	"az": true, "rclone": true, "azcopy": true, "lftp": true, "openssl": true,
}

// cloudCopies are subcommands that copy a local file to object storage.
var cloudCopies = map[string][]string{
	"aws":    {"s3"},
	"gsutil": {"cp", "mv", "rsync"},
	"gcloud": {"storage"},
	"rclone": {"copy", "copyto", "move", "moveto", "sync"},
	"azcopy": {"copy", "cp", "sync"},
}

// envDumps print the whole environment, where tokens live.
var envDumps = map[string]bool{"env": true, "printenv": true, "export": true, "declare": true, "typeset": true, "set": true}

// tokenPrinters print a live access token or credential: (command, first
// argument, second argument) prefixes.
var tokenPrinters = [][]string{
	{"gh", "auth", "token"}, {"gcloud", "auth", "print-access-token"}, {"gcloud", "auth", "print-identity-token"},
	{"gcloud", "auth", "application-default", "print-access-token"}, {"aws", "configure", "get"},
	{"aws", "configure", "export-credentials"}, {"aws", "sts", "get-session-token"},
	{"az", "account", "get-access-token"}, {"kubectl", "config", "view", "--raw"},
	{"security", "dump-keychain"}, {"security", "find-generic-password"}, {"security", "find-internet-password"},
	{"vault", "read"}, {"vault", "kv", "get"}, {"op", "read"}, {"op", "item", "get"},
}

// isTokenPrinter reports whether c runs one of tokenPrinters.
func isTokenPrinter(c *shell.Command) bool {
	for _, tp := range tokenPrinters {
		if c.Name != tp[0] || len(c.Args) < len(tp) {
			continue
		}
		ok := true
		for i := 1; i < len(tp); i++ {
			if !argIs(c, tp[i]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// argIs reports whether c has an argument equal to s.
func argIs(c *shell.Command, s string) bool {
	for _, w := range c.Args[1:] {
		if w.Value == s {
			return true
		}
	}
	return false
}

// remote reports whether an scp/rsync operand names another host
// ("host:path", "user@host:", "rsync://", "scp://") rather than a local
// path. A colon after the first slash is part of a local path.
func remote(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	return !strings.Contains(v[:i], "/")
}

// curlFile returns the file a curl data or form value sends, if any:
// "@file" for -d, --data-binary and -H (a header file, curl 7.55),
// "name@file" for --data-urlencode and --variable (curl 8.3),
// "name=@file;type=…" and "name=<file" for -F.
func curlFile(opt, v string) (string, bool) {
	switch opt {
	case "d", "data", "data-ascii", "data-binary", "json", "H", "header":
		if f, ok := strings.CutPrefix(v, "@"); ok {
			return f, true
		}
	case "data-urlencode", "variable":
		i := strings.IndexByte(v, '@')
		if i >= 0 && !strings.Contains(v[:i], "=") {
			return v[i+1:], true
		}
	case "F", "form":
		_, content, ok := strings.Cut(v, "=")
		if !ok {
			return "", false
		}
		if len(content) > 0 && (content[0] == '@' || content[0] == '<') {
			f, _, _ := strings.Cut(content[1:], ";")
			return strings.Trim(f, `"`), true
		}
	case "T", "upload-file":
		return v, true
	}
	return "", false
}
