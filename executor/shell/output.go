package shell

import "fmt"

// bounded keeps the head and the tail of a stream, max bytes in all, and
// counts what it cut from the middle.
type bounded struct {
	max  int
	head []byte
	tail []byte // ring of the last max/2 bytes, start at pos
	pos  int
	cut  int64
}

func newBounded(max int) *bounded { return &bounded{max: max} }

// Write never fails.
func (b *bounded) Write(p []byte) (int, error) {
	n := len(p)
	if room := b.max - b.max/2 - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	keep := b.max / 2
	for len(p) > 0 && keep > 0 {
		if len(b.tail) < keep {
			k := min(keep-len(b.tail), len(p))
			b.tail = append(b.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := min(keep-b.pos, len(p))
		b.cut += int64(k)
		copy(b.tail[b.pos:], p[:k])
		b.pos = (b.pos + k) % keep
		p = p[k:]
	}
	if keep == 0 {
		b.cut += int64(len(p))
	}
	return n, nil
}

// String is head, a marker naming the bytes cut, and tail.
func (b *bounded) String() string {
	tail := append(append([]byte(nil), b.tail[b.pos:]...), b.tail[:b.pos]...)
	if b.cut == 0 {
		return string(b.head) + string(tail)
	}
	return string(b.head) + fmt.Sprintf("\n[toolwall: %d bytes cut]\n", b.cut) + string(tail)
}
