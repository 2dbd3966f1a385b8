package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// Exclusion says why a tool is unavailable: the prerequisites that have
// not completed yet (the tool-executor framework's DependencyExclusion).
type Exclusion struct {
	Tool    string
	Missing []string
}

// Reason is a sentence for the model.
func (e Exclusion) Reason() string {
	return fmt.Sprintf("tool %q is not available yet: it needs %s to complete successfully first", e.Tool, strings.Join(e.Missing, ", "))
}

// Dependencies is the tool dependency graph of the tool-executor framework
// (ToolDependencyGraph) as an executor wrapper: a tool with prerequisites
// is left out of Definitions, and its calls are refused with the
// exclusion's reason, until every prerequisite has completed successfully
// in this session. Build one per session.
type Dependencies struct {
	inner    Executor
	requires map[string][]string

	mu   sync.Mutex
	done map[string]bool
}

// NewDependencies wraps inner with the graph requires (tool → the tools
// that must complete first). A cycle, or a tool requiring itself, is an
// error naming it: such a tool could never become available.
func NewDependencies(inner Executor, requires map[string][]string) (*Dependencies, error) {
	d := &Dependencies{inner: inner, requires: map[string][]string{}, done: map[string]bool{}}
	for t, reqs := range requires {
		d.requires[t] = slices.Clone(reqs)
	}
	// Depth-first search for a cycle, in sorted order for a stable error.
	const (
		white = iota
		grey
		black
	)
	state := map[string]int{}
	var visit func(t string, path []string) error
	visit = func(t string, path []string) error {
		switch state[t] {
		case grey:
			return fmt.Errorf("executor: dependency cycle %s", strings.Join(append(path, t), " → "))
		case black:
			return nil
		}
		state[t] = grey
		for _, r := range d.requires[t] {
			if err := visit(r, append(path, t)); err != nil {
				return err
			}
		}
		state[t] = black
		return nil
	}
	tools := make([]string, 0, len(d.requires))
	for t := range d.requires {
		tools = append(tools, t)
	}
	slices.Sort(tools)
	for _, t := range tools {
		if err := visit(t, nil); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Exclusions lists the tools of inner that are unavailable now, in
// definition order.
func (d *Dependencies) Exclusions() []Exclusion {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Exclusion
	for _, def := range d.inner.Definitions() {
		if e, ok := d.excluded(def.Name); ok {
			out = append(out, e)
		}
	}
	return out
}

// excluded reports the exclusion of tool; d.mu is held.
func (d *Dependencies) excluded(tool string) (Exclusion, bool) {
	var missing []string
	for _, r := range d.requires[tool] {
		if !d.done[r] {
			missing = append(missing, r)
		}
	}
	return Exclusion{Tool: tool, Missing: missing}, len(missing) > 0
}

// Definitions returns inner's tools whose prerequisites have completed.
func (d *Dependencies) Definitions() []Definition {
	defs := d.inner.Definitions()
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.DeleteFunc(defs, func(def Definition) bool {
		_, ex := d.excluded(def.Name)
		return ex
	})
}

// Execute refuses an excluded tool with the exclusion's reason, else runs
// the call on inner and marks its tool completed when it succeeded.
func (d *Dependencies) Execute(ctx context.Context, req *Request) (*Output, error) {
	d.mu.Lock()
	ex, excluded := d.excluded(req.Call.Tool)
	d.mu.Unlock()
	if excluded {
		return &Output{Tool: req.Call.Tool, IsError: true, Text: ex.Reason()}, nil
	}
	out, err := d.inner.Execute(ctx, req)
	if err == nil && out != nil && !out.IsError {
		d.mu.Lock()
		d.done[req.Call.Tool] = true
		d.mu.Unlock()
	}
	return out, err
}

// Confirmation returns inner's.
func (d *Dependencies) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	return d.inner.Confirmation(ctx, call)
}

// Speculatable is inner's answer for a tool that is available now, false
// for an excluded one.
func (d *Dependencies) Speculatable(call toolwall.Call) bool {
	if !d.inner.Speculatable(call) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ex := d.excluded(call.Tool)
	return !ex
}
