package remote

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/shell"
)

// netClients are programs whose standard output is network content.
var netClients = map[string]bool{
	"curl": true, "wget": true, "wget2": true, "fetch": true, "http": true, "https": true,
	"xh": true, "xhs": true, "lwp-request": true, "get": true, "lynx": true, "w3m": true,
	"links": true, "elinks": true, "aria2c": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "telnet": true, "tftp": true, "curlie": true,
}

// sshValue are ssh's options that take the next word.
const sshValue = "BbcDEeFIiJLlmOoPpQRSWw"

// sshRemoteCommand reports whether ssh runs a command on the remote host,
// whose output is then content from that host.
func sshRemoteCommand(c *shell.Command) bool {
	operands := 0
	for i := 1; i < len(c.Args); i++ {
		v := c.Args[i].Value
		switch {
		case v == "--":
			operands += len(c.Args) - i - 1
			i = len(c.Args)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if strings.IndexByte(sshValue, v[len(v)-1]) >= 0 {
				i++
			}
		default:
			operands++
		}
	}
	return operands >= 2
}

// cloudCat reports the object-store readers that print an object:
// aws s3 cp SRC -, gsutil cat, gcloud storage cat, rclone cat, gh release
// download -O -.
func cloudCat(c *shell.Command) bool {
	switch c.Name {
	case "aws":
		return c.Arg(1) == "s3" && c.Arg(2) == "cp" && c.Arg(len(c.Args)-1) == "-"
	case "gsutil", "rclone":
		return c.Arg(1) == "cat"
	case "gcloud":
		return c.Arg(1) == "storage" && c.Arg(2) == "cat"
	case "gh":
		if c.Arg(1) == "release" && c.Arg(2) == "download" {
			for i, w := range c.Args {
				if (w.Value == "-O" || w.Value == "--output") && c.Arg(i+1) == "-" || w.Value == "--output=-" {
					return true
				}
			}
		}
	}
	return false
}

// isNetSource reports whether c's standard output carries network content:
// a network client, openssl s_client, gh api, busybox wget/nc, or an
// interpreter one-liner that fetches.
func isNetSource(c *shell.Command) bool {
	switch {
	case netClients[c.Name]:
		return true
	case c.Name == "openssl":
		return c.Arg(1) == "s_client"
	case c.Name == "gh":
		return c.Arg(1) == "api" || (c.Arg(1) == "gist" && c.Arg(2) == "view") || cloudCat(c)
	case c.Name == "busybox":
		return netClients[c.Arg(1)]
	case c.Name == "ssh":
		return sshRemoteCommand(c)
	case c.Name == "git" && c.Arg(1) == "archive":
		for _, w := range c.Args[2:] {
			if strings.HasPrefix(w.Value, "--remote") {
				return true
			}
		}
	case cloudCat(c):
		return true
	}
	if p, ok := programOf(c); ok && p.lang != langShell {
		return fetches(p.lang, p.codeText())
	}
	return false
}

// clientArgs is a network client's command line read into URLs, outputs
// and uploads.
type clientArgs struct {
	urls []shell.Word
	// outs are the -o / -O / wget -O choices in order: a path, "-" for
	// stdout, or "" for the remote name (last URL path element).
	outs      []string
	remoteAll bool
	outDir    string
	// uploads are the local files sent (-d @f, -F x=@f, -T f); "-" for stdin.
	uploads []string
	// posts is set when the request sends data (-d, -F, -T, -X POST, ...).
	posts bool
}

// Options of curl that take a value (curl(1); curl has no --opt=value form).
var curlValueShort = "AbcCdDeEFHKmoPQrtTuUwxXyYz"

var curlValueLong = map[string]bool{
	"--output": true, "--output-dir": true, "--data": true, "--data-raw": true, "--data-binary": true,
	"--data-ascii": true, "--data-urlencode": true, "--json": true, "--form": true, "--form-string": true,
	"--upload-file": true, "--request": true, "--url": true, "--header": true, "--user": true,
	"--user-agent": true, "--referer": true, "--cookie": true, "--cookie-jar": true, "--config": true,
	"--connect-timeout": true, "--max-time": true, "--retry": true, "--retry-delay": true,
	"--retry-max-time": true, "--proxy": true, "--proxy-user": true, "--cacert": true, "--capath": true,
	"--cert": true, "--key": true, "--cert-type": true, "--key-type": true, "--pass": true,
	"--resolve": true, "--connect-to": true, "--interface": true, "--dns-servers": true,
	"--limit-rate": true, "--max-filesize": true, "--range": true, "--continue-at": true,
	"--write-out": true, "--dump-header": true, "--trace": true, "--trace-ascii": true, "--stderr": true,
	"--ciphers": true, "--netrc-file": true, "--oauth2-bearer": true, "--aws-sigv4": true,
	"--expect100-timeout": true, "--keepalive-time": true, "--local-port": true, "--max-redirs": true,
	"--noproxy": true, "--preproxy": true, "--proto": true, "--proto-redir": true, "--time-cond": true,
	"--unix-socket": true, "--abstract-unix-socket": true, "--variable": true, "--ftp-port": true,
	"--mail-from": true, "--mail-rcpt": true, "--tls-max": true, "--speed-limit": true,
	"--speed-time": true, "--telnet-option": true, "--quote": true, "--pinnedpubkey": true,
	"--crlfile": true, "--socks4": true, "--socks4a": true, "--socks5": true, "--socks5-hostname": true,
	"--proxy-header": true, "--doh-url": true, "--etag-save": true, "--etag-compare": true,
	"--hsts": true, "--alt-svc": true, "--rate": true, "--parallel-max": true, "--url-query": true,
	"--create-file-mode": true, "--happy-eyeballs-timeout-ms": true, "--ip-tos": true,
}

// Options of wget that take a value (wget(1)); long ones also as --opt=value.
var wgetValueShort = "OoaPtTwUeiBQlDRAXI"

var wgetValueLong = map[string]bool{
	"--output-document": true, "--output-file": true, "--append-output": true, "--directory-prefix": true,
	"--tries": true, "--timeout": true, "--wait": true, "--user-agent": true, "--execute": true,
	"--input-file": true, "--base": true, "--quota": true, "--level": true, "--domains": true,
	"--reject": true, "--accept": true, "--exclude-directories": true, "--include-directories": true,
	"--header": true, "--post-data": true, "--post-file": true, "--body-data": true, "--body-file": true,
	"--method": true, "--user": true, "--password": true, "--http-user": true, "--http-password": true,
	"--load-cookies": true, "--save-cookies": true, "--referer": true, "--ca-certificate": true,
	"--certificate": true, "--private-key": true, "--limit-rate": true, "--dns-timeout": true,
	"--connect-timeout": true, "--read-timeout": true, "--waitretry": true, "--bind-address": true,
	"--restrict-file-names": true, "--config": true, "--max-redirect": true, "--ftp-user": true,
	"--ftp-password": true, "--secure-protocol": true, "--progress": true,
}

// readCurl reads curl's argv.
func readCurl(args []shell.Word) clientArgs {
	var ca clientArgs
	for i := 0; i < len(args); i++ {
		w := args[i]
		a := w.Value
		val := func() string {
			if i+1 < len(args) {
				i++
				return args[i].Value
			}
			return ""
		}
		switch {
		case a == "--remote-name-all":
			ca.remoteAll = true
		case a == "--remote-name":
			ca.outs = append(ca.outs, "")
		case strings.HasPrefix(a, "--"):
			if !curlValueLong[a] {
				continue
			}
			v := val()
			switch a {
			case "--url":
				ca.urls = append(ca.urls, args[i])
			case "--output":
				ca.outs = append(ca.outs, v)
			case "--output-dir":
				ca.outDir = v
			case "--data", "--data-binary", "--data-ascii", "--json", "--data-urlencode":
				ca.posts = true
				ca.uploads = appendAt(ca.uploads, v, a == "--data-urlencode")
			case "--data-raw", "--form-string":
				ca.posts = true
			case "--form":
				ca.posts = true
				ca.uploads = appendForm(ca.uploads, v)
			case "--upload-file":
				ca.posts = true
				ca.uploads = append(ca.uploads, v)
			case "--request":
				ca.posts = ca.posts || isSendMethod(v)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				ch := a[j]
				if ch == 'O' {
					ca.outs = append(ca.outs, "")
					continue
				}
				if strings.IndexByte(curlValueShort, ch) < 0 {
					continue
				}
				v := a[j+1:]
				if v == "" {
					v = val()
				}
				switch ch {
				case 'o':
					ca.outs = append(ca.outs, v)
				case 'd':
					ca.posts = true
					ca.uploads = appendAt(ca.uploads, v, false)
				case 'F':
					ca.posts = true
					ca.uploads = appendForm(ca.uploads, v)
				case 'T':
					ca.posts = true
					ca.uploads = append(ca.uploads, v)
				case 'X':
					ca.posts = ca.posts || isSendMethod(v)
				}
				break
			}
		default:
			ca.urls = append(ca.urls, w)
		}
	}
	return ca
}

// readWget reads wget's argv.
func readWget(args []shell.Word) clientArgs {
	var ca clientArgs
	for i := 0; i < len(args); i++ {
		w := args[i]
		a := w.Value
		switch {
		case strings.HasPrefix(a, "--"):
			name, v, hasEq := strings.Cut(a, "=")
			if !wgetValueLong[name] {
				continue
			}
			if !hasEq && i+1 < len(args) {
				i++
				v = args[i].Value
			}
			switch name {
			case "--output-document":
				ca.outs = append(ca.outs, v)
			case "--directory-prefix":
				ca.outDir = v
			case "--post-data", "--body-data":
				ca.posts = true
			case "--post-file", "--body-file":
				ca.posts = true
				ca.uploads = append(ca.uploads, v)
			case "--method":
				ca.posts = ca.posts || isSendMethod(v)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				ch := a[j]
				if strings.IndexByte(wgetValueShort, ch) < 0 {
					continue
				}
				v := a[j+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i].Value
				}
				switch ch {
				case 'O':
					ca.outs = append(ca.outs, v)
				case 'P':
					ca.outDir = v
				}
				break
			}
		default:
			ca.urls = append(ca.urls, w)
		}
	}
	// wget -O names one file for all URLs; without it each URL gets its
	// remote name.
	if len(ca.outs) == 0 {
		ca.remoteAll = true
	} else {
		ca.outs = ca.outs[len(ca.outs)-1:]
		if len(ca.urls) > 1 {
			ca.urls = ca.urls[:1]
		}
	}
	return ca
}

func isSendMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "POST", "PUT", "PATCH":
		return true
	}
	return false
}

// appendAt records the file of a "@file" data argument.
func appendAt(up []string, v string, urlencoded bool) []string {
	if urlencoded {
		if i := strings.IndexByte(v, '@'); i >= 0 {
			return append(up, v[i+1:])
		}
		return up
	}
	if f, ok := strings.CutPrefix(v, "@"); ok {
		return append(up, f)
	}
	return up
}

// appendForm records the file of a "name=@file" or "name=<file" form part.
func appendForm(up []string, v string) []string {
	_, val, ok := strings.Cut(v, "=")
	if !ok {
		return up
	}
	if strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<") {
		f, _, _ := strings.Cut(val[1:], ";")
		return append(up, f)
	}
	return up
}

// remoteName is the file name curl -O and wget give a URL: its last path
// element, "index.html" for wget when there is none.
func remoteName(u string, wget bool) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	slash := strings.IndexByte(u, '/')
	if slash < 0 {
		if wget {
			return "index.html"
		}
		return ""
	}
	base := path.Base(u[slash:])
	if base == "/" || base == "." {
		if wget {
			return "index.html"
		}
		return ""
	}
	return base
}

// download is one file a client writes, or stdout.
type download struct {
	path   string // absolute; "" for stdout
	stdout bool
}

// downloads lists where each URL of a curl or wget command goes.
func downloads(c *shell.Command, ca clientArgs, cwd string) []download {
	wget := c.Name == "wget" || c.Name == "wget2"
	var out []download
	stdoutFile := ""
	for _, r := range c.Redirects {
		if r.Writes() && (r.Fd == "" || r.Fd == "1") && !r.Target.Dynamic && r.Target.Value != "/dev/null" {
			stdoutFile = paths.Abs(r.Target.Value, cwd)
		}
	}
	toStdout := func() download {
		if stdoutFile != "" {
			return download{path: stdoutFile}
		}
		return download{stdout: true}
	}
	dir := cwd
	if ca.outDir != "" {
		dir = paths.Abs(ca.outDir, cwd)
	}
	for i, u := range ca.urls {
		choice, remote := "-", false
		switch {
		case i < len(ca.outs):
			choice = ca.outs[i]
			remote = choice == ""
		case ca.remoteAll:
			remote = true
		}
		switch {
		case remote:
			if name := remoteName(u.Value, wget); name != "" && !u.Dynamic {
				out = append(out, download{path: paths.Abs(name, dir)})
			}
		case choice == "-" || choice == "/dev/stdout":
			out = append(out, toStdout())
		case choice != "/dev/null":
			out = append(out, download{path: paths.Abs(choice, dir)})
		}
	}
	return out
}

// isRemoteSpec reports whether an scp/rsync operand names a remote:
// [user@]host:path, host::module, rsync:// or scp:// URLs.
func isRemoteSpec(s string) bool {
	if strings.HasPrefix(s, "rsync://") || strings.HasPrefix(s, "scp://") || strings.HasPrefix(s, "sftp://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}
