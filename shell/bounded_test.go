package shell

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/internal/rows"
)

// TestBounded checks that pathological inputs (testdata/bounded.tsv) are
// answered quickly and with the expected limit.
func TestBounded(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/bounded.tsv", 0) {
		n, cols := r.Line, r.Fields
		var b strings.Builder
		for i := 1; i+1 < len(cols); i += 2 {
			unit, err := strconv.Unquote(cols[i])
			if err != nil {
				t.Fatalf("bounded.tsv:%d: %v", n, err)
			}
			k, err := strconv.Atoi(cols[i+1])
			if err != nil {
				t.Fatalf("bounded.tsv:%d: %v", n, err)
			}
			b.WriteString(strings.Repeat(unit, k))
		}
		src := b.String()
		opt := defaultOptions()
		s, err := Read(src, opt)
		got := renderScript(s, err, opt)[0]
		if err == nil {
			got = "ok"
		}
		if strings.HasPrefix(got, "error syntax") {
			got = "error syntax"
		}
		if got != cols[0] {
			t.Errorf("bounded.tsv:%d: got %q, want %q", n, got, cols[0])
		}
		// The bound is relative to reading a plain command of the same
		// size, so that a loaded machine does not fail the test while a
		// super-linear blow-up still does; of three tries (a shared
		// machine pauses a process now and then) one must keep it.
		var d, limit time.Duration
		for try := 0; try < 3; try++ {
			start := time.Now()
			Read(src, opt)
			d = time.Since(start)
			base := time.Now()
			Read(strings.Repeat("a ", len(src)/2), Options{MaxBytes: len(src) + 2, MaxNodes: len(src) * 2})
			if limit = 20*time.Since(base) + 100*time.Millisecond; d <= limit {
				break
			}
		}
		if d > limit {
			t.Errorf("bounded.tsv:%d: took %v, more than %v (input %d bytes)", n, d, limit, len(src))
		}
	}
}
