package pipeline

import (
	"context"
	"log/slog"
	"testing"

	"github.com/toolwall/toolwall/unixshield"
)

// constTool returns one preallocated result: the benchmarks measure the
// layers, not a tool.
type constTool struct{ r *Result }

func (c constTool) Execute(context.Context, *Request) (*Result, error) { return c.r, nil }

func benchPipeline(b *testing.B, p *Pipeline, req *Request) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Execute(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShieldEmptyWatched: a shield that watches nothing costs nothing
// (0 allocs).
func BenchmarkShieldEmptyWatched(b *testing.B) {
	p, _ := NewBuilder().Use(Shield(&spy{}, nil)).Core(constTool{&Result{Output: "ok"}}).Build()
	benchPipeline(b, p, bash("go test ./...", 1))
}

// BenchmarkShieldUnixShield: the shield layer with UnixShield on an
// ordinary command.
func BenchmarkShieldUnixShield(b *testing.B) {
	p, _ := NewBuilder().Use(Shield(unixshield.New(0.4, 0.7), slog.New(slog.DiscardHandler))).
		Core(constTool{&Result{Output: "ok"}}).Build()
	benchPipeline(b, p, bash("go test ./... -run TestX -count=1", 1))
}

// BenchmarkFullStack: rename, breaker, UnixShield and memoize (a hit) per
// call.
func BenchmarkFullStack(b *testing.B) {
	p, _ := NewBuilder().
		Use(Rename(map[string]string{"shell": "Bash"}), NewBreaker(DefaultBreakerOptions()).Middleware(),
			Shield(unixshield.New(0.4, 0.7), slog.New(slog.DiscardHandler)), Memoize(MemoOptions{TTL: 1 << 30})).
		Core(constTool{&Result{Output: "ok"}}).Build()
	benchPipeline(b, p, bash("git status --short", 1))
}

// BenchmarkBreaker: the breaker layer alone.
func BenchmarkBreaker(b *testing.B) {
	p, _ := NewBuilder().Use(NewBreaker(DefaultBreakerOptions()).Middleware()).Core(constTool{&Result{Output: "ok"}}).Build()
	benchPipeline(b, p, bash("ls", 1))
}

// BenchmarkMemoHit: the memo layer serving a hit.
func BenchmarkMemoHit(b *testing.B) {
	p, _ := NewBuilder().Use(Memoize(MemoOptions{TTL: 1 << 30})).Core(constTool{&Result{Output: "ok"}}).Build()
	benchPipeline(b, p, bash("ls -la", 1))
}
