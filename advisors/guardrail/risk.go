package guardrail

import (
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
)

// Risk is a guardrail label (the LLM security analyzer's SecurityRisk). Concrete risks
// are ordered Low < Medium < High; Unknown, the zero value, is no label at
// all: no parseable label, conflicting labels, or no answer.
type Risk uint8

// Risks.
const (
	Unknown Risk = iota
	Low
	Medium
	High
)

// String returns "UNKNOWN", "LOW", "MEDIUM" or "HIGH".
func (r Risk) String() string {
	switch r {
	case Low:
		return "LOW"
	case Medium:
		return "MEDIUM"
	case High:
		return "HIGH"
	}
	return "UNKNOWN"
}

// ParseRisk parses a concrete risk, LOW, MEDIUM or HIGH, in any case.
// UNKNOWN and anything else are errors: UNKNOWN is not a label a model may
// give nor a valid threshold.
func ParseRisk(s string) (Risk, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "LOW":
		return Low, nil
	case "MEDIUM":
		return Medium, nil
	case "HIGH":
		return High, nil
	}
	return Unknown, fmt.Errorf("guardrail: %q is not a risk (want LOW, MEDIUM or HIGH)", s)
}

// Combine fuses an ensemble's labels: the highest concrete
// risk; Unknown only when every member is Unknown (so one silent member
// cannot drown out the others' labels, nor make the ensemble pause by
// itself).
func Combine(risks ...Risk) Risk {
	out := Unknown
	for _, r := range risks {
		out = max(out, r)
	}
	return out
}

// Policy is the LLM security analyzer's ConfirmRisky: how a label becomes an action. The
// zero value is the default: pause (ask) at HIGH, and ask on UNKNOWN.
type Policy struct {
	// Threshold is the least risk that pauses the call: Low, Medium or
	// High (Unknown, the zero value, means High).
	Threshold Risk
	// IgnoreUnknown lets an UNKNOWN label through with a logged warning
	// instead of asking (configuration: confirm_unknown = false).
	IgnoreUnknown bool
	// Action is what a label at or above the threshold does: Ask or
	// Deny (Allow, the zero value, means Ask).
	Action toolwall.Action
}

func (p Policy) threshold() Risk {
	if p.Threshold == Unknown {
		return High
	}
	return p.Threshold
}

// Stop is the action a label at or above the threshold imposes: Ask or
// Deny.
func (p Policy) Stop() toolwall.Action {
	if p.Action == toolwall.Deny {
		return toolwall.Deny
	}
	return toolwall.Ask
}

// Map returns the action for a label: at or above the threshold Stop();
// a MEDIUM below it warns; LOW below it allows; UNKNOWN asks, or allows
// when IgnoreUnknown.
func (p Policy) Map(r Risk) toolwall.Action {
	switch {
	case r == Unknown && p.IgnoreUnknown:
		return toolwall.Allow
	case r == Unknown:
		return toolwall.Ask
	case r >= p.threshold():
		return p.Stop()
	case r == Medium:
		return toolwall.Warn
	}
	return toolwall.Allow
}
