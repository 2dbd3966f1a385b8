package executor

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
)

// Key identifies a call for the result cache and speculative dispatch:
// the tool name and the SHA-256 of the input's canonical JSON.
type Key struct {
	Tool string
	Sum  [sha256.Size]byte
}

// maxKeyDepth bounds the nesting CallKey follows; deeper input has no key.
const maxKeyDepth = 256

// CallKey returns the key of tool with input: object keys sorted, white
// space dropped, numbers as written, so {"a":1,"b":2} and { "b":2, "a":1 }
// share a key. ok is false for input that is not one JSON value, is
// nested deeper than 256 levels, or repeats an object key (tools may read
// either copy): such calls are never cached or speculated.
func CallKey(tool string, input []byte) (k Key, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	v, err := canonValue(dec, 0)
	if err != nil {
		return Key{}, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return Key{}, false
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return Key{}, false
	}
	return Key{Tool: tool, Sum: sha256.Sum256(b)}, true
}

var errCanon = errors.New("not canonicalisable")

func canonValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxKeyDepth {
		return nil, errCanon
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	switch d {
	case '{':
		obj := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			if _, dup := obj[k]; dup {
				return nil, errCanon
			}
			if obj[k], err = canonValue(dec, depth+1); err != nil {
				return nil, err
			}
		}
		_, err := dec.Token()
		return obj, err
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := canonValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token()
		return arr, err
	}
	return nil, errCanon
}
