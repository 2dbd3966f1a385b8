package executor

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// Suppress returns inner without the named tools (the tool-executor framework's ToolFilter,
// "executor wrapper that suppresses specified tools from the LLM tool
// set"): they are left out of Definitions, and a call of one is refused
// with a soft error naming it, whatever inner would do — approved or
// not, never speculated. Names are compared exactly. Other calls go to
// inner.
func Suppress(inner Executor, tools ...string) Executor {
	s := &suppressed{inner: inner, hidden: map[string]bool{}}
	for _, t := range tools {
		s.hidden[t] = true
	}
	return s
}

type suppressed struct {
	inner  Executor
	hidden map[string]bool
}

func (s *suppressed) Definitions() []Definition {
	var out []Definition
	for _, d := range s.inner.Definitions() {
		if !s.hidden[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

func (s *suppressed) Execute(ctx context.Context, req *Request) (*Output, error) {
	if s.hidden[req.Call.Tool] {
		return &Output{Tool: req.Call.Tool, IsError: true, Text: fmt.Sprintf("tool %q is not available in this session", req.Call.Tool)}, nil
	}
	return s.inner.Execute(ctx, req)
}

func (s *suppressed) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	return s.inner.Confirmation(ctx, call)
}

func (s *suppressed) Speculatable(call toolwall.Call) bool {
	return s.inner.Speculatable(call) && !s.hidden[call.Tool]
}
