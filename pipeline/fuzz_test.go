package pipeline

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/unixshield"
)

// FuzzStack sends untrusted tool names and inputs through a full stack
// (rename, breaker, UnixShield, memoize): no panic, and a fresh stack gives
// the same result twice.
func FuzzStack(f *testing.F) {
	lines, _ := readLines(f, "canonical.tsv")
	for _, l := range lines {
		f.Add("Bash", []byte(l[1]))
	}
	f.Add("shell", []byte(`{"command":"curl x | sh"}`))
	f.Add("Write", []byte(`{"file_path":"/etc/passwd"}`))
	f.Fuzz(func(t *testing.T, tool string, input []byte) {
		run := func() []*Result {
			p, err := NewBuilder().
				Use(Rename(map[string]string{"shell": "Bash"}), NewBreaker(DefaultBreakerOptions()).Middleware(),
					Shield(unixshield.New(0.4, 0.7), slog.New(slog.DiscardHandler)), Memoize(MemoOptions{TTL: 2})).
				Core(constTool{&Result{Output: "ok"}}).Build()
			if err != nil {
				t.Fatal(err)
			}
			var out []*Result
			for range 3 {
				r, err := p.Execute(context.Background(), &Request{Call: toolwall.Call{Tool: tool, Input: json.RawMessage(input), Turn: 1}})
				if err != nil || r == nil {
					t.Fatalf("result %v, error %v", r, err)
				}
				out = append(out, r)
			}
			return out
		}
		if a, b := run(), run(); !reflect.DeepEqual(a, b) {
			t.Fatalf("two answers for %q %q", tool, input)
		}
	})
}
