package session

import (
	"encoding/binary"
	"errors"

	"github.com/toolwall/toolwall"
)

// The SQLite store keeps a record's Effects and Rules as one blob each: a
// uvarint count, then each string as a uvarint length and its bytes (an
// effect is three strings: tag, path, detail). Unlike JSON this keeps any
// byte string unchanged, invalid UTF-8 included, and decodes without
// reflection. A nil list is stored as NULL.

var errCodec = errors.New("malformed list blob")

// appendStrings appends the encoding of ss to b.
func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// encodeEffects encodes es; nil when es is empty.
func encodeEffects(es []toolwall.Effect) []byte {
	if len(es) == 0 {
		return nil
	}
	b := binary.AppendUvarint(nil, uint64(len(es)))
	for _, e := range es {
		b = appendStrings(b, string(e.Tag), e.Path, e.Detail)
	}
	return b
}

// encodeRules encodes rs; nil when rs is empty.
func encodeRules(rs []string) []byte {
	if len(rs) == 0 {
		return nil
	}
	return appendStrings(binary.AppendUvarint(nil, uint64(len(rs))), rs...)
}

// decoder reads the encoding; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

// uvarint reads a length, which must be at most per × the bytes left
// after it: a string needs its bytes, a list at least a byte per string.
func (d *decoder) uvarint(per int) int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > uint64(len(d.b)-n)/uint64(per) {
		d.err = errCodec
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *decoder) string() string {
	n := d.uvarint(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// count reads a list length; each element takes at least minBytes, which
// bounds the allocation a corrupt blob can ask for.
func (d *decoder) count(minBytes int) int {
	return d.uvarint(minBytes)
}

func (d *decoder) done() error {
	if d.err == nil && len(d.b) != 0 {
		d.err = errCodec
	}
	return d.err
}

// decodeEffects decodes encodeEffects' output; nil for an empty blob.
func decodeEffects(b []byte) ([]toolwall.Effect, error) {
	if len(b) == 0 {
		return nil, nil
	}
	d := decoder{b: b}
	n := d.count(3)
	es := make([]toolwall.Effect, 0, n)
	for range n {
		es = append(es, toolwall.Effect{Tag: toolwall.Tag(d.string()), Path: d.string(), Detail: d.string()})
	}
	return es, d.done()
}

// decodeRules decodes encodeRules' output; nil for an empty blob.
func decodeRules(b []byte) ([]string, error) {
	if len(b) == 0 {
		return nil, nil
	}
	d := decoder{b: b}
	n := d.count(1)
	rs := make([]string, 0, n)
	for range n {
		rs = append(rs, d.string())
	}
	return rs, d.done()
}
