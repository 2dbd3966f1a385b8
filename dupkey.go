package toolwall

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxKeyDepth is the deepest nesting DuplicateKey reads, as deep as
// encoding/json decodes (10,000); below it nothing more is reported.
const maxKeyDepth = 10000

// DuplicateKey reports a member name that appears twice in one object of
// the JSON value in, at any depth, and that name. Names are compared as
// encoding/json matches them to a struct's fields: after unescaping and
// without regard to case ("command", "Command" and "\u0063ommand" are
// one name). Decoders disagree on such an input — encoding/json and
// JavaScript keep the last member, others the first, a struct decoder
// may take either spelling — so the value judged need not be the value
// that runs ({"command":"ls","command":"rm -rf ~"}); the gate refuses
// such a tool input (input.malformed), as the MCP proxy refuses such
// arguments. Input that is not valid JSON is read as far as it can be;
// the answer for it is unspecified (every reader of it refuses it).
func DuplicateKey(in []byte) (string, bool) {
	d := dupScan{in: in}
	d.value(0)
	return d.key, d.found
}

// dupScan walks a JSON text, stopping at the first duplicate name or at
// anything it cannot read.
type dupScan struct {
	in    []byte
	i     int
	key   string
	found bool
}

func (d *dupScan) blank() {
	for d.i < len(d.in) && (d.in[d.i] == ' ' || d.in[d.i] == '\t' || d.in[d.i] == '\n' || d.in[d.i] == '\r') {
		d.i++
	}
}

// value reads one value at d.i; false stops the walk.
func (d *dupScan) value(depth int) bool {
	d.blank()
	if d.i >= len(d.in) || depth > maxKeyDepth {
		return false
	}
	switch d.in[d.i] {
	case '{':
		return d.object(depth)
	case '[':
		d.i++
		for {
			d.blank()
			if d.i >= len(d.in) {
				return false
			}
			switch d.in[d.i] {
			case ']':
				d.i++
				return true
			case ',':
				d.i++
				continue
			}
			if !d.value(depth + 1) {
				return false
			}
		}
	case '"':
		return d.str()
	}
	start := d.i
	for d.i < len(d.in) && !strings.ContainsRune(",:{}[]\" \t\n\r", rune(d.in[d.i])) {
		d.i++
	}
	return d.i > start
}

// str moves past the string starting at d.i.
func (d *dupScan) str() bool {
	for j := d.i + 1; j < len(d.in); j++ {
		switch d.in[j] {
		case '\\':
			j++
		case '"':
			d.i = j + 1
			return true
		}
	}
	return false
}

// object reads the object starting at d.i, comparing its names.
func (d *dupScan) object(depth int) bool {
	d.i++
	var small [8][]byte
	names := small[:0] // the raw names, between their quotes
	var folded map[string]bool
	for {
		d.blank()
		if d.i >= len(d.in) {
			return false
		}
		switch d.in[d.i] {
		case '}':
			d.i++
			return true
		case ',':
			d.i++
			continue
		case '"':
		default:
			return false
		}
		start := d.i
		if !d.str() {
			return false
		}
		raw := d.in[start+1 : d.i-1]
		if folded == nil && len(names) == len(small) {
			folded = map[string]bool{}
			for _, n := range names {
				folded[foldName(n)] = true
			}
		}
		dup := false
		if folded != nil {
			f := foldName(raw)
			dup = folded[f]
			folded[f] = true
		} else {
			for _, n := range names {
				if sameName(n, raw) {
					dup = true
					break
				}
			}
			names = append(names, raw)
		}
		if dup {
			d.key, d.found = unquote(raw), true
			return false
		}
		d.blank()
		if d.i >= len(d.in) || d.in[d.i] != ':' {
			return false
		}
		d.i++
		if !d.value(depth + 1) {
			return false
		}
	}
}

// plain reports a raw name with no escape and no byte beyond ASCII.
func plain(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// sameName compares two raw names as encoding/json matches a field.
func sameName(a, b []byte) bool {
	if plain(a) && plain(b) {
		return bytes.EqualFold(a, b)
	}
	return strings.EqualFold(unquote(a), unquote(b))
}

// foldName is a raw name with each rune replaced by the least rune of
// its case-folding orbit, for names compared by map: two names
// strings.EqualFold calls equal fold to one string (k, K and the Kelvin
// sign to K).
func foldName(raw []byte) string {
	if plain(raw) {
		return string(bytes.ToUpper(raw))
	}
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, unquote(raw))
}

// unquote is a raw name's text (invalid escapes kept as written).
func unquote(raw []byte) string {
	if plain(raw) {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}
