package auditlist

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

// Flags are the listing's command-line flags.
type Flags struct {
	// Session, Tool, Caller and Rule select records as audit.Filter's
	// fields of the same name.
	Session, Tool, Caller, Rule string
	// Actions is a comma-separated list of verdict actions
	// ("ask,deny").
	Actions string
	// Since and Until bound the decision time: a duration back from now
	// ("24h") or an RFC 3339 time.
	Since, Until string
	// Limit is how many of the newest records are listed (0: all).
	Limit int
	// JSON prints JSON Lines instead of one line per record.
	JSON bool
	// Probes lists the records of `toolwall doctor`'s probes too (see
	// audit.IsProbe), which are left out otherwise.
	Probes bool
	// Follow keeps listing new records, every 500 ms, until the context
	// ends.
	Follow bool
}

// Add defines the flags on fs.
func (f *Flags) Add(fs *pflag.FlagSet) {
	fs.StringVar(&f.Session, "session", "", "only this session")
	fs.StringVar(&f.Actions, "action", "", "only these actions (allow,warn,ask,deny)")
	fs.StringVar(&f.Rule, "rule", "", "only decisions with a finding of this rule id")
	fs.StringVar(&f.Tool, "tool", "", "only this tool")
	fs.StringVar(&f.Caller, "caller", "", "only this caller (sub-agent)")
	fs.StringVar(&f.Since, "since", "", "only decisions from then on (duration back from now, or RFC 3339)")
	fs.StringVar(&f.Until, "until", "", "only decisions before then")
	fs.IntVar(&f.Limit, "limit", 100, "at most this many (the newest); 0 for all")
	fs.BoolVar(&f.JSON, "json", false, "print records as JSON Lines")
	fs.BoolVar(&f.Probes, "probes", false, "list the canary calls toolwall doctor sent through the hooks too (driver doctor:HOST)")
	fs.BoolVarP(&f.Follow, "follow", "f", false, "keep printing new decisions (tail)")
}

// Filter returns the audit.Filter the flags select, or an error naming
// a value it cannot read.
func (f *Flags) Filter(now time.Time) (audit.Filter, error) {
	flt := audit.Filter{Session: f.Session, Rule: f.Rule, Tool: f.Tool, Caller: f.Caller, NoProbes: !f.Probes, Limit: f.Limit}
	var err error
	if flt.Since, err = when(f.Since, now); err != nil {
		return flt, err
	}
	if flt.Until, err = when(f.Until, now); err != nil {
		return flt, err
	}
	if f.Actions != "" {
		for _, s := range strings.Split(f.Actions, ",") {
			act, err := toolwall.ParseAction(s)
			if err != nil {
				return flt, err
			}
			flt.Actions = append(flt.Actions, act)
		}
	}
	return flt, nil
}

// when parses a --since/--until value.
func when(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		return now.Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, fmt.Errorf("%q is neither a duration (24h) nor an RFC 3339 time", s)
	}
	return t, nil
}

// List prints the records of a that the flags select to w, oldest
// first, and with Follow the new ones as they come until ctx ends.
func (f *Flags) List(ctx context.Context, w io.Writer, a audit.Store) error {
	flt, err := f.Filter(time.Now())
	if err != nil {
		return err
	}
	rs, err := a.Query(ctx, flt)
	if err != nil {
		return err
	}
	slices.Reverse(rs)
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.ID] = true
		if err := Print(w, r, f.JSON); err != nil {
			return err
		}
	}
	for f.Follow {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
		g := flt
		g.Limit = 0
		if len(rs) > 0 {
			g.Since = rs[len(rs)-1].At
		}
		more, err := a.Query(ctx, g)
		if err != nil {
			return err
		}
		slices.Reverse(more)
		for _, r := range more {
			if !seen[r.ID] {
				seen[r.ID] = true
				rs = append(rs, r)
				if err := Print(w, r, f.JSON); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Print prints one line for r (time, decision id, action, tool, session
// with caller and turn, what ran, rule ids, the call), or its JSON.
func Print(w io.Writer, r audit.Record, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	who := r.Session
	if r.Caller != "" {
		who += "/" + r.Caller
	}
	if r.Turn > 0 {
		who += fmt.Sprintf(" turn %d", r.Turn)
	}
	_, err := fmt.Fprintf(w, "%s  %s  %-5s  %-8s  %-12s  %-7s  %s  %s\n", r.At.Local().Format("2006-01-02 15:04:05"), r.ID, r.Verdict.Action,
		r.Tool, dash(who), Ran(r.Outcome), dash(strings.Join(r.Verdict.Rules(), ",")), toolwall.Call{Tool: r.Tool, Input: r.Input}.Summary())
	return err
}

// Ran says what happened when the call ran: "ok", "failed", "exit N",
// "refused" when toolwall stopped it at the execution boundary, or "-"
// when no outcome was reported.
func Ran(o *audit.Outcome) string {
	switch {
	case o == nil:
		return "-"
	case o.Refused:
		return "refused"
	case o.ExitCode != nil:
		return fmt.Sprintf("exit %d", *o.ExitCode)
	case o.Success:
		return "ok"
	}
	return "failed"
}

// dash is s, or "-" when empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Explain prints everything recorded about one decision, for people:
// `toolwall explain DECISION-ID`, from the local audit store or (through
// toolwall-net) a server fleet's in PostgreSQL.
func Explain(w io.Writer, r audit.Record) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	v := r.Verdict
	p("decision %s: %s (band %s, score %.2f)\n", r.ID, v.Action, v.Band, v.Score)
	p("when:     %s, decided in %s by %s\n", r.At.Local().Format(time.RFC3339), r.Elapsed, r.Driver)
	if len(v.Timings) > 0 {
		var ts []string
		for _, t := range v.Timings {
			ts = append(ts, t.Stage+" "+t.Elapsed.String())
		}
		p("timings:  %s\n", strings.Join(ts, ", "))
	}
	p("call:     %s   session %s  turn %d  caller %s  call id %s\n", r.Tool, dash(r.Session), r.Turn, dash(r.Caller), dash(r.CallID))
	if c := r.ClaimSource; c != nil {
		who := c.Caller
		if who == "" {
			who = "the primary agent"
		}
		p("claim:    %s called %s in turn %d (what the gate judged)\n", who, c.Tool, c.Turn)
	}
	if r.Cwd != "" {
		p("cwd:      %s\n", r.Cwd)
	}
	if len(r.Input) > 0 {
		var pretty bytes.Buffer
		if json.Indent(&pretty, r.Input, "          ", "  ") == nil {
			p("input:    %s\n", pretty.String())
		} else {
			p("input:    %s\n", r.Input)
		}
	}
	for _, n := range r.Redacted {
		p("hidden:   %s\n", n)
	}
	if v.Reason != "" {
		p("reason:   %s\n", v.Reason)
	}
	for _, f := range v.Findings {
		p("finding:  %s (%s, %s, score %.2f): %s\n", f.Rule, f.Analyzer, f.Action, f.Score, f.Reason)
	}
	for _, c := range v.Commands {
		p("command:  %s\n", c)
	}
	for _, e := range v.Effects {
		p("effect:   %s %s %s\n", e.Tag, e.Path, e.Detail)
	}
	for _, n := range v.Notes {
		p("note:     %s\n", n)
	}
	for _, o := range v.Opinions {
		p("model:    %s %s: %s (%s; %d in + %d out tokens, %v)", o.Analyzer, dash(o.Model), o.Label, o.Action, o.InputTokens, o.OutputTokens, o.Latency.Round(time.Millisecond))
		if o.Explanation != "" {
			p(" %s", o.Explanation)
		}
		if o.Error != "" {
			p(" [no opinion: %s]", o.Error)
		}
		p("\n")
	}
	switch o := r.Outcome; {
	case o == nil:
		p("outcome:  not reported (not run, or the driver does not report outcomes)\n")
	default:
		code := "-"
		if o.ExitCode != nil {
			code = fmt.Sprint(*o.ExitCode)
		}
		if o.Refused {
			p("outcome:  refused (it never ran)")
		} else {
			p("outcome:  success %v, exit code %s, truncated %v, ran %s", o.Success, code, o.Truncated, o.Duration)
		}
		if o.Error != "" {
			p(", error: %s", o.Error)
		}
		p("\n")
	}
	if v.Action == toolwall.Ask {
		p("approve:  a person can allow this same call again with `toolwall approve %s`\n", r.ID)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
