package host

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// blocked is a reader with no deadline that never returns.
type blocked struct{ never chan struct{} }

func (b blocked) Read([]byte) (int, error) { <-b.never; return 0, io.EOF }

// TestReadPayload: every kind of input (in memory, a pipe the poller
// watches, a plain reader) gives the payload when it ends, ErrLate when
// it stays open past the timeout, and at most max+1 bytes.
func TestReadPayload(t *testing.T) {
	const timeout = 50 * time.Millisecond
	pipe := func(data string, closeIt bool) io.Reader {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		if _, err := w.WriteString(data); err != nil {
			t.Fatal(err)
		}
		if closeIt {
			w.Close()
		}
		return r
	}
	for _, c := range []struct {
		name string
		in   io.Reader
		max  int
		want string
		late bool
	}{
		{"bytes", bytes.NewReader([]byte(`{"a":1}`)), 64, `{"a":1}`, false},
		{"strings, over max: max+1 bytes", strings.NewReader("0123456789"), 5, "012345", false},
		{"pipe, closed", pipe(`{"b":2}`, true), 64, `{"b":2}`, false},
		{"pipe, over max", pipe(`{"b":2}`, true), 2, `{"b`, false},
		{"pipe, left open", pipe(`{"b":`, false), 64, "", true},
		{"plain reader, left open", io.MultiReader(strings.NewReader("x"), blocked{make(chan struct{})}), 64, "", true},
	} {
		start := time.Now()
		got, err := ReadPayload(c.in, c.max, timeout)
		switch {
		case c.late && !errors.Is(err, ErrLate):
			t.Errorf("%s: %q, %v; want ErrLate", c.name, got, err)
		case c.late && time.Since(start) > 20*timeout:
			t.Errorf("%s: ErrLate after %v", c.name, time.Since(start))
		case !c.late && (err != nil || string(got) != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
