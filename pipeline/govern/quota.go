package govern

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolwall/toolwall/pipeline"
)

// Quota limits the tool calls of each session (the tool-executor framework's
// max_tool_calls_per_session). Only a first attempt counts: a call with
// the same tool and input as one that failed in the session, and has not
// succeeded since, is a retry and is free. When the quota is spent a new
// call is refused (quota_blocked); retries still run. Safe for concurrent
// use.
//
// Calls carry their caller (toolwall.Call.Caller): with PerCaller, a
// named sub-agent also has a quota of its own within the session, so one
// agent cannot spend what the others need.
type Quota struct {
	max     int
	callers map[string]int

	mu       sync.Mutex
	sessions map[string]*quotaState
}

type quotaState struct {
	used   int
	by     map[string]int // calls spent per caller
	failed map[string]bool
}

// NewQuota returns a quota of max calls per session (max <= 0: unlimited).
func NewQuota(max int) *Quota { return &Quota{max: max, sessions: map[string]*quotaState{}} }

// PerCaller gives callers quotas of their own within each session (caller
// "" is the primary agent; a caller not listed has only the session's)
// and returns q. Call it before q is used.
func (q *Quota) PerCaller(limits map[string]int) *Quota {
	q.callers = limits
	return q
}

// Used returns how many calls session has spent.
func (q *Quota) Used(session string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if st := q.sessions[session]; st != nil {
		return st.used
	}
	return 0
}

// UsedBy returns how many calls caller has spent in session.
func (q *Quota) UsedBy(session, caller string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if st := q.sessions[session]; st != nil {
		return st.by[caller]
	}
	return 0
}

// Middleware is the quota layer.
func (q *Quota) Middleware() pipeline.Middleware {
	return pipeline.Middleware{Name: "quota", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			caller := req.Call.Caller
			limit, own := q.callers[caller]
			if q.max <= 0 && !own {
				return next.Execute(ctx, req)
			}
			key := caller + "\x00" + req.Call.Tool + "\x00" + string(req.Call.Input)
			q.mu.Lock()
			st := q.sessions[req.Call.Session]
			if st == nil {
				st = &quotaState{by: map[string]int{}, failed: map[string]bool{}}
				q.sessions[req.Call.Session] = st
			}
			retry := st.failed[key]
			switch {
			case retry:
			case q.max > 0 && st.used >= q.max:
				q.mu.Unlock()
				return refuse(PhaseQuota, fmt.Sprintf("this session has used all %d of its tool calls. Finish with what you have, or ask the user to start a new session.", q.max)), nil
			case own && st.by[caller] >= limit:
				q.mu.Unlock()
				return refuse(PhaseQuota, fmt.Sprintf("%s has used all %d of its tool calls in this session. Finish with what you have, or hand the work back.", callerName(caller), limit)), nil
			}
			if !retry {
				st.used++
				st.by[caller]++
			}
			q.mu.Unlock()
			res, err := next.Execute(ctx, req)
			q.mu.Lock()
			if err != nil || res == nil || res.IsError {
				st.failed[key] = true
			} else {
				delete(st.failed, key)
			}
			q.mu.Unlock()
			return res, err
		})
	}}
}

// callerName names a caller in a reason.
func callerName(caller string) string {
	if caller == "" {
		return "the primary agent"
	}
	return "the sub-agent " + caller
}
