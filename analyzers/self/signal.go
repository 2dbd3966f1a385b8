package self

import (
	"regexp"
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
func signalled(c *shell.Command, all []*shell.Command, own []string) (string, bool) {
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
		if !dyn || !lookedUp(all, own) {
			return "", false
		}
	case "pkill":
		if c.Name == "pgrep" || c.Name == "skill" || c.Name == "snice" {
			return "", false
		}
		named := false
		for k := range v.Operands {
			named = named || matchesToolwall(v.Operand(k), c.Name != "killall" || v.Has("regexp"), v.Has("full"))
		}
		if !named {
			return "", false
		}
	default:
		return "", false
	}
	return signalOf(v), true
}

// lookedUp reports whether the line looks toolwall's pids up for a kill
// to use (in a substitution, or a variable set from one): pgrep or
// pidof of toolwall, or a read of one of toolwall's own files (the
// resident's pid file).
func lookedUp(all []*shell.Command, own []string) bool {
	for _, n := range all {
		if n.Via != "$()" {
			continue
		}
		switch {
		case n.Name == "pgrep" && n.Inv != nil:
			for k := range n.Inv.Operands {
				if matchesToolwall(n.Inv.Operand(k), true, n.Inv.Has("full")) {
					return true
				}
			}
		case n.Name == "pidof":
			for _, w := range tail(n) {
				if matchesToolwall(w, false, false) {
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

// commandLines are how toolwall's long-running processes appear to a
// process search with -f (full): their command lines.
var commandLines = []string{"toolwall resident", "toolwall-hook hook", "toolwall mcp-proxy", "toolwall serve"}

// matchesToolwall reports whether a process pattern selects toolwall's
// processes: it names toolwall, or as a regular expression (pkill,
// pgrep) it matches toolwall's name, or with full its command line
// (pkill -f resident).
func matchesToolwall(w shell.Word, regex, full bool) bool {
	if w.Dynamic || w.Value == "" {
		return false
	}
	if namesToolwall(w.Value) {
		return true
	}
	if !regex || len(w.Value) > 256 {
		return false
	}
	re, err := regexp.Compile(w.Value)
	if err != nil {
		return false
	}
	if re.MatchString("toolwall") || re.MatchString("toolwall-hook") {
		return true
	}
	if full {
		for _, l := range commandLines {
			if re.MatchString(l) {
				return true
			}
		}
	}
	return false
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
		case !o.Known && !o.Dynamic && o.Word < len(v.Args):
			s = v.Args[o.Word].Value // the whole word: -19 is one signal, not a bundle
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
