package shell

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzRead checks that Read never panics, answers the same twice and stays
// fast on any input. Seeds: every case of the testdata files.
func FuzzRead(f *testing.F) {
	for _, file := range caseFiles {
		for _, c := range loadCases(f, file) {
			f.Add(c.src)
		}
	}
	opt := defaultOptions()
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		s1, err1 := Read(src, opt)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Read took %v on %q", d, src)
		}
		s2, err2 := Read(src, opt)
		r1, r2 := renderScript(s1, err1, opt), renderScript(s2, err2, opt)
		if !reflect.DeepEqual(r1, r2) {
			t.Fatalf("Read(%q) not deterministic:\n%s\n---\n%s", src, strings.Join(r1, "\n"), strings.Join(r2, "\n"))
		}
	})
}
