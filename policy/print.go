package policy

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/toolwall/toolwall"
)

// Describe writes the effective policy for people (`toolwall policy
// check`): the layers read, thresholds, disabled rules, the custom rules
// with where each is defined, the allowlist, approvals and audit.
func (c *Config) Describe(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	p("layers (lowest first):\n")
	if len(c.Layers) == 0 {
		p("  (none: the defaults)\n")
	}
	for _, l := range c.Layers {
		p("  %s\t%s\n", l.Kind, l.Path)
	}
	th := c.ThresholdsOr(toolwall.DefaultThresholds())
	p("thresholds:\twarn %v, block %v (critical 0.9 fixed)\n", th.Warn, th.Block)
	p("disabled rules:\t%s\n", orNone(strings.Join(c.Rules.Disable, ", ")))
	p("rules:\n")
	if len(c.Rule) == 0 {
		p("  (none)\n")
	}
	for _, r := range c.Rule {
		var pats []string
		for _, x := range r.Command {
			pats = append(pats, "command "+x)
		}
		for _, x := range r.Path {
			pats = append(pats, "path "+x)
		}
		for _, x := range r.URL {
			pats = append(pats, "url "+x)
		}
		scope := "every project"
		if r.Project != "" {
			scope = "project " + r.Project
		}
		p("  %s\t%s\ttool %s\t%s\t%s\t%s:%d\t(%d examples verified)\n", r.ID, r.Action, r.Tool, strings.Join(pats, "; "), scope, r.Source, r.Line, len(r.Match)+len(r.NotMatch))
	}
	p("allowlist:\n")
	if len(c.Allow) == 0 {
		p("  (none)\n")
	}
	for _, a := range c.Allow {
		what := "command " + a.Command
		if a.Rule != "" {
			what = "rule " + a.Rule + " on " + strings.Join(a.Path, ", ")
		}
		p("  project %s\t%s\t%s:%d\n", a.Project, what, a.Source, a.Line)
	}
	ttl := "the rest of the session"
	if c.Approvals.TTL.Duration > 0 {
		ttl = c.Approvals.TTL.String()
	}
	p("approvals last:\t%s\n", ttl)
	if c.Audit.On() {
		store := orNone(c.Audit.Store)
		if store == "(none)" {
			store = "sqlite"
		}
		p("audit:\t%s store, path %s, retention %s\n", store, orDefault(c.Audit.Path), orDefault(c.Audit.Retention.String()))
	} else {
		p("audit:\toff\n")
	}
	num := func(n int) string {
		if n == 0 {
			return "(default)"
		}
		return fmt.Sprint(n)
	}
	p("memory:\tturns %s, calls %s, retention %s, state %s\n", num(c.Memory.Turns), num(c.Memory.Calls), orDefault(c.Memory.Retention.String()), orDefault(c.Memory.State))
	if c.Trajectory.Enabled {
		decay := "1"
		if c.Trajectory.Decay != nil {
			decay = fmt.Sprint(*c.Trajectory.Decay)
		}
		p("trajectory:\ton, decay %s per turn, read-only tools Read, Grep, Glob, LS%s\n", decay, prefixed(", ", strings.Join(c.Trajectory.ReadOnly, ", ")))
	} else {
		p("trajectory:\toff\n")
	}
	if s := c.Search; s.Enabled {
		key := "(default)"
		if s.APIKeyEnv != "" {
			key = "$" + s.APIKeyEnv
		}
		results := "(default)"
		if s.MaxResults > 0 {
			results = fmt.Sprint(s.MaxResults)
		}
		p("search:\t%s, endpoint %s, key from %s, results %s, timeout %s\n", orDefault(s.Provider), orDefault(s.Endpoint), key, results, orDefault(s.Timeout.String()))
	} else {
		p("search:\toff\n")
	}
	if a := c.Adversarial; a.Enabled {
		o, m := c.AdversarialOptions(), c.AdversarialClient()
		window := 10
		if o.Window > 0 {
			window = o.Window
		}
		tools := "every tool"
		if len(a.Tools) > 0 {
			tools = strings.Join(a.Tools, ", ")
		}
		p("adversarial:\ton, model %s at %s, on_error %s, window %d, %s\n", m.Model, m.BaseURL, o.OnError, window, tools)
	} else {
		p("adversarial:\toff\n")
	}
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// prefixed is sep+s, or "" when s is empty.
func prefixed(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

func orDefault(s string) string {
	if s == "" || s == "0s" {
		return "(default)"
	}
	return s
}
