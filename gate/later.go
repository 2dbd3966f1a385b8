package gate

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// LaterStage configures the gate's later stage: analyzers that may call
// out (a model, a service), run after the deterministic stage within a
// budget of their own (slow stages are first-class). The
// zero value has no later stage, and the gate's path is then what it is
// without one.
type LaterStage struct {
	// Analyzers run concurrently on every call whose tool they list and
	// whose deterministic action is below their Below.
	Analyzers []*analysis.Later
	// Budget bounds the whole stage (0: DefaultLaterBudget). Inside a
	// caller's deadline the stage also ends LaterReserve before it, so the
	// driver still has time to answer with the stage's outcome (the
	// Claude Code hook answers within 4 s: the stage then has at most
	// 3.75 s, and 3 s by default).
	Budget time.Duration
}

// Later-stage timing.
const (
	// DefaultLaterBudget is the later stage's default budget (3 s).
	DefaultLaterBudget = 3 * time.Second
	// LaterReserve is the time the stage leaves before the caller's
	// deadline (250 ms).
	LaterReserve = 250 * time.Millisecond
	// MinLater is the least time worth starting the stage with (50 ms);
	// with less, each analyzer that would run is skipped and its OnError
	// applies.
	MinLater = 50 * time.Millisecond
	// laterGrace is how long the gate waits past the budget for an
	// analyzer to report its own timeout before it records one itself.
	laterGrace = 50 * time.Millisecond
)

// laterResult is what one later analyzer left.
type laterResult struct {
	i   int
	rep *analysis.LaterReport
	err error
}

// second runs the later stage on a call the deterministic stage decided
// as v (from findings), and returns the verdict with what it added:
// findings (fused again), opinions and notes. Without later analyzers it
// returns v and notes unchanged.
func (g *Gate) second(ctx context.Context, call toolwall.Call, script *shell.Script, findings []toolwall.Finding, effects []toolwall.Effect, v toolwall.Verdict, notes []string) (toolwall.Verdict, []string) {
	if len(g.later.Analyzers) == 0 {
		return v, notes
	}
	var run []*analysis.Later
	for _, a := range g.later.Analyzers {
		switch {
		case a.Tools != nil && !slices.Contains(a.Tools, call.Tool):
		case a.Below != toolwall.Allow && v.Action >= a.Below:
			notes = append(notes, fmt.Sprintf("%s skipped: the rules already %s this call", a.Title, already(v.Action)))
		default:
			run = append(run, a)
		}
	}
	if len(run) == 0 {
		return v, notes
	}
	budget := g.later.Budget
	if budget <= 0 {
		budget = DefaultLaterBudget
	}
	deadline := time.Now().Add(budget)
	if d, ok := ctx.Deadline(); ok && d.Add(-LaterReserve).Before(deadline) {
		deadline = d.Add(-LaterReserve)
	}
	var more []toolwall.Finding
	var opinions []toolwall.Opinion
	fail := func(a *analysis.Later, err error) {
		noun := "call"
		if slices.Equal(a.Tools, []string{toolwall.ToolBash}) {
			noun = "command"
		}
		note := fmt.Sprintf("%s unavailable: %v", a.Title, err)
		if a.OnError == toolwall.Allow {
			note = fmt.Sprintf("%s check failed, %s allowed: %v", a.Title, noun, err)
		}
		notes = append(notes, note)
		g.log.Warn("toolwall: later-stage analyzer has no opinion", "analyzer", a.Name, "tool", call.Tool, "session", call.Session, "action", a.OnError.String(), "err", err)
		if a.OnError > toolwall.Allow {
			more = append(more, toolwall.Finding{
				Analyzer: a.Name, Rule: a.Name + ".unavailable", Category: "second-opinion",
				Action: a.OnError,
				Reason: fmt.Sprintf("The %s, which must look at this %s before it runs, gave no opinion (%v), and without one the %s is not taken as safe. Retry, or ask the user to check toolwall's model configuration.", a.Title, noun, err, noun),
			})
		}
	}
	if time.Until(deadline) < MinLater {
		for _, a := range run {
			fail(a, fmt.Errorf("skipped: no time left within the call's deadline"))
		}
	} else {
		sctx, cancel := context.WithDeadline(ctx, deadline)
		defer cancel()
		in := &analysis.LaterInput{Call: call, Script: script, Verdict: v}
		results := make(chan laterResult, len(run))
		for i, a := range run {
			go g.runLater(sctx, i, a, in, results)
		}
		got := make([]*laterResult, len(run))
		timer := time.NewTimer(time.Until(deadline) + laterGrace)
		defer timer.Stop()
	collect:
		for n := 0; n < len(run); n++ {
			select {
			case r := <-results:
				got[r.i] = &r
			case <-timer.C:
				break collect
			}
		}
		for i, a := range run {
			r := got[i]
			if r == nil {
				fail(a, fmt.Errorf("no answer within %v", budget.Round(time.Millisecond)))
				continue
			}
			more = append(more, r.rep.Findings...)
			opinions = append(opinions, r.rep.Opinions...)
			if r.err != nil {
				fail(a, r.err)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		// The caller gave up while a model was judging: the call does not
		// run ("a cancelled check refuses").
		more = append(more, cancelled())
	}
	if len(more) > 0 {
		v = g.fuse(append(slices.Clip(findings), more...), effects, script)
	}
	v.Opinions = opinions
	return v, notes
}

// runLater runs one later analyzer and sends what it left; a panic is an
// internal error that refuses the call (fail closed).
func (g *Gate) runLater(ctx context.Context, i int, a *analysis.Later, in *analysis.LaterInput, out chan<- laterResult) {
	rep := analysis.NewLaterReport(a.Name)
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: later-stage analyzer panicked", "analyzer", a.Name, "tool", in.Call.Tool, "panic", r)
			rep.Add(internalFinding(fmt.Sprintf("analyzer %s: %v", a.Name, r)))
			out <- laterResult{i: i, rep: rep}
		}
	}()
	err := a.Run(ctx, in, rep)
	out <- laterResult{i: i, rep: rep, err: err}
}

// observe tells the later analyzers that keep a history (Observe) of an
// executed call; RecordInvocation calls it for every call, with or
// without a store or risk tags. A panic is logged, never raised.
func (g *Gate) observe(ctx context.Context, call toolwall.Call, success bool) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: panic while a later-stage analyzer observed a call", "tool", call.Tool, "panic", r)
		}
	}()
	for _, a := range g.later.Analyzers {
		if a.Observe != nil && (a.Tools == nil || slices.Contains(a.Tools, call.Tool)) {
			a.Observe(ctx, Normalize(call), success)
		}
	}
}

// already words what the rules did for a skip note.
func already(a toolwall.Action) string {
	switch a {
	case toolwall.Deny:
		return "deny"
	case toolwall.Ask:
		return "ask a human about"
	}
	return a.String() + " about"
}
