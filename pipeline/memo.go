package pipeline

import (
	"bytes"
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// DefaultMemoCapacity is the memo's entry bound when MemoOptions.Capacity
// is 0.
const DefaultMemoCapacity = 256

// MemoOptions configure [Memoize].
type MemoOptions struct {
	// TTL is how many turns an entry serves: an entry stored in turn t
	// serves requests of turns t to t+TTL-1. 0 caches nothing.
	TTL int
	// Capacity bounds the entries; the least recently used goes first.
	// 0 means DefaultMemoCapacity.
	Capacity int
}

// Memoize returns a memoizing layer, named "memoize". The key is the tool
// name and the SHA-256 of the input's canonical JSON (object keys sorted,
// strings re-escaped, numbers as written), so {"a":1,"b":2} and
// { "b":2, "a":1 } share an entry. Input that is not JSON, or holds a
// duplicate object key (tools may read either copy), is never cached. A
// Go error, an IsError result, a result with Wrote set, and a result that
// asks for confirmation are never cached. A hit returns a copy of the
// stored result with Cached set. One memo per session: the key does not
// include the session.
func Memoize(opts MemoOptions) Middleware {
	if opts.Capacity <= 0 {
		opts.Capacity = DefaultMemoCapacity
	}
	return Middleware{Name: "memoize", Kind: KindMemoize, Wrap: func(next Tool) Tool {
		if opts.TTL <= 0 {
			return next
		}
		return &memo{opts: opts, next: next, lru: list.New(), byKey: map[memoKey]*list.Element{}}
	}}
}

type memoKey struct {
	tool string
	sum  [sha256.Size]byte
}

type memoEntry struct {
	key  memoKey
	turn int
	res  Result
}

type memo struct {
	opts MemoOptions
	next Tool

	mu    sync.Mutex
	lru   *list.List // of *memoEntry, most recent first
	byKey map[memoKey]*list.Element
}

// Execute serves a live entry or runs next and stores what may be cached.
func (m *memo) Execute(ctx context.Context, req *Request) (*Result, error) {
	canon, ok := canonicalJSON(req.Call.Input)
	if !ok {
		return m.next.Execute(ctx, req)
	}
	key := memoKey{tool: req.Call.Tool, sum: sha256.Sum256(canon)}
	turn := req.Call.Turn
	if r, ok := m.get(key, turn); ok {
		return r, nil
	}
	res, err := m.next.Execute(ctx, req)
	if err == nil && res != nil && !res.IsError && !res.Wrote && res.Confirm == nil {
		m.put(key, turn, *res)
	}
	return res, err
}

func (m *memo) get(key memoKey, turn int) (*Result, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*memoEntry)
	if age := turn - e.turn; age < 0 || age >= m.opts.TTL {
		m.lru.Remove(el)
		delete(m.byKey, key)
		return nil, false
	}
	m.lru.MoveToFront(el)
	r := e.res
	r.Cached = true
	return &r, true
}

func (m *memo) put(key memoKey, turn int, res Result) {
	m.mu.Lock()
	defer m.mu.Unlock()
	res.Cached = false
	if el, ok := m.byKey[key]; ok {
		el.Value = &memoEntry{key: key, turn: turn, res: res}
		m.lru.MoveToFront(el)
		return
	}
	m.byKey[key] = m.lru.PushFront(&memoEntry{key: key, turn: turn, res: res})
	for m.lru.Len() > m.opts.Capacity {
		last := m.lru.Back()
		m.lru.Remove(last)
		delete(m.byKey, last.Value.(*memoEntry).key)
	}
}

// errDuplicateKey marks an object with a repeated key.
var errDuplicateKey = errors.New("duplicate object key")

// canonicalJSON returns input re-encoded with sorted object keys, and
// false when input is not a single JSON value or repeats an object key.
func canonicalJSON(input []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	out, err := json.Marshal(v)
	return out, err == nil
}

// maxDepth bounds the nesting canonicalJSON follows; deeper input is not
// cached.
const maxDepth = 512

// decodeValue reads one value from dec into maps, slices, strings,
// json.Number, bools and nil, failing on a duplicate object key or nesting
// deeper than maxDepth.
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deep")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := k.(string)
				if _, dup := obj[key]; dup {
					return nil, errDuplicateKey
				}
				if obj[key], err = decodeValue(dec, depth+1); err != nil {
					return nil, err
				}
			}
			_, err := dec.Token() // '}'
			return obj, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		return nil, errors.New("unexpected delimiter")
	}
	return tok, nil
}
