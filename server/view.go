package server

import (
	"context"
	"slices"
	"sync"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// batchStore is a session store that reads and writes many sessions in
// one round trip (session/postgres.Store is one). With it, a batch
// request costs the store a fixed number of round trips: one history
// read for all the batch's sessions, one write of every call staged, one
// commit of every call recorded.
type batchStore interface {
	// Histories returns History(ids[i], w) for every i.
	Histories(ctx context.Context, ids []string, w session.Window) ([][]session.Record, error)
	// StageMany does Stage(ids[i], keys[i], recs[i]) for every i.
	StageMany(ctx context.Context, ids, keys []string, recs []session.Record) error
	// CommitMany does Commit(ids[i], keys[i], success[i]) for every i.
	CommitMany(ctx context.Context, ids, keys []string, success []bool) ([]bool, error)
}

// viewKey keys a request's view in its context.
type viewKey struct{}

// view is one request's batch over a batchStore; the observed store
// consults it (see observed) so that the gate, which reads and writes
// one call at a time, costs the store one round trip per batch:
//
//   - the first History of a session of the batch reads the histories of
//     all its sessions at once; later reads of a session are answered
//     from that read until something is appended or committed to it
//     through the view (a decide batch writes no history: it stages);
//   - Stage is deferred and written for the whole batch by flush, before
//     the answer is sent (a staged call is only committed by a later
//     /v1/record, so nothing in the batch reads it);
//   - Commit is answered from a CommitMany the record batch made first.
type view struct {
	bs  batchStore
	ids []string // the sessions of the batch, each once

	mu      sync.Mutex
	fetched bool
	window  session.Window
	hist    map[string][]session.Record
	err     error
	stale   map[string]bool

	stageIDs, stageKeys []string
	stageRecs           []session.Record

	commits map[[2]string]commitResult
}

// commitResult is the outcome of one commit of a CommitMany.
type commitResult struct {
	found bool
	err   error
}

// withView returns ctx with a view over the store for a batch of calls,
// when the store batches and the calls have sessions; else ctx and nil
// (a single call goes to the store as it is).
func (s *Server) withView(ctx context.Context, calls []toolwall.Call) (context.Context, *view) {
	if s.store == nil || len(calls) < 2 {
		return ctx, nil
	}
	bs, ok := s.store.Store.(batchStore)
	if !ok {
		return ctx, nil
	}
	v := &view{bs: bs, stale: map[string]bool{}, commits: map[[2]string]commitResult{}}
	seen := map[string]bool{}
	for _, c := range calls {
		if c.Session != "" && !seen[c.Session] {
			seen[c.Session] = true
			v.ids = append(v.ids, c.Session)
		}
	}
	if len(v.ids) == 0 {
		return ctx, nil
	}
	return context.WithValue(ctx, viewKey{}, v), v
}

// viewOf returns the view of ctx, if any.
func viewOf(ctx context.Context) *view {
	v, _ := ctx.Value(viewKey{}).(*view)
	return v
}

// history answers History of session id from the batch's one read; ok is
// false when the view cannot (a session outside the batch, another
// window, a session written since the read).
func (v *view) history(ctx context.Context, id string, w session.Window) (h []session.Record, ok bool, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stale[id] || !slices.Contains(v.ids, id) || (v.fetched && w != v.window) {
		return nil, false, nil
	}
	if !v.fetched {
		v.fetched, v.window = true, w
		var hs [][]session.Record
		if hs, v.err = v.bs.Histories(ctx, v.ids, w); v.err == nil {
			v.hist = make(map[string][]session.Record, len(v.ids))
			for i, id := range v.ids {
				v.hist[id] = hs[i]
			}
		}
	}
	if v.err != nil {
		return nil, true, v.err
	}
	// The records are the caller's to modify: a copy of each.
	out := make([]session.Record, len(v.hist[id]))
	for i, r := range v.hist[id] {
		r.Effects, r.Rules = slices.Clone(r.Effects), slices.Clone(r.Rules)
		out[i] = r
	}
	return out, true, nil
}

// written marks session id as changed since the batch's history read.
func (v *view) written(id string) {
	v.mu.Lock()
	v.stale[id] = true
	v.mu.Unlock()
}

// stage defers a Stage to flush.
func (v *view) stage(id, key string, r session.Record) {
	v.mu.Lock()
	v.stageIDs, v.stageKeys, v.stageRecs = append(v.stageIDs, id), append(v.stageKeys, key), append(v.stageRecs, r)
	v.mu.Unlock()
}

// flush writes the deferred stages in one StageMany.
func (v *view) flush(ctx context.Context) error {
	v.mu.Lock()
	ids, keys, recs := v.stageIDs, v.stageKeys, v.stageRecs
	v.stageIDs, v.stageKeys, v.stageRecs = nil, nil, nil
	v.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	return v.bs.StageMany(ctx, ids, keys, recs)
}

// commitAll commits the given calls in one CommitMany and keeps each
// result for the Commit the gate makes when it records the call.
func (v *view) commitAll(ctx context.Context, ids, keys []string, success []bool) {
	found, err := v.bs.CommitMany(ctx, ids, keys, success)
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := range ids {
		r := commitResult{err: err}
		if err == nil {
			r.found = found[i]
		}
		v.commits[[2]string{ids[i], keys[i]}] = r
		v.stale[ids[i]] = true
	}
}

// commit answers a Commit from commitAll's results, once; ok is false
// when commitAll did not commit that key.
func (v *view) commit(id, key string) (commitResult, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	k := [2]string{id, key}
	r, ok := v.commits[k]
	delete(v.commits, k)
	return r, ok
}
