package remote

import (
	"strings"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// blocksFlow reports commands that do not pass their standard input on:
// digests and counters (whose output is a summary), producers that
// ignore stdin, and grep -c/-q/-l. A pipeline walk upstream stops at them
// (spec c303: echo hi | sha256sum).
func blocksFlow(c *shell.Command) bool {
	switch c.Name {
	case "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "md5", "shasum", "b2sum", "cksum", "sum", "wc",
		"echo", "printf", "true", "false", ":", "seq", "date", "yes", "sleep", "pwd", "whoami", "id", "hostname", "uname", "ls":
		return true
	}
	if rootName(c) == "grep" {
		return c.Inv.Has("c", "count", "q", "quiet", "silent", "l", "files-with-matches")
	}
	return false
}

// Escapes that spell bytes in echo -e and printf formats.
var escapeRE = lazyRegexp(`\\(x[0-9a-fA-F]|[0-7]{3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})`)

// decompresses reports whether c decompresses its file operands to
// stdout: "zcat f.gz | sh" runs f.gz as "cat f | sh" runs f (a local
// file, tagged exec-local; not a decoded blob, NL2Bash "gzip -d --stdout
// file.gz | bash"). The cat-like decompressors always do; gzip and its
// kin with -d.
func decompresses(c *shell.Command) bool {
	switch c.Name {
	case "zcat", "gzcat", "bzcat", "xzcat", "lzcat", "zstdcat", "lz4cat":
		return true
	}
	if rootName(c) != "gzip" {
		return false
	}
	switch c.Name {
	case "unxz", "unzstd", "gunzip", "bunzip2", "uncompress", "unlzma":
		return true
	}
	return c.Inv.Has("d", "decompress", "uncompress")
}

// isTransform reports whether c rewrites the text it passes on: tr with
// two sets (a substitution cipher such as rot13), sed, perl or awk
// running a program. Between static text and a shell it hides what
// runs.
func isTransform(c *shell.Command) bool {
	switch rootName(c) {
	case "tr":
		return len(c.Inv.Operands) >= 2
	case "sed", "perl", "awk":
		return len(c.Args) > 1
	}
	return false
}

// isDecoder reports whether c turns encoded text into plain text: base64,
// base32, basenc -d; openssl base64/enc -d; gpg -d; xxd -r; uudecode;
// rev; python3 -m base64 -d; echo -e or printf with byte escapes; an
// interpreter one-liner that decodes.
func isDecoder(c *shell.Command) bool {
	v := c.Inv
	if c.Name == "rev" {
		return true
	}
	switch rootName(c) {
	case "base64":
		return v.Has("decode")
	case "gpg":
		return v.Has("decrypt")
	case "openssl":
		return (v.Sub("enc") || v.Sub("base64")) && v.Has("decode")
	case "xxd":
		return v.Has("revert")
	case "uudecode":
		return true
	case "python":
		for _, m := range v.Values("module") {
			if m.Value == "base64" || m.Value == "uu" {
				for _, x := range v.OperandsOf(programs.None) {
					if x.Value == "-d" || x.Value == "--decode" || x.Value == "-D" {
						return true
					}
				}
			}
		}
	case "echo":
		switch c.Name {
		case "echo":
			return v.Has("e") && escapeRE.MatchString(strings.Join(argValues(c), " "))
		case "printf":
			// Escapes in the format, or in any argument a %b prints.
			if strings.Contains(c.Arg(1), "%b") {
				return escapeRE.MatchString(strings.Join(argValues(c), " "))
			}
			return c.Arg(1) != "" && escapeRE.MatchString(c.Arg(1))
		}
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
