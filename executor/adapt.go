package executor

import (
	"context"

	"github.com/toolwall/toolwall/pipeline"
)

// Tool adapts e to a [pipeline.Tool], so executors are composed with the
// pipeline's layers (shield, breaker, memo, rename):
//
//	p, err := pipeline.NewBuilder().
//		Use(breaker.Middleware()).
//		Use(pipeline.Shield(eng, nil)).
//		Core(executor.Tool(composite)).
//		Build()
//
// The request's Call and Approved pass through; the output's Text,
// IsError, Wrote, Cached and Confirm become the result's. A speculative
// result counts as cached.
func Tool(e Executor) pipeline.Tool {
	return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
		out, err := e.Execute(ctx, &Request{Call: req.Call, Approved: req.Approved})
		if err != nil || out == nil {
			return nil, err
		}
		return &pipeline.Result{Output: out.Text, IsError: out.IsError, Wrote: out.Wrote,
			Cached: out.Cached || out.Speculative, Confirm: out.Confirm}, nil
	})
}
