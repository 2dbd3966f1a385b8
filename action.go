package toolwall

import (
	"fmt"
	"strings"
)

// Action is what happens to a tool call. The zero value is Allow. Actions
// are ordered by severity: Allow < Warn < Ask < Deny, so the stricter of two
// actions is their maximum.
type Action uint8

// The four actions, in order of severity.
const (
	// Allow runs the call.
	Allow Action = iota
	// Warn runs the call and logs why it was risky.
	Warn
	// Ask pauses the call for a human to decide.
	Ask
	// Deny refuses the call with a reason written for the model.
	Deny
)

var actionNames = [...]string{"allow", "warn", "ask", "deny"}

// String returns the lower-case name: "allow", "warn", "ask" or "deny".
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", a)
}

// MarshalText encodes the action as its name.
func (a Action) MarshalText() ([]byte, error) {
	if int(a) >= len(actionNames) {
		return nil, fmt.Errorf("toolwall: invalid action %d", a)
	}
	return []byte(a.String()), nil
}

// UnmarshalText decodes a name accepted by [ParseAction].
func (a *Action) UnmarshalText(b []byte) error {
	v, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// ParseAction parses "allow", "warn", "ask" or "deny" (case-insensitive).
// "block" is accepted as a synonym of "deny" (the tool shield's word). Any other
// string is an error.
func ParseAction(s string) (Action, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "allow":
		return Allow, nil
	case "warn":
		return Warn, nil
	case "ask":
		return Ask, nil
	case "deny", "block":
		return Deny, nil
	}
	return Allow, fmt.Errorf("toolwall: unknown action %q (want allow, warn, ask or deny)", s)
}

// Stricter returns the more severe of a and b.
func Stricter(a, b Action) Action {
	if b > a {
		return b
	}
	return a
}

// Stops reports whether the action keeps the call from running without a
// human: Ask or Deny.
func (a Action) Stops() bool { return a >= Ask }
