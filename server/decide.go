package server

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/policy"
)

// Verdict cache bounds: see loaded.decide.
const (
	// maxCachedInput is the longest input whose verdict is kept, in
	// bytes: a large Write is rarely sent twice, and would crowd out the
	// commands that are.
	maxCachedInput = 4096
)

// cached is a single-call verdict with when it was reached.
type cached struct {
	v  toolwall.Verdict
	at time.Time
}

// newCache returns the verdict cache of size entries for a policy, or
// nil when size is negative or the policy's verdicts must not be reused:
// a later stage (guardrail, advisor) asks a model whose answer may differ
// from one call to the next.
func newCache(cfg *policy.Config, size int) *lru.Cache[string, cached] {
	if size <= 0 || cfg.Guardrail.Enabled || cfg.Advisor.Enabled {
		return nil
	}
	c, _ := lru.New[string, cached](size) // fails only for a size <= 0
	return c
}

// cacheKey is the exact input of a single-call decision: every field of
// the call the gate reads when there is no session. Each field is
// prefixed by its length, so no two calls share a key.
func cacheKey(c toolwall.Call) string {
	b := make([]byte, 0, 64+len(c.Tool)+len(c.Input)+len(c.Cwd)+len(c.Project)+len(c.Home)+len(c.Caller))
	for _, f := range [...]string{c.Tool, string(c.Input), c.Cwd, c.Project, c.Home, string(c.Context), c.Caller} {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	return string(b)
}

// reusable reports whether v may answer the same call again: not a
// verdict about this attempt rather than the call (a timeout, a
// cancellation, an internal error).
func reusable(v toolwall.Verdict) bool {
	for _, f := range v.Findings {
		switch f.Rule {
		case toolwall.RuleTimeout, toolwall.RuleInternal, "gate.cancelled":
			return false
		}
	}
	return true
}

// clip returns v with every slice clipped to its length, so that a
// caller appending to one (approvals add a note) copies it rather than
// writing into the cached verdict.
func clip(v toolwall.Verdict) toolwall.Verdict {
	v.Findings, v.Effects, v.Commands, v.Notes = slices.Clip(v.Findings), slices.Clip(v.Effects), slices.Clip(v.Commands), slices.Clip(v.Notes)
	return v
}

// decide judges one call with the engine in force, as a hook does
// (host.Judge): an MCP tool call together with the calls its arguments
// map onto (a shell command, a path written, a URL), the strictest
// verdict deciding. A call without a
// session is judged by the single-call analysis only (no chain memory,
// no trajectory), a pure function of the call and the policy, so its
// verdict is kept and reused for the same exact call for
// policy.ProjectRecheck (500 ms: the time within which the policy
// package takes an edit of a project's .toolwall.toml into account). A
// call with a session is always judged afresh: chains see every call.
func (l *loaded) decide(ctx context.Context, m *metrics, call toolwall.Call) toolwall.Verdict {
	if l.cache == nil || call.Session != "" || len(call.Input) > maxCachedInput {
		return host.Judge(ctx, l.eng, call)
	}
	key := cacheKey(call)
	now := time.Now()
	if e, ok := l.cache.Get(key); ok && now.Sub(e.at) < policy.ProjectRecheck && now.Sub(e.at) >= 0 {
		m.cacheHits.Inc()
		return e.v
	}
	m.cacheMisses.Inc()
	v := host.Judge(ctx, l.eng, call)
	if reusable(v) {
		v = clip(v)
		l.cache.Add(key, cached{v: v, at: now})
	}
	return v
}

// job is a run of calls one worker decides in order: the calls of one or
// more sessions of a batch.
type job struct {
	ctx   context.Context
	cur   *loaded
	calls []toolwall.Call
	// got[i] is the verdict of calls[i] once done counts past i: a batch
	// past its time limit keeps the verdicts reached before it.
	got  []decided
	done atomic.Int32
	out  chan struct{} // closed when every call is decided
}

// decided is a verdict with the time the engine took to reach it.
type decided struct {
	v    toolwall.Verdict
	took time.Duration
}

// work decides jobs until the server closes. Workers live as long as the
// server, so the deep stacks the shell reader needs are grown once, not
// once per request (a goroutine per decision spent about a tenth of the
// handler's time copying stacks).
func (s *Server) work() {
	for {
		select {
		case <-s.quit:
			return
		case j := <-s.jobs:
			for i, c := range j.calls {
				start := time.Now()
				v := s.decideSafely(j.ctx, j.cur, c)
				j.got[i] = decided{v: v, took: time.Since(start)}
				j.done.Store(int32(i + 1))
			}
			close(j.out)
			if s.leave() {
				return // a replacement took this worker's place while it overran
			}
		}
	}
}

// leave reports whether a worker should stop: one more worker runs than
// the server keeps (a replacement for one that overran), so the first to
// finish a job leaves.
func (s *Server) leave() bool {
	for {
		n := s.extra.Load()
		if n <= 0 {
			return false
		}
		if s.extra.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// decideSafely runs the engine, turning a panic into a deny.
func (s *Server) decideSafely(ctx context.Context, cur *loaded, call toolwall.Call) (v toolwall.Verdict) {
	defer func() {
		if p := recover(); p != nil {
			s.metrics.panics.Inc()
			s.log.Error("toolwall serve: panic in evaluation", "tool", call.Tool, "panic", p)
			v = internalError(p)
		}
	}()
	return cur.decide(ctx, s.metrics, call)
}

// evaluate judges calls with the policy cur within the decision time
// limit and returns their verdicts in order. Calls of one session are
// decided in order by one worker, so each sees what the ones before it
// left in session memory; calls of different sessions, and calls without
// one, are spread over up to GOMAXPROCS workers. A call not decided
// within the limit, or whose evaluation panicked, is denied; the calls
// decided before the limit keep their verdicts. A job that overruns
// leaves its worker busy, so a replacement is started.
func (s *Server) evaluate(ctx context.Context, cur *loaded, calls []toolwall.Call) []decided {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	out := make([]decided, len(calls))
	bins := plan(calls, s.spread)
	pending := make([]*job, len(bins))
	sent := 0
send:
	for i, b := range bins {
		j := &job{ctx: ctx, cur: cur, calls: make([]toolwall.Call, len(b)), got: make([]decided, len(b)), out: make(chan struct{})}
		for k, at := range b {
			j.calls[k] = calls[at]
		}
		select {
		case s.jobs <- j:
			pending[i], sent = j, i+1
		case <-ctx.Done():
			break send
		}
	}
	late := toolwall.Refusal("server", toolwall.RuleTimeout, fmt.Sprintf("toolwall could not finish checking this call within %v, so it is refused rather than let through unchecked. Retry.", s.opts.Timeout))
	for i, b := range bins {
		var vs []decided
		if j := pending[i]; i < sent {
			select {
			case <-j.out:
				vs = j.got
			case <-ctx.Done():
				select {
				case <-j.out: // finished at the same moment
					vs = j.got
				default:
					vs = j.got[:j.done.Load()]
					s.extra.Add(1)
					go s.work()
				}
			}
		}
		for k, at := range b {
			if k < len(vs) {
				out[at] = vs[k]
			} else {
				out[at] = decided{v: late, took: time.Since(start)}
			}
		}
	}
	return out
}

// plan splits a batch into at most n runs of call indices: the calls of
// one session stay together and in order; runs are balanced by the
// number of calls.
func plan(calls []toolwall.Call, n int) [][]int {
	if len(calls) == 1 {
		return [][]int{{0}}
	}
	var groups [][]int
	bySession := map[string]int{}
	for i, c := range calls {
		if c.Session == "" {
			groups = append(groups, []int{i})
			continue
		}
		g, ok := bySession[c.Session]
		if !ok {
			g = len(groups)
			bySession[c.Session] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	n = max(1, min(n, len(groups)))
	bins := make([][]int, n)
	for _, g := range groups {
		least := 0
		for b := range bins {
			if len(bins[b]) < len(bins[least]) {
				least = b
			}
		}
		bins[least] = append(bins[least], g...)
	}
	return bins
}
