package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolwall/toolwall/session"
)

// storeOps are the operations observed counts failures of, by name (the
// op label of toolwall_store_errors_total).
var storeOps = []string{"turn", "advance_turn", "append", "history", "note_refusal", "refusals", "stage", "commit", "prune"}

// observed wraps the session store: it counts failures by operation and
// hands each failure to the request it happened in (see withSlot), so
// /v1/record can answer 503 when the call did not reach memory (the
// engine logs store errors and goes on).
type observed struct {
	session.Store
	errs *prometheus.CounterVec
}

// slotKey keys the request's error slot in a context.
type slotKey struct{}

// slot holds the first store error of a request.
type slot struct {
	mu  sync.Mutex
	err error
}

func (s *slot) get() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// withSlot returns ctx with a new error slot.
func withSlot(ctx context.Context) (context.Context, *slot) {
	s := &slot{}
	return context.WithValue(ctx, slotKey{}, s), s
}

// note counts err and puts it in ctx's slot; it returns err.
func (o *observed) note(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		o.errs.WithLabelValues(op).Inc()
	}
	if s, ok := ctx.Value(slotKey{}).(*slot); ok {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return err
}

// Turn implements session.Store.Turn, noting a failure.
func (o *observed) Turn(ctx context.Context, id string) (int, error) {
	n, err := o.Store.Turn(ctx, id)
	return n, o.note(ctx, "turn", err)
}

// AdvanceTurn implements session.Store.AdvanceTurn, noting a failure.
func (o *observed) AdvanceTurn(ctx context.Context, id string) (int, error) {
	n, err := o.Store.AdvanceTurn(ctx, id)
	return n, o.note(ctx, "advance_turn", err)
}

// Append implements session.Store.Append, noting a failure.
func (o *observed) Append(ctx context.Context, id string, r session.Record) error {
	if v := viewOf(ctx); v != nil {
		v.written(id)
	}
	return o.note(ctx, "append", o.Store.Append(ctx, id, r))
}

// History implements session.Store.History, noting a failure; within a
// batch the batch's one read answers (see view).
func (o *observed) History(ctx context.Context, id string, w session.Window) ([]session.Record, error) {
	if v := viewOf(ctx); v != nil {
		if h, ok, err := v.history(ctx, id, w); ok {
			return h, o.note(ctx, "history", err)
		}
	}
	h, err := o.Store.History(ctx, id, w)
	return h, o.note(ctx, "history", err)
}

// NoteRefusal implements session.Store.NoteRefusal, noting a failure.
func (o *observed) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	n, err := o.Store.NoteRefusal(ctx, id, key)
	return n, o.note(ctx, "note_refusal", err)
}

// Refusals implements session.Store.Refusals, noting a failure.
func (o *observed) Refusals(ctx context.Context, id, key string, w session.Window) (int, error) {
	n, err := o.Store.Refusals(ctx, id, key, w)
	return n, o.note(ctx, "refusals", err)
}

// Stage implements session.Store.Stage, noting a failure; within a batch
// it is deferred to the batch's one write (see view.flush).
func (o *observed) Stage(ctx context.Context, id, key string, r session.Record) error {
	if v := viewOf(ctx); v != nil {
		v.stage(id, key, r)
		return nil
	}
	return o.note(ctx, "stage", o.Store.Stage(ctx, id, key, r))
}

// Commit implements session.Store.Commit, noting a failure; within a
// record batch the batch's one commit answers (see view.commitAll).
func (o *observed) Commit(ctx context.Context, id, key string, success bool) (bool, error) {
	if v := viewOf(ctx); v != nil {
		if r, ok := v.commit(id, key); ok {
			return r.found, o.note(ctx, "commit", r.err)
		}
		v.written(id)
	}
	ok, err := o.Store.Commit(ctx, id, key, success)
	return ok, o.note(ctx, "commit", err)
}

// Prune implements session.Store.Prune, noting a failure.
func (o *observed) Prune(ctx context.Context, idle time.Duration) (int, error) {
	n, err := o.Store.Prune(ctx, idle)
	return n, o.note(ctx, "prune", err)
}
