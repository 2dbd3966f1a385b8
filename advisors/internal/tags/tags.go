// Package tags holds what both advisors do to text crossing the model
// boundary: escaping what goes into the prompt's tags, and reading what
// comes back with the tagged spans taken out, in linear time.
package tags

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxReply is how much of a model's reply is read (16 KiB); the rest is
// ignored.
const MaxReply = 16 << 10

// Escape HTML-escapes &, < and > so that no interpolated value can open
// or close a tag of the prompt.
func Escape(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Normalize prepares a reply for reading: at most MaxReply bytes (cut at
// a character boundary), CRLF and lone CR turned into LF.
func Normalize(s string) string {
	if len(s) > MaxReply {
		n := MaxReply
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s
}

// Strip removes every balanced span of the named tags (matched
// case-insensitively, attributes allowed: <summary>, <Arguments
// unparsed="true">, nested spans included) and returns the text outside
// them. ok is false when a named tag is left over: an opening tag never
// closed, a closing tag with no opening one, spans that cross, a
// self-closing tag, or a tag whose ">" does not come before the next "<"
// or line break. It runs in time linear in len(s).
func Strip(s string, names []string) (out string, ok bool) {
	var b strings.Builder
	var stack []string
	keep, i := 0, 0
	for {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			break
		}
		j += i
		name, closing, end, found := tagAt(s, j, names)
		if !found {
			i = j + 1
			continue
		}
		if end < 0 || s[end-2] == '/' {
			return "", false
		}
		if len(stack) == 0 {
			b.WriteString(s[keep:j])
		}
		if closing {
			if len(stack) == 0 || stack[len(stack)-1] != name {
				return "", false
			}
			stack = stack[:len(stack)-1]
		} else {
			stack = append(stack, name)
		}
		i = end
		if len(stack) == 0 {
			keep = end
		}
	}
	if len(stack) > 0 {
		return "", false
	}
	b.WriteString(s[keep:])
	return b.String(), true
}

// tagAt reads a tag of one of names starting at s[j] == '<': its name,
// whether it closes, and the index just past its '>' (-1 when the tag is
// unterminated). found is false when s[j:] starts no such tag.
func tagAt(s string, j int, names []string) (name string, closing bool, end int, found bool) {
	k := j + 1
	if k < len(s) && s[k] == '/' {
		closing = true
		k++
	}
	for _, n := range names {
		e := k + len(n)
		if e > len(s) || !strings.EqualFold(s[k:e], n) {
			continue
		}
		if e < len(s) && !strings.ContainsRune("> \t\n/", rune(s[e])) {
			continue
		}
		// The tag ends at the first '>' on its line; a '<' or a line
		// break before it leaves the tag unterminated.
		gt := strings.IndexAny(s[e:], "<>\n")
		if gt < 0 || s[e+gt] != '>' {
			return n, closing, -1, true
		}
		return n, closing, e + gt + 1, true
	}
	return "", false, 0, false
}

// Line makes model text fit one line of a note: control and format
// characters (bidi overrides, zero-width marks) and runs of white space
// become one space, and it is cut to max bytes at a
// character boundary, ending in "…" when cut.
func Line(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if len(out) <= max {
		return out
	}
	n := max - len("…")
	for n > 0 && !utf8.RuneStart(out[n]) {
		n--
	}
	return out[:n] + "…"
}
