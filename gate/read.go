package gate

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// ReadCall reads a shell call the way the gate reads it before the
// analyzers run, for a person to see (toolwall explain): how names the
// reader ("bash" for a Bash call, "PowerShell" for a PowerShell call; ""
// for a call of a tool that is not read, with a nil script), and err says why it could not be read. A
// command that does not parse comes back with whatever still parses of
// it, as the gate judges it.
func ReadCall(call toolwall.Call) (s *shell.Script, how string, err error) {
	call = Normalize(call)
	g := New(Options{})
	how = "bash"
	switch call.Tool {
	case toolwall.ToolPowerShell:
		how = "PowerShell"
	case toolwall.ToolBash:
	default:
		return nil, "", nil
	}
	script, f := g.readCommand(call)
	if f != nil {
		return script, how, errFinding(*f)
	}
	return script, how, nil
}

// errFinding is a finding of the reader as an error.
type errFinding toolwall.Finding

// Error is the rule id and the reason.
func (e errFinding) Error() string { return e.Rule + ": " + e.Reason }
