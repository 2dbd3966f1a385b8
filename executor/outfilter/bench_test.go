package outfilter_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/outfilter"
)

// BenchmarkApply filters a 2000-line go test run.
func BenchmarkApply(b *testing.B) {
	var s strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&s, "=== RUN   Test%d\n--- PASS: Test%d (0.00s)\n", i, i)
	}
	env := &executor.Envelope{Stdout: s.String()}
	p := outfilter.Builtin()
	for b.Loop() {
		p.Apply("go test ./...", env)
	}
}
