package remote

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

// flowStops are commands that do not pass their standard input on: digests
// and counters (whose output is a summary) and producers that ignore stdin.
// A pipeline walk upstream stops at them (spec c303: echo hi | sha256sum).
var flowStops = map[string]bool{
	"sha1sum": true, "sha224sum": true, "sha256sum": true, "sha384sum": true, "sha512sum": true,
	"md5sum": true, "md5": true, "shasum": true, "b2sum": true, "cksum": true, "sum": true, "wc": true,
	"echo": true, "printf": true, "true": true, "false": true, ":": true, "seq": true, "date": true,
	"yes": true, "sleep": true, "pwd": true, "whoami": true, "id": true, "hostname": true, "uname": true,
	"ls": true,
}

func blocksFlow(c *shell.Command) bool {
	if flowStops[c.Name] {
		return true
	}
	if c.Name == "grep" || c.Name == "egrep" || c.Name == "fgrep" {
		return hasFlag(c, 'c') || hasFlag(c, 'q') || hasFlag(c, 'l')
	}
	return false
}

// Escapes that spell bytes in echo -e and printf formats.
var escapeRE = lazyRegexp(`\\(x[0-9a-fA-F]|[0-7]{3}|u[0-9a-fA-F]{4})`)

// isDecoder reports whether c turns encoded text into plain text: base64,
// base32, basenc -d; openssl base64/enc -d; xxd -r; uudecode; rev; echo -e
// or printf with byte escapes; an interpreter one-liner that decodes.
func isDecoder(c *shell.Command) bool {
	switch c.Name {
	case "base64", "base32", "basenc", "gbase64":
		for _, w := range c.Args[1:] {
			v := w.Value
			if v == "--decode" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "dD")) {
				return true
			}
		}
	case "openssl":
		if sub := c.Arg(1); sub == "base64" || sub == "enc" {
			for _, w := range c.Args[2:] {
				if w.Value == "-d" {
					return true
				}
			}
		}
	case "xxd":
		return hasFlag(c, 'r')
	case "uudecode", "rev":
		return true
	case "echo":
		return hasFlag(c, 'e') && escapeRE.MatchString(strings.Join(argValues(c), " "))
	case "printf":
		return c.Arg(1) != "" && escapeRE.MatchString(c.Arg(1))
	}
	if p, ok := programOf(c); ok && p.lang != langShell {
		return decodeRE.match(p.lang, p.codeText())
	}
	return false
}

func argValues(c *shell.Command) []string {
	var out []string
	for _, w := range c.Args[1:] {
		out = append(out, w.Value)
	}
	return out
}
