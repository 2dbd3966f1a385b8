package pipeline_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/pipeline"
)

// BenchmarkShieldGate: the shield layer with the shell gate (the built-in
// analyzers, no session memory) on an ordinary command.
func BenchmarkShieldGate(b *testing.B) {
	g := gate.New(gate.Options{Analyzers: analyzers.All(), Logger: slog.New(slog.DiscardHandler)})
	ok := &pipeline.Result{Output: "ok"}
	p, err := pipeline.NewBuilder().Use(pipeline.Shield(g, slog.New(slog.DiscardHandler))).
		Core(pipeline.ToolFunc(func(context.Context, *pipeline.Request) (*pipeline.Result, error) { return ok, nil })).Build()
	if err != nil {
		b.Fatal(err)
	}
	req := &pipeline.Request{Call: toolwall.NewBashCall("go test ./... -run TestX -count=1")}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Execute(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
