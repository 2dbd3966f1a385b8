package toolwall_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// TestDuplicateKey plays testdata/dupkeys.txt.
func TestDuplicateKey(t *testing.T) {
	f, err := os.Open("testdata/dupkeys.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("no tab in %q", line)
		}
		if !json.Valid([]byte(in)) {
			t.Fatalf("not JSON: %s", in)
		}
		key, dup := toolwall.DuplicateKey([]byte(in))
		got := "-"
		if dup {
			got = key
		}
		if got != want {
			t.Errorf("DuplicateKey(%s) = %q, want %q", in, got, want)
		}
		if ref := duplicateByTokens([]byte(in)); ref != dup {
			t.Errorf("DuplicateKey(%s) = %v, the token reading says %v", in, dup, ref)
		}
	}
}

// duplicateByTokens is DuplicateKey by encoding/json's token reading:
// each object's names compared pairwise with strings.EqualFold.
func duplicateByTokens(in []byte) bool {
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
				for _, n := range top.names {
					if strings.EqualFold(n, name) {
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

// FuzzDuplicateKey holds DuplicateKey to the token reading on valid
// JSON, and to never panicking on anything.
func FuzzDuplicateKey(f *testing.F) {
	f.Add([]byte(`{"command":"ls","Command":"rm -rf ~"}`))
	f.Add([]byte(`{"a":[{"x":1},{"x":2,"\u0078":3}]}`))
	f.Add([]byte(`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"\u212a":1,"k":2}`))
	f.Add([]byte(`{"a":`))
	f.Fuzz(func(t *testing.T, in []byte) {
		_, dup := toolwall.DuplicateKey(in)
		if json.Valid(in) && dup != duplicateByTokens(in) {
			t.Errorf("DuplicateKey(%q) = %v, the token reading disagrees", in, dup)
		}
	})
}

// BenchmarkDuplicateKey reads a Bash call's input with a description.
func BenchmarkDuplicateKey(b *testing.B) {
	in := []byte(`{"command":"find . -name '*.go' | xargs grep -n \"TODO\"","description":"Find TODO comments"}`)
	for b.Loop() {
		toolwall.DuplicateKey(in)
	}
}
