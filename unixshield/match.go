package unixshield

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalize returns the matching view of s: lower-cased, every run of
// white space (unicode.IsSpace, so a tab or newline inside a JSON string
// too) collapsed to one space. Invalid UTF-8 bytes become U+FFFD.
func normalize(s string) string {
	if isNormal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// isNormal reports whether s is already its own normal form: ASCII with no
// upper-case letter, no white space but single spaces.
func isNormal(s string) bool {
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
		default:
			prevSpace = false
		}
	}
	return true
}

// isWord reports whether c is a word byte: an ASCII letter, digit or '_'.
// Every other byte, including each byte of a non-ASCII rune, is a symbol.
func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// contains reports whether the normalised needle occurs in the normalised
// hay on token boundaries: a word-character edge of the needle must touch a
// non-word byte or the end of hay; a symbol edge needs nothing. An empty
// needle matches nothing.
func contains(hay, needle string) bool {
	if needle == "" {
		return false
	}
	leftWord, rightWord := isWord(needle[0]), isWord(needle[len(needle)-1])
	for i := 0; i+len(needle) <= len(hay); {
		j := strings.Index(hay[i:], needle)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(needle)
		if (!leftWord || j == 0 || !isWord(hay[j-1])) && (!rightWord || end == len(hay) || !isWord(hay[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

// leaf is one string leaf of a tool input, normalised, with the object key
// it sits under ("" at the top level or when the input is not JSON).
type leaf struct {
	key  string
	text string
}

// frame is one open JSON container while walking tokens.
type frame struct {
	object    bool   // an object, else an array
	expectKey bool   // (object) the next string is a key
	key       string // the key the current value sits under (arrays inherit it)
}

// leaves returns the normalised string leaves of input, in document order,
// every duplicate key included (a host may honour either copy). Keys are
// not leaves. Input that is not valid JSON is one leaf with key "", so a
// pattern cannot hide in a malformed document. Empty input has no leaves.
func leaves(input []byte) []leaf {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return nil
	}
	if !json.Valid(input) {
		return []leaf{{text: normalize(string(input))}}
	}
	var out []leaf
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expectKey = true
		}
	}
	// The input is valid JSON, so a byte scan that knows only brackets,
	// strings and scalars walks it correctly.
	for i := 0; i < len(input); {
		key := ""
		if n := len(stack); n > 0 {
			key = stack[n-1].key
		}
		switch c := input[i]; c {
		case '{':
			stack = append(stack, frame{object: true, expectKey: true, key: key})
			i++
		case '[':
			stack = append(stack, frame{key: key})
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			valueDone()
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			i++
		case '"':
			end := i + 1
			escaped := false
			for input[end] != '"' {
				if input[end] == '\\' {
					escaped = true
					end++
				}
				end++
			}
			end++
			text := string(input[i+1 : end-1])
			if escaped {
				// Cannot fail: json.Valid accepted the string.
				_ = json.Unmarshal(input[i:end], &text)
			}
			i = end
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key = text
				stack[n-1].expectKey = false
				continue
			}
			out = append(out, leaf{key: key, text: normalize(text)})
			valueDone()
		default: // a number, true, false or null
			for i < len(input) && !endsScalar(input[i]) {
				i++
			}
			valueDone()
		}
	}
	return out
}

// endsScalar reports whether c ends a JSON number or literal.
func endsScalar(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}
