package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Breaker defaults (the tool shield's tool health).
const (
	// DefaultFailures is the consecutive failures that open a breaker.
	DefaultFailures = 3
	// DefaultCooldown is how long an open breaker refuses.
	DefaultCooldown = 30 * time.Second
	// DefaultProbeTimeout is how long a half-open probe holds its lease.
	DefaultProbeTimeout = 30 * time.Second
)

// UnavailableMessage is the soft error an open breaker returns.
const UnavailableMessage = "tool temporarily unavailable: circuit breaker open"

// BreakerOptions configure a [Breaker]. Start from
// [DefaultBreakerOptions]: the zero value never trips (Failures 0).
type BreakerOptions struct {
	// Failures is how many consecutive failures open the breaker of a
	// tool; 0 disables tripping.
	Failures int
	// Cooldown is how long an open breaker refuses before it lets one
	// probe through; 0 means DefaultCooldown.
	Cooldown time.Duration
	// ProbeTimeout is the lease of a half-open probe: a probe that has
	// not reported back by then no longer blocks the next one, and its
	// late report is ignored. 0 means DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// Now is the clock; nil means time.Now. Tests inject a fake.
	Now func() time.Time
}

// DefaultBreakerOptions returns 3 failures, a 30 s cooldown, a 30 s probe
// lease and the real clock.
func DefaultBreakerOptions() BreakerOptions {
	return BreakerOptions{Failures: DefaultFailures, Cooldown: DefaultCooldown, ProbeTimeout: DefaultProbeTimeout}
}

// State is a breaker state.
type State uint8

// Breaker states.
const (
	// Closed admits every call and counts consecutive failures.
	Closed State = iota
	// Open refuses every call until the cooldown has passed.
	Open
	// HalfOpen admits one probe at a time; its outcome closes or re-opens.
	HalfOpen
)

var stateNames = [...]string{"closed", "open", "half-open"}

// String returns "closed", "open" or "half-open".
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", s)
}

// Breaker is the tool-health circuit breaker: per tool name (as its layer
// sees it), Closed → Open after Failures consecutive failures; Open
// refuses with [UnavailableMessage] until Cooldown has passed; then
// HalfOpen admits one probe at a time under a lease of ProbeTimeout; the
// probe's success closes the breaker, its failure re-opens it with a fresh
// cooldown. A report from a call admitted under an earlier state (a late
// success while Open, a probe whose lease ran out) is ignored.
//
// A failure is a Go error other than context.Canceled, a nil result, or an
// IsError result (a shield refusal included, so repeated blocks open the
// breaker when it sits outside the shield). A result asking for
// confirmation and a cancelled call count neither way; a cancelled or
// confirmation-seeking probe frees its lease. A panic in an inner layer
// counts as a failure and is re-raised. Safe for concurrent use.
type Breaker struct {
	opts BreakerOptions

	mu    sync.Mutex
	tools map[string]*health // at most MaxTracked
	seq   uint64             // last generation or probe id handed out
}

// health is one tool's breaker.
type health struct {
	state      State
	failures   int       // consecutive, while Closed
	openUntil  time.Time // while Open
	gen        uint64    // unique per state entered (from Breaker.seq)
	probe      uint64    // live probe's id while HalfOpen, 0 when none
	probeUntil time.Time // end of the live probe's lease
}

// ticket is what an admitted call reports back with.
type ticket struct {
	gen   uint64
	probe uint64
}

// NewBreaker returns a breaker with opts, zero durations replaced by the
// defaults.
func NewBreaker(opts BreakerOptions) *Breaker {
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = DefaultProbeTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Breaker{opts: opts, tools: map[string]*health{}}
}

// Middleware returns the breaker as a layer, named "tool-health". Several
// pipelines may share one breaker.
func (b *Breaker) Middleware() Middleware {
	return Middleware{Name: "tool-health", Kind: KindBreaker, Wrap: func(next Tool) Tool {
		return ToolFunc(func(ctx context.Context, req *Request) (res *Result, err error) {
			tool := req.Call.Tool
			t, ok := b.admit(tool)
			if !ok {
				return errorResult(UnavailableMessage), nil
			}
			defer func() {
				if r := recover(); r != nil {
					b.report(tool, t, outcomeFailure)
					panic(r)
				}
			}()
			res, err = next.Execute(ctx, req)
			b.report(tool, t, classify(res, err))
			return res, err
		})
	}}
}

type outcome uint8

const (
	outcomeSuccess outcome = iota
	outcomeFailure
	outcomeNeutral
)

func classify(res *Result, err error) outcome {
	switch {
	case errors.Is(err, context.Canceled):
		return outcomeNeutral
	case err != nil, res == nil, res.IsError && res.Confirm == nil:
		return outcomeFailure
	case res.Confirm != nil:
		return outcomeNeutral
	}
	return outcomeSuccess
}

// State returns the tool's state now, without changing it: an Open
// breaker whose cooldown has passed still reads Open until a call comes.
func (b *Breaker) State(tool string) State {
	b.mu.Lock()
	defer b.mu.Unlock()
	if h := b.tools[tool]; h != nil {
		return h.state
	}
	return Closed
}

// Allowed reports whether a call of tool would be admitted now. It only
// reads: it never takes the probe slot nor moves Open to HalfOpen.
func (b *Breaker) Allowed(tool string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := b.tools[tool]
	if h == nil {
		return true
	}
	now := b.opts.Now()
	switch h.state {
	case Open:
		return !now.Before(h.openUntil)
	case HalfOpen:
		return h.probe == 0 || !now.Before(h.probeUntil)
	}
	return true
}

func (b *Breaker) admit(tool string) (ticket, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := b.tools[tool]
	if h == nil {
		if !b.room() {
			return ticket{}, true // untracked: admitted, its report ignored
		}
		b.seq++
		h = &health{gen: b.seq}
		b.tools[tool] = h
	}
	now := b.opts.Now()
	if h.state == Open {
		if now.Before(h.openUntil) {
			return ticket{}, false
		}
		b.seq++
		h.state, h.probe, h.gen = HalfOpen, 0, b.seq
	}
	if h.state == HalfOpen {
		if h.probe != 0 && now.Before(h.probeUntil) {
			return ticket{}, false
		}
		b.seq++
		h.probe, h.probeUntil = b.seq, now.Add(b.opts.ProbeTimeout)
		return ticket{gen: h.gen, probe: h.probe}, true
	}
	return ticket{gen: h.gen}, true
}

func (b *Breaker) report(tool string, t ticket, o outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := b.tools[tool]
	if h == nil || h.gen != t.gen || h.probe != t.probe {
		return // admitted under an earlier state, or a probe whose lease was taken over
	}
	switch {
	case o == outcomeNeutral:
		h.probe = 0
	case h.state == HalfOpen && o == outcomeSuccess:
		b.seq++
		*h = health{gen: b.seq}
	case h.state == HalfOpen:
		b.open(h)
	case o == outcomeSuccess:
		h.failures = 0
	default:
		h.failures++
		if b.opts.Failures > 0 && h.failures >= b.opts.Failures {
			b.open(h)
		}
	}
}

// MaxTracked bounds how many tool names a breaker tracks. Tool names come
// from the model, so a made-up name must not grow memory without end.
const MaxTracked = 1024

// room reports whether a new tool can be tracked, first forgetting tools
// that are Closed with a clean count (the state of an untracked tool).
// When every tracked tool is failing, open or probing, a new tool is not
// tracked: it is admitted and its outcomes are not counted.
func (b *Breaker) room() bool {
	if len(b.tools) < MaxTracked {
		return true
	}
	for name, h := range b.tools {
		if h.state == Closed && h.failures == 0 {
			delete(b.tools, name)
		}
	}
	return len(b.tools) < MaxTracked
}

func (b *Breaker) open(h *health) {
	b.seq++
	*h = health{state: Open, openUntil: b.opts.Now().Add(b.opts.Cooldown), gen: b.seq}
}
