package govern

import (
	"context"
	"errors"
	"strings"

	"github.com/toolwall/toolwall/pipeline"
)

// Phase is where in a tool call's life an error arose (the tool-executor framework's
// error_taxonomy).
type Phase string

// Phases, in the order a call meets them.
const (
	PhaseNone          Phase = ""              // no error
	PhaseScope         Phase = "scope"         // outside the capability scope
	PhasePolicy        Phase = "policy"        // refused or asked by the shield
	PhaseAuthorization Phase = "authorization" // not granted by the authorization rules
	PhaseTrust         Phase = "trust"         // the caller's trust level does not allow it
	PhaseQuota         Phase = "quota"         // the session's tool call quota is spent
	PhaseHealth        Phase = "health"        // the circuit breaker holds the tool
	PhaseInput         Phase = "input"         // unknown tool or unreadable input
	PhaseTimeout       Phase = "timeout"       // the call ran out of time
	PhaseCancelled     Phase = "cancelled"     // the caller cancelled it
	PhaseExecution     Phase = "execution"     // the tool ran and failed
)

// refuse is the soft error a governance layer returns.
func refuse(p Phase, reason string) *pipeline.Result {
	return &pipeline.Result{Output: string(p) + "_blocked: " + reason, IsError: true}
}

// Classify returns the phase of a pipeline outcome: PhaseNone for a
// success, the refusing layer's phase for a governance refusal
// ("<phase>_blocked: …"), PhasePolicy for the shield's refusals and
// confirmations, PhaseHealth for an open breaker, PhaseInput for an
// unknown tool, PhaseTimeout / PhaseCancelled for context errors, and
// PhaseExecution for anything else that failed.
func Classify(res *pipeline.Result, err error) Phase {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return PhaseTimeout
	case errors.Is(err, context.Canceled):
		return PhaseCancelled
	case err != nil:
		return PhaseExecution
	case res == nil || !res.IsError && res.Confirm == nil:
		return PhaseNone
	}
	if p, _, ok := strings.Cut(res.Output, "_blocked: "); ok {
		switch ph := Phase(p); ph {
		case PhaseScope, PhaseAuthorization, PhaseTrust, PhaseQuota:
			return ph
		}
	}
	if res.Confirm != nil {
		return PhasePolicy
	}
	switch o := res.Output; {
	case strings.HasPrefix(o, "blocked by safety shield:"), strings.HasPrefix(o, "confirmation required by safety shield:"):
		return PhasePolicy
	case strings.HasPrefix(o, "tool temporarily unavailable"):
		return PhaseHealth
	case strings.HasPrefix(o, "unknown tool"):
		return PhaseInput
	}
	return PhaseExecution
}
