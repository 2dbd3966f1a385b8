package executor_test

import (
	"context"
	"testing"

	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
)

func BenchmarkCallKey(b *testing.B) {
	in := []byte(`{"file_path":"/work/project/internal/server/handler.go","offset":120,"limit":80}`)
	for b.Loop() {
		executor.CallKey("Read", in)
	}
}

// BenchmarkCacheHit is the cost of a result served from the cache.
func BenchmarkCacheHit(b *testing.B) {
	c := executor.NewCache(&executortest.Recorder{Tools: []string{"Read"}}, executor.CacheOptions{Cacheable: []string{"Read"}})
	req := &executor.Request{Call: readCall("Read", `{"file_path":"a.go"}`)}
	c.Execute(context.Background(), req)
	for b.Loop() {
		c.Execute(context.Background(), req)
	}
}
