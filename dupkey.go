package toolwall

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxKeyDepth is the deepest nesting AmbiguousKey reads, as deep as
// encoding/json decodes (10,000); below it nothing more is reported.
const maxKeyDepth = 10000

// AmbiguousKey reports an object member name, at any depth of the JSON
// value in, that decoders read differently, and why:
//
//   - "twice": two names of one object that some decoder takes for one
//     name. Names are compared after unescaping, cut at a NUL (C decoders
//     such as cJSON keep a name as a C string), without regard to case
//     (encoding/json matches struct fields so, Java's equalsIgnoreCase
//     also takes the dotless ı and the dotted İ for i). Decoders keep the
//     first, the last or either spelling of such a pair, so the value
//     judged need not be the value that runs
//     ({"command":"ls","Command":"rm -rf ~"}).
//   - "unreadable": a name that is not valid UTF-8, or whose escapes
//     decode to no character (a lone surrogate \ud800): decoders replace,
//     drop or keep such bytes, so "comm\xffand" is "command" to some.
//
// The name returned is the second of a pair, or the unreadable one, as
// encoding/json decodes it. The gate refuses a tool input holding one
// (input.ambiguous-key); the MCP proxy refuses such arguments. Input that
// is not valid JSON is read as far as it can be; the answer for it is
// unspecified (the gate refuses it as input.malformed).
func AmbiguousKey(in []byte) (name, why string, found bool) {
	d := keyScan{in: in}
	d.value(0)
	return d.name, d.why, d.why != ""
}

// AmbiguousTopKey is AmbiguousKey for the names of the outermost object
// only: a host's hook payload, whose tool input the gate checks whole
// and whose tool output may hold any names.
func AmbiguousTopKey(in []byte) (name, why string, found bool) {
	d := keyScan{in: in, top: true}
	d.value(0)
	return d.name, d.why, d.why != ""
}

// AmbiguousKeyOutside is AmbiguousKey for every name but those inside
// the values of members named skip: a server request, whose tool inputs
// ("input") the gate judges itself (input.ambiguous-key, a verdict that is
// audited) while a name twice anywhere else makes the request ambiguous.
func AmbiguousKeyOutside(in []byte, skip string) (name, why string, found bool) {
	d := keyScan{in: in, skip: skip}
	d.value(0)
	return d.name, d.why, d.why != ""
}

// keyScan walks a JSON text, stopping at the first ambiguous name or at
// anything it cannot read.
type keyScan struct {
	in   []byte
	i    int
	name string
	why  string
	// top limits the comparison to the outermost object's names.
	top bool
	// skip names members whose values are not compared (quiet counts
	// the ones being read).
	skip  string
	quiet int
}

func (d *keyScan) blank() {
	for d.i < len(d.in) && (d.in[d.i] == ' ' || d.in[d.i] == '\t' || d.in[d.i] == '\n' || d.in[d.i] == '\r') {
		d.i++
	}
}

// value reads one value at d.i; false stops the walk.
func (d *keyScan) value(depth int) bool {
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
func (d *keyScan) str() bool {
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

// key is one member name of an object: its raw text between the quotes,
// whether that is plain (printable ASCII, no escapes), and for a name
// that is not, its folded form (foldKey).
type key struct {
	raw    []byte
	plain  bool
	folded string
}

// object reads the object starting at d.i, comparing its names.
func (d *keyScan) object(depth int) bool {
	d.i++
	var small [8]key
	names := small[:0]
	var byFold map[string]bool // past 8 names
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
		if d.top && depth > 0 || d.quiet > 0 {
			if !d.member(depth) {
				return false
			}
			continue
		}
		k := key{raw: d.in[start+1 : d.i-1]}
		if k.plain = plain(k.raw); !k.plain {
			var ok bool
			if k.folded, ok = foldKey(k.raw); !ok {
				d.name, d.why = unquote(k.raw), "unreadable"
				return false
			}
		}
		if byFold == nil && len(names) == len(small) {
			byFold = map[string]bool{}
			for _, n := range names {
				byFold[n.fold()] = true
			}
		}
		dup := false
		if byFold != nil {
			f := k.fold()
			dup, byFold[f] = byFold[f], true
		} else {
			for _, n := range names {
				if n.same(k) {
					dup = true
					break
				}
			}
			names = append(names, k)
		}
		if dup {
			d.name, d.why = unquote(k.raw), "twice"
			return false
		}
		if d.skip != "" && k.plain && string(k.raw) == d.skip {
			d.quiet++
			ok := d.member(depth)
			d.quiet--
			if !ok {
				return false
			}
			continue
		}
		if !d.member(depth) {
			return false
		}
	}
}

// member reads the ":" and the value after a member name.
func (d *keyScan) member(depth int) bool {
	d.blank()
	if d.i >= len(d.in) || d.in[d.i] != ':' {
		return false
	}
	d.i++
	return d.value(depth + 1)
}

// plain reports a raw name of printable ASCII without escapes: its text
// is itself, and ASCII case folding compares it.
func plain(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c < ' ' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fold is k's folded form.
func (k key) fold() string {
	if !k.plain {
		return k.folded
	}
	return string(bytes.ToUpper(k.raw))
}

// same reports two names some decoder takes for one.
func (k key) same(o key) bool {
	if k.plain && o.plain {
		return bytes.EqualFold(k.raw, o.raw)
	}
	return k.fold() == o.fold()
}

// foldKey is a raw name as AmbiguousKey compares it: unescaped, cut at a
// NUL, each rune replaced by the least of its case-folding orbit (k, K
// and the Kelvin sign by K) and ı, İ by I. ok is false for a name that is
// not valid UTF-8 or whose escapes decode to no character.
func foldKey(raw []byte) (string, bool) {
	if !utf8.Valid(raw) {
		return "", false
	}
	s := unquote(raw)
	if strings.ContainsRune(s, utf8.RuneError) && !bytes.Contains(raw, []byte("\uFFFD")) {
		return "", false // an escape that decodes to no character (\ud800)
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return strings.Map(func(r rune) rune {
		if r == 'ı' || r == 'İ' {
			return 'I'
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s), true
}

// unquote is a raw name's text as encoding/json decodes it (invalid
// escapes kept as written).
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
