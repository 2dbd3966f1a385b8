package self

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// RuleProcess (deny or ask): a call would signal toolwall's own running
// processes (the resident that answers the hosts' hook calls, a running
// check, the MCP proxy).
const RuleProcess = "self.process"

// freezes are the signals that stop a process without ending it, by
// name and by number (Linux): a stopped resident takes every hook call
// and never answers, and a host lets a call through when its hook times
// out.
var freezes = map[string]bool{"STOP": true, "TSTP": true, "TTIN": true, "TTOU": true, "19": true, "20": true, "21": true, "22": true}

// signalled reports whether c signals one of toolwall's processes and
// the signal it sends ("TERM" when none is named): pkill or killall with
// a pattern naming toolwall, or kill of pids a substitution of the same
// line looks up (pgrep or pidof of toolwall, a read of one of toolwall's
// own files, such as the resident's pid file).
func signalled(c *shell.Command, after []*shell.Command, own []string) (string, bool) {
	v := c.Inv
	if v == nil || v.Program() == nil || c.Remote {
		return "", false
	}
	switch v.Program().Root().Name {
	case "kill":
		dyn := false
		for _, w := range tail(c) {
			dyn = dyn || w.Dynamic
		}
		if !dyn || !lookedUp(after, own) {
			return "", false
		}
	case "pkill":
		if c.Name == "pgrep" || c.Name == "skill" || c.Name == "snice" {
			return "", false
		}
		named := false
		for k := range v.Operands {
			named = named || namesToolwall(v.Operand(k))
		}
		if !named {
			return "", false
		}
	default:
		return "", false
	}
	return signalOf(v), true
}

// lookedUp reports whether the substitutions that follow a kill (the
// commands reached through "$()" right after it) find toolwall's pids.
func lookedUp(after []*shell.Command, own []string) bool {
	for _, n := range after {
		if n.Via != "$()" {
			return false
		}
		if n.Name == "pgrep" || n.Name == "pidof" {
			for _, w := range tail(n) {
				if namesToolwall(w) {
					return true
				}
			}
		}
		for _, e := range n.Effects {
			if e.Kind == shell.Reads && e.Path != "" {
				if _, ok := (target{path: e.Path}).touches(own); ok {
					return true
				}
			}
		}
	}
	return false
}

// namesToolwall reports whether a process pattern names toolwall.
func namesToolwall(w shell.Word) bool {
	return !w.Dynamic && strings.Contains(strings.ToLower(w.Value), "toolwall")
}

// signalOf is the signal a kill, pkill or killall sends, upper case
// without "SIG" ("TERM" when none is named).
func signalOf(v *shell.Invocation) string {
	for _, o := range v.Opts {
		s := ""
		switch {
		case o.Name == "signal-name":
			s = o.Spelling
		case o.Name == "s" || o.Name == "n" || o.Name == "signal":
			s = v.Value(o).Value
		case !o.Known && !o.Dynamic:
			s = o.Name
		default:
			continue
		}
		s = strings.TrimPrefix(strings.ToUpper(strings.TrimLeft(s, "-")), "SIG")
		if s != "" {
			return s
		}
	}
	return "TERM"
}

// reportSignal reports a signal to toolwall's processes: a freeze is
// refused, anything else asked about.
func reportSignal(r *analysis.Report, what string, sig string) {
	switch sig {
	case "0", "CONT", "18":
		return // kill -0 only checks that the process exists; CONT resumes it
	}
	if freezes[sig] {
		r.Add(toolwall.Finding{Rule: RuleProcess, Category: "self", Score: 0.95, Action: toolwall.Deny,
			Reason: what + " was refused: it stops (SIG" + strings.TrimPrefix(sig, "SIG") + ") toolwall's own process; a stopped resident holds every hook call unanswered until the host gives up and runs the call unchecked. Leave toolwall's processes alone; ask the user if it is in the way."})
		return
	}
	r.Add(toolwall.Finding{Rule: RuleProcess, Category: "self", Score: 0.6, Action: toolwall.Ask,
		Reason: what + " needs confirmation: it signals toolwall's own process (the resident that answers the hosts' hook calls, a check or the MCP proxy). A killed resident is started again on the next call, but killing the gate is the user's decision. Ask the user to confirm it."})
}
