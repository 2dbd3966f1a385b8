package engine

import (
	"context"
	"encoding/json"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// decision is a remembered decision: its verdict and decision id.
type decision struct {
	V  toolwall.Verdict `json:"v"`
	ID string           `json:"id,omitempty"`
}

// decisions is the engine's store as a session.Decisions; nil without
// session memory or with a store that keeps none.
func (e *Engine) decisions() session.Decisions {
	d, _ := e.store.(session.Decisions)
	return d
}

// Decided returns the decision remembered for the call a host names key
// in session (see host.Decider), and whether there is one. Without
// session memory, or when it cannot be read, there is none.
func (e *Engine) Decided(ctx context.Context, sess, key string) (toolwall.Verdict, string, bool) {
	ds := e.decisions()
	if ds == nil || sess == "" || key == "" {
		return toolwall.Verdict{}, "", false
	}
	b, ok, err := ds.Decided(ctx, sess, key)
	if err != nil || !ok {
		return toolwall.Verdict{}, "", false
	}
	var d decision
	if json.Unmarshal(b, &d) != nil {
		return toolwall.Verdict{}, "", false
	}
	return d.V, d.ID, true
}

// Decide remembers v (decision id) for the call a host names key in
// session unless a decision is remembered for it already, and returns
// the decision that stands, with earlier set when it is the earlier one.
// Without session memory, v stands.
func (e *Engine) Decide(ctx context.Context, sess, key string, v toolwall.Verdict, id string) (toolwall.Verdict, string, bool) {
	ds := e.decisions()
	if ds == nil || sess == "" || key == "" {
		return v, id, false
	}
	kept := v
	kept.Effects, kept.Commands, kept.Timings = nil, nil, nil
	b, err := json.Marshal(decision{V: kept, ID: id})
	if err != nil {
		return v, id, false
	}
	stands, earlier, err := ds.Decide(ctx, sess, key, b)
	if err != nil || !earlier {
		return v, id, false
	}
	var d decision
	if json.Unmarshal(stands, &d) != nil {
		return v, id, false
	}
	return d.V, d.ID, true
}
