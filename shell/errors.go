package shell

import (
	"fmt"
	"strings"
)

// SyntaxError is returned when the command does not parse. The gate asks a
// human: what cannot be read cannot be judged safe.
type SyntaxError struct {
	// Depth is 0 for the top-level command, more inside sh -c / eval bodies.
	Depth int
	Err   error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("shell: command does not parse (depth %d): %v", e.Depth, e.Err)
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// LimitError is returned when input exceeds a bound of Options (size,
// nesting depth, command count, syntax nodes). The gate denies: the input
// is not something an agent needs to run.
type LimitError struct {
	// Limit names the bound: "bytes", "depth", "commands", "nodes" or
	// "code writes" (MaxCodeWrites).
	Limit string
	// Max is the bound that was exceeded.
	Max int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("shell: command exceeds the %s limit of %d", e.Limit, e.Max)
}

// UnclosedHeredoc returns the delimiter of a heredoc the parser reached
// the end of input in: bash then takes the rest of the input as its body.
func UnclosedHeredoc(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	msg := err.Error()
	i := strings.Index(msg, "unclosed here-document `")
	if i < 0 {
		return "", false
	}
	rest := msg[i+len("unclosed here-document `"):]
	j := strings.IndexByte(rest, '`')
	if j <= 0 {
		return "", false
	}
	return rest[:j], true
}
