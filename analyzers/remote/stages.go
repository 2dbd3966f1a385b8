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
var escapeRE = lazyRegexp(`\\(x[0-9a-fA-F]|[0-7]{3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})`)

// Decompressors print a local file's content: "zcat f.gz | sh" runs f.gz
// as "cat f | sh" runs f (a local file, tagged exec-local; not a decoded
// blob, NL2Bash "gzip -d --stdout file.gz | bash"). catDecompressors
// always decompress, dashDDecompressors with -d.
var (
	catDecompressors = map[string]bool{"zcat": true, "gzcat": true, "bzcat": true, "xzcat": true, "lzcat": true,
		"zstdcat": true, "lz4cat": true, "unxz": true, "unzstd": true, "unlz4": true, "gunzip": true, "bunzip2": true,
		"uncompress": true}
	dashDDecompressors = map[string]bool{"gzip": true, "bzip2": true, "xz": true, "zstd": true, "lz4": true,
		"brotli": true, "pigz": true, "lzma": true}
)

// isTransform reports whether c rewrites the text it passes on: tr with
// two sets (a substitution cipher such as rot13), sed running a script.
// Between static text and a shell it hides what runs.
func isTransform(c *shell.Command) bool {
	switch c.Name {
	case "tr":
		n := 0
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w.Value, "-") || w.Value == "-" {
				n++
			}
		}
		return n >= 2
	case "sed", "gsed", "perl", "awk", "gawk":
		return len(c.Args) > 1
	}
	return false
}

// isDecoder reports whether c turns encoded text into plain text: base64,
// base32, basenc -d; openssl base64/enc -d; xxd -r; uudecode; rev; echo -e
// or printf with byte escapes; an interpreter one-liner that decodes.
func isDecoder(c *shell.Command) bool {
	switch c.Name {
	case "base64", "base32", "basenc", "gbase64":
		for _, w := range c.Args[1:] {
			v := w.Value
			// --decode, or any prefix getopt_long accepts (--dec).
			if long, ok := strings.CutPrefix(v, "--"); ok && long != "" && strings.HasPrefix("decode", long) {
				return true
			}
			if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "dD") {
				return true
			}
		}
	case "gpg", "gpg2":
		for _, w := range c.Args[1:] {
			if w.Value == "-d" || w.Value == "--decrypt" {
				return true
			}
		}
	case "python", "python3", "python2":
		// python3 -m base64 -d
		for i, w := range c.Args[1:] {
			if w.Value == "-m" && i+2 < len(c.Args) && (c.Args[i+2].Value == "base64" || c.Args[i+2].Value == "uu") {
				for _, x := range c.Args[i+3:] {
					if x.Value == "-d" || x.Value == "--decode" {
						return true
					}
				}
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
		// Escapes in the format, or in any argument a %b prints.
		if strings.Contains(c.Arg(1), "%b") {
			return escapeRE.MatchString(strings.Join(argValues(c), " "))
		}
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

// decompresses reports whether c decompresses its file operands to stdout.
func decompresses(c *shell.Command) bool {
	if catDecompressors[c.Name] {
		return true
	}
	if dashDDecompressors[c.Name] {
		for _, w := range c.Args[1:] {
			if w.Value == "--decompress" || w.Value == "--uncompress" ||
				(strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "--") && strings.Contains(w.Value, "d")) {
				return true
			}
		}
	}
	return false
}
