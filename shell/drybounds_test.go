package shell

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestDryRunBounded reads scripts that try to keep the dry run busy or
// grow a value (testdata/drybounds.tsv): each must be answered within a
// second and 256 MiB of allocation, and Script.DryRun must say whether
// the dry run read it, was not started, or was stopped.
func TestDryRunBounded(t *testing.T) {
	data, err := os.ReadFile("testdata/drybounds.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, src, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("drybounds.tsv:%d: want DryRun<TAB>script", n+1)
		}
		r := struct {
			Line   int
			Fields []string
		}{n + 1, []string{want, strings.ReplaceAll(src, `\n`, "\n")}}
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
