package govern

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolwall/toolwall/pipeline"
)

// Quota limits the tool calls of each session (seed 003's
// max_tool_calls_per_session). Only a first attempt counts: a call with
// the same tool and input as one that failed in the session, and has not
// succeeded since, is a retry and is free. When the quota is spent a new
// call is refused (quota_blocked); retries still run. Safe for concurrent
// use.
type Quota struct {
	max int

	mu       sync.Mutex
	sessions map[string]*quotaState
}

type quotaState struct {
	used   int
	failed map[string]bool
}

// NewQuota returns a quota of max calls per session (max <= 0: unlimited).
func NewQuota(max int) *Quota { return &Quota{max: max, sessions: map[string]*quotaState{}} }

// Used returns how many calls session has spent.
func (q *Quota) Used(session string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if st := q.sessions[session]; st != nil {
		return st.used
	}
	return 0
}

// Middleware is the quota layer.
func (q *Quota) Middleware() pipeline.Middleware {
	return pipeline.Middleware{Name: "quota", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			if q.max <= 0 {
				return next.Execute(ctx, req)
			}
			key := req.Call.Tool + "\x00" + string(req.Call.Input)
			q.mu.Lock()
			st := q.sessions[req.Call.Session]
			if st == nil {
				st = &quotaState{failed: map[string]bool{}}
				q.sessions[req.Call.Session] = st
			}
			retry := st.failed[key]
			if !retry && st.used >= q.max {
				q.mu.Unlock()
				return refuse(PhaseQuota, fmt.Sprintf("this session has used all %d of its tool calls. Finish with what you have, or ask the user to start a new session.", q.max)), nil
			}
			if !retry {
				st.used++
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
