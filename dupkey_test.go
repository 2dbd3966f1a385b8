package toolwall_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// TestAmbiguousKey plays testdata/dupkeys.txt.
func TestAmbiguousKey(t *testing.T) {
	for _, r := range rows.ReadMin(t, "testdata/dupkeys.txt", 2) {
		in, want := r.Fields[0], strings.Join(r.Fields[1:], "\t")
		if !json.Valid([]byte(in)) {
			t.Fatalf("not JSON: %s", in)
		}
		key, _, dup := toolwall.AmbiguousKey([]byte(in))
		got := "-"
		if dup {
			got = key
		}
		if got != want {
			t.Errorf("AmbiguousKey(%s) = %q, want %q", in, got, want)
		}
		if ref := ambiguousByTokens([]byte(in)); ref != dup {
			t.Errorf("AmbiguousKey(%s) = %v, the token reading says %v", in, dup, ref)
		}
	}
}

// sameByTokens compares two decoded names as AmbiguousKey does: cut at a
// NUL, then strings.EqualFold, with ı and İ taken for i.
func sameByTokens(a, b string) bool {
	cut := func(s string) string {
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		return strings.NewReplacer("ı", "i", "İ", "i").Replace(s)
	}
	return strings.EqualFold(cut(a), cut(b))
}

// ambiguousByTokens is AmbiguousKey by encoding/json's token reading:
// a decoded name holding U+FFFD (the decoder's mark for bytes that are
// not UTF-8 or an escape of no character) is unreadable, and each
// object's names are compared pairwise with sameByTokens.
func ambiguousByTokens(in []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(in))
	type frame struct {
		object, key bool
		names       []string
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
			} else {
				name := tok.(string)
				if strings.ContainsRune(name, utf8.RuneError) {
					return true
				}
				for _, n := range top.names {
					if sameByTokens(n, name) {
						return true
					}
				}
				top.names = append(top.names, name)
				top.key = false
				continue
			}
		} else {
			switch tok {
			case json.Delim('{'):
				stack = append(stack, &frame{object: true, key: true})
				continue
			case json.Delim('['):
				stack = append(stack, &frame{})
				continue
			case json.Delim(']'), json.Delim('}'):
				stack = stack[:len(stack)-1]
			}
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}

// FuzzAmbiguousKey holds AmbiguousKey to the token reading on valid
// JSON, and to never panicking on anything.
func FuzzAmbiguousKey(f *testing.F) {
	f.Add([]byte(`{"command":"ls","Command":"rm -rf ~"}`))
	f.Add([]byte(`{"a":[{"x":1},{"x":2,"\u0078":3}]}`))
	f.Add([]byte(`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"\u212a":1,"k":2}`))
	f.Add([]byte(`{"a":`))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, _, dup := toolwall.AmbiguousKey(in)
		if json.Valid(in) && dup != ambiguousByTokens(in) {
			t.Errorf("AmbiguousKey(%q) = %v, the token reading disagrees", in, dup)
		}
	})
}

// BenchmarkAmbiguousKey reads a Bash call's input with a description.
func BenchmarkAmbiguousKey(b *testing.B) {
	in := []byte(`{"command":"find . -name '*.go' | xargs grep -n \"TODO\"","description":"Find TODO comments"}`)
	for b.Loop() {
		toolwall.AmbiguousKey(in)
	}
}

// TestAmbiguousKeyScoped plays testdata/dupkeys-scoped.txt: the names of
// a hook payload's outermost object (AmbiguousTopKey), and of a server
// request outside its tool inputs (AmbiguousKeyOutside).
func TestAmbiguousKeyScoped(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/dupkeys-scoped.txt", 3) {
		cols := r.Fields
		if !json.Valid([]byte(cols[0])) {
			t.Fatalf("%s: not JSON: %s", r.Pos(), cols[0])
		}
		name := func(n, _ string, found bool) string {
			if !found {
				return "-"
			}
			return n
		}
		if got := name(toolwall.AmbiguousTopKey([]byte(cols[0]))); got != cols[1] {
			t.Errorf("AmbiguousTopKey(%s) = %q, want %q", cols[0], got, cols[1])
		}
		if got := name(toolwall.AmbiguousKeyOutside([]byte(cols[0]), "input")); got != cols[2] {
			t.Errorf("AmbiguousKeyOutside(%s, input) = %q, want %q", cols[0], got, cols[2])
		}
	}
}
