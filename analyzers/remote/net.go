package remote

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// devNet reports bash's network pseudo-files (/dev/tcp/HOST/PORT,
// /dev/udp/HOST/PORT): a redirection from one reads from the network.
func devNet(p string) bool {
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

// stdinNet returns the /dev/tcp or /dev/udp path c's standard input is
// redirected from, as written, also when its host or port is only known
// at run time (cat < /dev/tcp/$host/$port).
func stdinNet(c *shell.Command) (string, bool) {
	if c.Stdin.Kind != shell.StdinFile {
		return "", false
	}
	if devNet(c.Stdin.Path) {
		return c.Stdin.Path, true
	}
	p, ok := "", false
	for _, r := range c.Redirects {
		if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
			p, ok = r.Target.Raw, r.Target.Dynamic && devNet(r.Target.Prefix)
		}
	}
	return p, ok
}

// fetchClient reports programs whose standard output is what they
// fetched from the network (by catalog entry).
func fetchClient(root string) bool {
	switch root {
	case "curl", "wget", "fetch", "http", "curlie", "aria2c", "lwp-request", "lynx", "nc", "socat", "ftp":
		return true
	}
	return false
}

// isNetSource reports whether c's standard output carries network
// content: a network client, openssl s_client, gh api, gh gist view, gh
// release download -O -, git archive --remote, ssh with a remote
// command, an object-store reader that prints (aws s3 cp SRC -, gsutil
// cat, gcloud storage cat, rclone cat), a command reading /dev/tcp on
// stdin, or an interpreter one-liner that fetches.
func isNetSource(c *shell.Command) bool {
	if _, ok := stdinNet(c); ok {
		return true
	}
	v := c.Inv
	p := v.Program()
	if p == nil {
		return false
	}
	root := p.Root().Name
	switch {
	case fetchClient(root):
		return true
	case root == "openssl":
		return v.Sub("s_client")
	case root == "gh":
		return v.Sub("api") || v.Sub("gist", "view") || v.Sub("release", "download") && outputs(v, "output", "-")
	case root == "ssh":
		return len(v.OperandsOf(programs.Remote)) > 0
	case root == "git":
		return v.Sub("archive") && v.Has("remote")
	case root == "aws":
		ops := v.OperandsOf(programs.None)
		return v.Sub("s3", "cp") && len(ops) > 0 && ops[len(ops)-1].Value == "-"
	case root == "gsutil" || root == "rclone":
		return v.Sub("cat")
	case root == "gcloud":
		return v.Sub("storage", "cat")
	}
	if pr, ok := programOf(c); ok && pr.lang != langShell {
		return fetches(pr.lang, pr.codeText())
	}
	return false
}

// outputs reports whether the named option's last value is want.
func outputs(v *shell.Invocation, name, want string) bool {
	ws := v.Values(name)
	return len(ws) > 0 && !ws[len(ws)-1].Dynamic && ws[len(ws)-1].Value == want
}

// isSendMethod reports HTTP methods that send a body.
func isSendMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "POST", "PUT", "PATCH":
		return true
	}
	return false
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

// downloads lists where what a network client fetches goes: for curl,
// each URL in order paired with the -o/-O choices in order (the rest to
// stdout); for wget, -O or each URL's remote name in -P's directory; for
// aria2c, fetch, HTTPie, curlie and gh release download, their output
// option (in aria2c's -d directory), else stdout. A stdout redirect to a
// file makes stdout that file.
func downloads(c *shell.Command, cwd, home string) []download {
	v := c.Inv
	root := v.Program().Root().Name
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
	abs := func(p, dir string) string { return paths.Abs(paths.Expand(p, home), dir) }
	urls := append(v.Values("url"), v.OperandsOf(programs.URL)...)
	dir := cwd
	var out []download
	switch root {
	case "curl":
		for _, d := range v.Values("output-dir") {
			dir = abs(d.Value, cwd)
		}
		var outs []string // a path, or "" for the URL's remote name
		remoteAll := false
		for _, o := range v.Opts {
			switch o.Name {
			case "output":
				if o.HasValue {
					outs = append(outs, v.Value(o).Value)
				}
			case "remote-name":
				if o.Spelling == "--remote-name-all" {
					remoteAll = true
				} else {
					outs = append(outs, "")
				}
			}
		}
		for i, u := range urls {
			choice, remote := "-", remoteAll
			if i < len(outs) {
				choice, remote = outs[i], outs[i] == ""
			}
			switch {
			case remote:
				if name := remoteName(u.Value, false); name != "" && !u.Dynamic {
					out = append(out, download{path: abs(name, dir)})
				}
			case choice == "-" || choice == "/dev/stdout":
				out = append(out, toStdout())
			case choice != "/dev/null":
				out = append(out, download{path: abs(choice, dir)})
			}
		}
	case "wget":
		for _, d := range v.Values("directory-prefix") {
			dir = abs(d.Value, cwd)
		}
		if o := v.Values("output-document"); len(o) > 0 {
			switch choice := o[len(o)-1].Value; choice {
			case "-", "/dev/stdout":
				out = append(out, toStdout())
			case "/dev/null":
			default:
				out = append(out, download{path: abs(choice, dir)})
			}
			return out
		}
		for _, u := range urls {
			if !u.Dynamic {
				out = append(out, download{path: abs(remoteName(u.Value, true), dir)})
			}
		}
	default:
		for _, d := range v.Values("dir") {
			dir = abs(d.Value, cwd)
		}
		o := v.Values("output")
		switch {
		case len(o) == 0 || !o[len(o)-1].Dynamic && (o[len(o)-1].Value == "-" || o[len(o)-1].Value == "/dev/stdout"):
			out = append(out, toStdout())
		case o[len(o)-1].Dynamic || o[len(o)-1].Value == "/dev/null":
		default:
			out = append(out, download{path: abs(o[len(o)-1].Value, dir)})
		}
	}
	return out
}

// posts reports whether a client's request sends data: a Sends effect
// (curl -d/-F/-T, wget --post-data/--post-file, httpie items), or a
// sending method (-X POST, --method PUT).
func posts(c *shell.Command) bool {
	for _, e := range c.Effects {
		if e.Kind == shell.Sends {
			return true
		}
	}
	for _, m := range c.Inv.Values("request", "method") {
		if isSendMethod(m.Value) {
			return true
		}
	}
	return false
}

// fetcher names what fetched network content for a reason: the client,
// or the /dev/tcp path a command reads.
func fetcher(c *shell.Command) string {
	if p, ok := stdinNet(c); ok {
		return p
	}
	for _, r := range c.Redirects {
		if devNet(r.Target.Value) {
			return r.Target.Value
		}
	}
	if c.Name == "" {
		return "a command"
	}
	return c.Name
}
