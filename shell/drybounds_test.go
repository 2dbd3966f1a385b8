package shell

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/internal/rows"
)

// TestDryRunBounded reads scripts that try to keep the dry run busy or
// grow a value (testdata/drybounds.tsv): each must be answered within a
// second and 256 MiB of allocation, and Script.DryRun must say whether
// the dry run read it, was not started, or was stopped.
func TestDryRunBounded(t *testing.T) {
	for _, r := range rows.ReadRest(t, "testdata/drybounds.tsv", 2) {
		r.Fields[1] = strings.ReplaceAll(r.Fields[1], `\n`, "\n")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		s, err := Read(r.Fields[1], defaultOptions())
		d := time.Since(start)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Errorf("line %d: %v", r.Line, err)
			continue
		}
		if s.DryRun != r.Fields[0] {
			t.Errorf("line %d: %q: DryRun %q, want %q", r.Line, r.Fields[1], s.DryRun, r.Fields[0])
		}
		if d > time.Second {
			t.Errorf("line %d: took %v", r.Line, d)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
			t.Errorf("line %d: allocated %d MiB", r.Line, alloc>>20)
		}
	}
}
