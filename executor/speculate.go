package executor

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pipeline"
)

// SpeculatorOptions configure [NewSpeculator].
type SpeculatorOptions struct {
	// MaxPending bounds the speculative runs kept at once (default 16);
	// Speculate refuses more.
	MaxPending int
	// TTL is how long a speculative result waits for the model's call
	// (default 30 s); older ones are dropped unused.
	TTL time.Duration
}

// Speculator is the tool-executor framework's speculative tool dispatch as an executor
// wrapper: while the model is still writing its answer, the host hands it
// the calls it expects (Speculate); read-only calls start at once, and
// when the model then issues the same call (same tool, same canonical
// input, no ExecutionContext) Execute hands over the result, marked
// Speculative, instead of running it again. A call that writes or needs
// confirmation is never speculated: Speculate runs only calls that
// inner.Speculatable accepts and that need no confirmation. Build one per
// session.
type Speculator struct {
	inner Executor
	opts  SpeculatorOptions
	ctx   context.Context
	stop  context.CancelFunc

	mu      sync.Mutex
	pending map[Key]*specRun

	used, wasted atomic.Uint64
}

type specRun struct {
	started time.Time
	done    chan struct{}
	out     *Output
	err     error
}

// NewSpeculator wraps inner. Close stops the runs still going.
func NewSpeculator(inner Executor, opts SpeculatorOptions) *Speculator {
	if opts.MaxPending <= 0 {
		opts.MaxPending = 16
	}
	if opts.TTL <= 0 {
		opts.TTL = 30 * time.Second
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Speculator{inner: inner, opts: opts, ctx: ctx, stop: stop, pending: map[Key]*specRun{}}
}

// Speculate starts call ahead of the model. It reports whether it did:
// false for a call inner does not call Speculatable, one that needs
// confirmation, one without a canonical key, one already pending, or
// when MaxPending runs are kept. The run uses the speculator's own
// context (not ctx, which only bounds the checks), so it outlives the
// host's turn; Close cancels it.
func (s *Speculator) Speculate(ctx context.Context, call toolwall.Call) bool {
	if !s.inner.Speculatable(call) || s.inner.Confirmation(ctx, call) != nil {
		return false
	}
	key, ok := CallKey(call.Tool, call.Input)
	if !ok {
		return false
	}
	s.mu.Lock()
	s.expire()
	if _, dup := s.pending[key]; dup || len(s.pending) >= s.opts.MaxPending {
		s.mu.Unlock()
		return false
	}
	run := &specRun{started: time.Now(), done: make(chan struct{})}
	s.pending[key] = run
	s.mu.Unlock()
	go func() {
		defer close(run.done)
		run.out, run.err = s.inner.Execute(s.ctx, &Request{Call: call})
	}()
	return true
}

// expire drops runs older than the TTL; s.mu is held.
func (s *Speculator) expire() {
	for k, r := range s.pending {
		if time.Since(r.started) > s.opts.TTL {
			delete(s.pending, k)
			s.wasted.Add(1)
		}
	}
}

// Stats returns how many speculative results were used and how many
// expired unused.
func (s *Speculator) Stats() (used, wasted uint64) { return s.used.Load(), s.wasted.Load() }

// Close cancels the runs still going and drops every pending result.
func (s *Speculator) Close() {
	s.stop()
	s.mu.Lock()
	s.wasted.Add(uint64(len(s.pending)))
	clear(s.pending)
	s.mu.Unlock()
}

// Definitions returns inner's.
func (s *Speculator) Definitions() []Definition { return s.inner.Definitions() }

// Execute hands over a pending speculative result of the same call
// (waiting for it to finish, or for ctx), else runs the call on inner. A
// speculative run that failed with a Go error or an IsError output is
// not handed over: the call runs again, for real.
func (s *Speculator) Execute(ctx context.Context, req *Request) (*Output, error) {
	if req.Exec == nil && !req.Approved {
		if key, ok := CallKey(req.Call.Tool, req.Call.Input); ok {
			s.mu.Lock()
			run := s.pending[key]
			delete(s.pending, key)
			s.mu.Unlock()
			if run != nil {
				select {
				case <-run.done:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if run.err == nil && run.out != nil && !run.out.IsError {
					s.used.Add(1)
					out := *run.out
					out.Speculative = true
					return &out, nil
				}
				s.wasted.Add(1)
			}
		}
	}
	return s.inner.Execute(ctx, req)
}

// Confirmation returns inner's.
func (s *Speculator) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	return s.inner.Confirmation(ctx, call)
}

// Speculatable returns inner's.
func (s *Speculator) Speculatable(call toolwall.Call) bool { return s.inner.Speculatable(call) }
