package executor

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// Composite chains executors: a call goes to the executor that defines its
// tool (the tool-executor framework's CompositeExecutor). It is safe for concurrent use.
type Composite struct {
	execs  []Executor
	byTool map[string]Executor
}

// NewComposite returns the composite of execs. Two executors defining the
// same tool name is an error naming both positions: the composite never
// guesses which one a call meant.
func NewComposite(execs ...Executor) (*Composite, error) {
	c := &Composite{execs: execs, byTool: map[string]Executor{}}
	pos := map[string]int{}
	for i, e := range execs {
		if e == nil {
			return nil, fmt.Errorf("executor: composite: executor %d is nil", i)
		}
		for _, d := range e.Definitions() {
			if j, dup := pos[d.Name]; dup {
				return nil, fmt.Errorf("executor: composite: tool %q is defined by executors %d and %d", d.Name, j, i)
			}
			pos[d.Name] = i
			c.byTool[d.Name] = e
		}
	}
	return c, nil
}

// Definitions lists every executor's tools, in executor order.
func (c *Composite) Definitions() []Definition {
	var out []Definition
	for _, e := range c.execs {
		out = append(out, e.Definitions()...)
	}
	return out
}

// Execute runs the call on the executor that defines its tool; an unknown
// tool is a soft error ([UnknownTool]).
func (c *Composite) Execute(ctx context.Context, req *Request) (*Output, error) {
	e, ok := c.byTool[req.Call.Tool]
	if !ok {
		return UnknownTool(req.Call.Tool), nil
	}
	return e.Execute(ctx, req)
}

// Confirmation asks the executor that defines the tool; nil for an
// unknown tool (Execute refuses it anyway).
func (c *Composite) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	e, ok := c.byTool[call.Tool]
	if !ok {
		return nil
	}
	return e.Confirmation(ctx, call)
}

// Speculatable asks the executor that defines the tool; false for an
// unknown tool.
func (c *Composite) Speculatable(call toolwall.Call) bool {
	e, ok := c.byTool[call.Tool]
	return ok && e.Speculatable(call)
}
