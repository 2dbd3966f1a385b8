package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/toolwall/toolwall"
)

// RecentSize is how many admitted watched calls the shield layer keeps
// and passes to the shield as Call.Recent (the tool shield's recent_calls).
const RecentSize = 20

// Shield returns the safety-shield layer over s (the tool shield's
// SafetyShieldMiddleware), named "safety-shield".
//
// For a call of a tool in s.WatchedTools() (read once, here) the layer
// passes the call, with Recent set to the last [RecentSize] admitted
// watched calls of this layer as (tool, turn), to s.Evaluate, then:
//
//   - Deny: returns the soft error "blocked by safety shield: <reason>";
//     the call does not run and is not recorded.
//   - Ask: unless req.Approved, returns a soft error "confirmation required
//     by safety shield: <reason>" with Confirm set; the call does not run
//     and is not recorded.
//   - Warn: logs a warning on logger (slog.Default() when nil) with tool,
//     reason, category and score, and runs the call.
//   - Allow: runs the call.
//
// An admitted call is recorded with s.RecordInvocation after it ran, with
// the name and input this layer saw (inner rewrites do not leak in), also
// when an inner layer served it from cache; success means no Go error and
// a result that is not IsError. A panic in s.Evaluate denies the call.
// Calls of unwatched tools pass untouched: not evaluated, not recorded.
// When s watches nothing the layer is not installed at all (zero cost).
//
// Each Wrap has its own recent window: build one pipeline per session.
func Shield(s toolwall.Shield, logger *slog.Logger) Middleware {
	watched := map[string]bool{}
	for _, t := range s.WatchedTools() {
		watched[t] = true
	}
	if logger == nil {
		logger = slog.Default()
	}
	return Middleware{Name: "safety-shield", Kind: KindShield, Wrap: func(next Tool) Tool {
		if len(watched) == 0 {
			return next
		}
		return &shieldLayer{s: s, watched: watched, log: logger, next: next}
	}}
}

type shieldLayer struct {
	s       toolwall.Shield
	watched map[string]bool
	log     *slog.Logger
	next    Tool

	mu     sync.Mutex
	recent []toolwall.RecentCall // oldest first, at most RecentSize
}

// Execute judges a watched call, runs what is admitted and records it.
func (l *shieldLayer) Execute(ctx context.Context, req *Request) (*Result, error) {
	if !l.watched[req.Call.Tool] {
		return l.next.Execute(ctx, req)
	}
	call := req.Call
	call.Input = bytes.Clone(call.Input)
	l.mu.Lock()
	call.Recent = append([]toolwall.RecentCall(nil), l.recent...)
	l.mu.Unlock()

	v := l.evaluate(ctx, call)
	switch v.Action {
	case toolwall.Deny:
		return errorResult("blocked by safety shield: " + reasonOf(v)), nil
	case toolwall.Ask:
		if !req.Approved {
			r := errorResult("confirmation required by safety shield: " + reasonOf(v))
			r.Confirm = &Confirmation{Reason: reasonOf(v), Verdict: v}
			return r, nil
		}
	case toolwall.Warn:
		category := ""
		if len(v.Findings) > 0 {
			category = v.Findings[0].Category
		}
		l.log.WarnContext(ctx, "safety shield warning", "tool", call.Tool, "reason", reasonOf(v), "category", category, "score", v.Score)
	}

	l.mu.Lock()
	l.recent = append(l.recent, toolwall.RecentCall{Tool: call.Tool, Turn: call.Turn})
	if len(l.recent) > RecentSize {
		l.recent = append(l.recent[:0], l.recent[len(l.recent)-RecentSize:]...)
	}
	l.mu.Unlock()

	res, err := l.next.Execute(ctx, req)
	call.Recent = nil
	l.s.RecordInvocation(ctx, call, err == nil && res != nil && !res.IsError)
	return res, err
}

// evaluate calls the shield, turning a panic into a deny (fail closed).
func (l *shieldLayer) evaluate(ctx context.Context, call toolwall.Call) (v toolwall.Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = toolwall.Verdict{Action: toolwall.Deny, Band: toolwall.Critical, Score: 1,
				Reason: fmt.Sprintf("the %s call was refused: the safety shield failed (%v), and a call that cannot be judged is not run. Retry, or ask the user to check the shield.", call.Tool, r)}
		}
	}()
	return l.s.Evaluate(ctx, call)
}

// reasonOf is the verdict's reason, or a generic one naming the band.
func reasonOf(v toolwall.Verdict) string {
	if v.Reason != "" {
		return v.Reason
	}
	return fmt.Sprintf("risk %.2f is in the %s band", v.Score, v.Band)
}
