package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolwall/toolwall"
)

// Request is one tool call to execute.
type Request struct {
	// Call is the call: tool name, input JSON, session, turn number (Turn,
	// which memoize TTLs count in), working directory.
	Call toolwall.Call
	// Approved says a human approved this exact call after the shield layer
	// asked (a Result with Confirm set). The shield layer then runs a call
	// it would ask about; a deny still refuses.
	Approved bool
}

// Result is the outcome of a tool call as the model will see it.
type Result struct {
	// Output is the text returned to the model.
	Output string
	// IsError marks a soft error: the call failed or was refused, the
	// model sees Output, and the run continues.
	IsError bool
	// Wrote is set by a tool when the call changed state (wrote a file,
	// ran a mutating command). Such results are never memoized.
	Wrote bool
	// Cached is set by the memoizing layer on a result served from cache.
	Cached bool
	// Confirm is set by the shield layer when the shield asks for a human
	// decision; IsError is set too, so a host that ignores Confirm shows
	// the model a soft error. The host may ask the user and re-run the
	// request with Approved set.
	Confirm *Confirmation
}

// Confirmation is a shield's request for a human decision.
type Confirmation struct {
	// Reason is the shield's reason, written for the model and the user.
	Reason string
	// Verdict is the shield's full verdict.
	Verdict toolwall.Verdict
}

// errorResult is a soft error result.
func errorResult(msg string) *Result { return &Result{Output: msg, IsError: true} }

// Tool executes tool calls. Implementations must be safe for concurrent
// use. A non-nil error is a hard failure (the breaker counts it, the
// shield records the call as failed); a refusal or an ordinary failure the
// model should see is a Result with IsError.
type Tool interface {
	Execute(ctx context.Context, req *Request) (*Result, error)
}

// ToolFunc adapts a function to [Tool].
type ToolFunc func(ctx context.Context, req *Request) (*Result, error)

// Execute calls f.
func (f ToolFunc) Execute(ctx context.Context, req *Request) (*Result, error) { return f(ctx, req) }

// Registry is a core tool that dispatches on the call's tool name (exact,
// case-sensitive). An unknown name is a soft error naming it.
type Registry map[string]Tool

// Execute runs the tool registered under req.Call.Tool.
func (r Registry) Execute(ctx context.Context, req *Request) (*Result, error) {
	t, ok := r[req.Call.Tool]
	if !ok {
		return errorResult(fmt.Sprintf("unknown tool %q", req.Call.Tool)), nil
	}
	return t.Execute(ctx, req)
}

// Kind says what a middleware does, for the install-order checks.
type Kind uint8

// Kinds of middleware.
const (
	// KindOther is any middleware the order rules do not name.
	KindOther Kind = iota
	// KindShield judges calls with a toolwall.Shield ([Shield]).
	KindShield
	// KindRename rewrites tool names ([Rename]).
	KindRename
	// KindMemoize serves repeats from a cache ([Memoize]).
	KindMemoize
	// KindBreaker is the tool-health circuit breaker ([Breaker]).
	KindBreaker
)

var kindNames = [...]string{"other", "shield", "rename", "memoize", "breaker"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Middleware is one layer as a value.
type Middleware struct {
	// Name identifies the layer in errors ("safety-shield", "aliases").
	Name string
	// Kind is what the layer does; the builder checks order by it.
	Kind Kind
	// Wrap returns a tool that does the layer's work around next.
	Wrap func(next Tool) Tool
}

// Install-order rules of the tool shield, named in [*OrderError].
const (
	RuleShieldInsideRename   = "shield-inside-rename"
	RuleShieldOutsideMemoize = "shield-outside-memoize"
	RuleShieldOnce           = "shield-exactly-once"
)

// Errors of [Builder.Build].
var (
	// ErrEmpty: neither middleware nor a core tool was given.
	ErrEmpty = errors.New("pipeline: nothing to build: no middleware and no core tool")
	// ErrNoCore: middleware was given but no core tool.
	ErrNoCore = errors.New("pipeline: middleware registered but no core tool to run")
	// ErrNilRequest: Execute was called with a nil request.
	ErrNilRequest = errors.New("pipeline: nil request")
)

// OrderError is an install-order rule broken at Build.
type OrderError struct {
	// Rule is RuleShieldInsideRename, RuleShieldOutsideMemoize or
	// RuleShieldOnce.
	Rule string
	// Shield and Other are the names and positions (0 = outermost) of the
	// two layers in conflict.
	Shield, Other       string
	ShieldPos, OtherPos int
}

// Error names the rule, both layers and what the rule is for.
func (e *OrderError) Error() string {
	var want string
	switch e.Rule {
	case RuleShieldInsideRename:
		want = "the shield must be registered after every renaming layer, so aliases are judged under the name that runs"
	case RuleShieldOutsideMemoize:
		want = "the shield must be registered before every memoizing layer, so cached repeats are still judged and recorded"
	default:
		want = "install the shield once, or calls are judged and recorded twice"
	}
	return fmt.Sprintf("pipeline: install-order rule %s broken by shield layer %q (position %d) and layer %q (position %d): %s",
		e.Rule, e.Shield, e.ShieldPos, e.Other, e.OtherPos, want)
}

// Builder stacks middleware around a core tool. The zero value is ready to
// use; it is not safe for concurrent use.
type Builder struct {
	layers []Middleware
	core   Tool
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{} }

// Use appends layers; the first layer ever registered is the outermost.
func (b *Builder) Use(m ...Middleware) *Builder {
	b.layers = append(b.layers, m...)
	return b
}

// Core sets the tool the layers wrap (a [Registry], say).
func (b *Builder) Core(t Tool) *Builder {
	b.core = t
	return b
}

// Build checks the stack and returns it as one tool. It fails with
// [ErrEmpty], [ErrNoCore], an error naming a middleware without Wrap, or an
// [*OrderError] naming the install-order rule broken.
func (b *Builder) Build() (*Pipeline, error) {
	if b.core == nil {
		if len(b.layers) == 0 {
			return nil, ErrEmpty
		}
		return nil, ErrNoCore
	}
	shield := -1
	for i, m := range b.layers {
		if m.Wrap == nil {
			return nil, fmt.Errorf("pipeline: middleware %q (position %d) has no Wrap function", m.Name, i)
		}
		if m.Kind != KindShield {
			continue
		}
		if shield >= 0 {
			return nil, b.orderError(RuleShieldOnce, shield, i)
		}
		shield = i
	}
	if shield >= 0 {
		for i, m := range b.layers {
			switch {
			case m.Kind == KindRename && i > shield:
				return nil, b.orderError(RuleShieldInsideRename, shield, i)
			case m.Kind == KindMemoize && i < shield:
				return nil, b.orderError(RuleShieldOutsideMemoize, shield, i)
			}
		}
	}
	t := b.core
	for i := len(b.layers) - 1; i >= 0; i-- {
		t = b.layers[i].Wrap(t)
	}
	p := &Pipeline{head: t}
	for _, m := range b.layers {
		p.layers = append(p.layers, m.Name)
	}
	return p, nil
}

func (b *Builder) orderError(rule string, shield, other int) error {
	return &OrderError{Rule: rule, Shield: b.layers[shield].Name, ShieldPos: shield, Other: b.layers[other].Name, OtherPos: other}
}

// Pipeline is a built stack of layers around a core tool.
type Pipeline struct {
	head   Tool
	layers []string
}

// Execute runs req through the layers, outermost first. A nil req is
// [ErrNilRequest].
func (p *Pipeline) Execute(ctx context.Context, req *Request) (*Result, error) {
	if req == nil {
		return nil, ErrNilRequest
	}
	return p.head.Execute(ctx, req)
}

// Layers returns the layer names, outermost first.
func (p *Pipeline) Layers() []string { return append([]string(nil), p.layers...) }
