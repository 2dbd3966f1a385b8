package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/pipeline"
)

// Boundary is the re-check at the execution boundary (layer 2:
// the daemon runs the same check again after writing the audit record,
// because any client can reach it directly). Every leaf executor admits
// each call through it before doing anything.
//
// The zero value refuses every call: an executor without a gate is not
// an executor that runs everything.
type Boundary struct {
	// Gate judges the call; in practice the engine every driver uses
	// (engine.New). nil refuses every call.
	Gate toolwall.Shield
	// Context is the privilege the executor runs with: toolwall.UserContext
	// (the default) or toolwall.RootContext (only the catastrophic set
	// applies, the shell guardrail). It overrides the call's own Context: the
	// executor, not the caller, knows what it is.
	Context toolwall.ExecContext
	// Audit receives one record per call before it runs, and its outcome
	// after; nil writes nothing. When Record fails the call is refused: a
	// call that cannot be audited does not run.
	Audit audit.Sink
	// Driver names the executor in audit records ("executor:shell", ...).
	Driver string
	// Remember records executed calls in the gate's session memory
	// (Gate.RecordInvocation) so chain rules see them. Set it when the
	// executor is the only layer; leave it off when a pipeline shield
	// layer in front records the calls.
	Remember bool
	// Logger receives audit failures; nil means slog.Default().
	Logger *slog.Logger
}

// Admission is the boundary's answer for one call.
type Admission struct {
	// Call is the call as judged (Context set to the executor's).
	Call toolwall.Call
	// Verdict is the gate's verdict.
	Verdict toolwall.Verdict
	// AuditID is the id of the audit record written for the call ("" when
	// no sink is configured).
	AuditID string
	// Refusal, when non-nil, is the output to return instead of running:
	// a Deny, an Ask without approval, or an audit failure.
	Refusal *Output

	started time.Time
}

// Admit judges call for req and writes the audit record. The record is
// durable (the sink returned nil) before Admit returns an admission
// without Refusal.
func (b *Boundary) Admit(ctx context.Context, req *Request, call toolwall.Call) *Admission {
	if b.Context != "" {
		call.Context = b.Context
	}
	if call.Context == "" {
		call.Context = toolwall.UserContext
	}
	a := &Admission{Call: call, started: time.Now()}
	a.Verdict = b.evaluate(ctx, call)
	if b.Audit != nil {
		a.AuditID = audit.NewID()
		rec := audit.Record{
			ID: a.AuditID, At: a.started, Driver: b.Driver, Session: call.Session, Turn: call.Turn,
			Caller: call.Caller, Tool: call.Tool, Input: json.RawMessage(call.Input), Verdict: a.Verdict,
			Elapsed: time.Since(a.started),
		}
		if err := b.Audit.Record(ctx, rec); err != nil {
			b.logger().Error("toolwall: audit record not written; call refused", "tool", call.Tool, "err", err)
			a.Verdict = toolwall.Refusal("executor", toolwall.RuleInternal, fmt.Sprintf(
				"the %s call was refused: its audit record could not be written (%v), and a call that cannot be audited does not run. Tell the user; retry once the audit log is writable.", call.Tool, err))
			a.AuditID = ""
		}
	}
	switch {
	case a.Verdict.Action == toolwall.Deny:
		a.Refusal = &Output{Tool: call.Tool, IsError: true, Verdict: &a.Verdict, AuditID: a.AuditID,
			Text: "refused by toolwall" + rulesOf(a.Verdict) + ": " + reasonOf(a.Verdict)}
	case a.Verdict.Action == toolwall.Ask && !req.Approved:
		a.Refusal = &Output{Tool: call.Tool, IsError: true, Verdict: &a.Verdict, AuditID: a.AuditID,
			Confirm: &pipeline.Confirmation{Reason: reasonOf(a.Verdict), Verdict: a.Verdict},
			Text:    "confirmation required by toolwall" + rulesOf(a.Verdict) + ": " + reasonOf(a.Verdict)}
	}
	if a.Refusal != nil && a.AuditID != "" {
		b.outcome(ctx, a.AuditID, audit.Outcome{Success: false, Error: a.Refusal.Text, Refused: true})
	}
	return a
}

// Refuse records a call the executor refuses on its own, before the gate
// could judge it (input it cannot read, a path outside its roots), with
// verdict v, and returns the refusal output. The audit record is written
// like any other; a refusal runs nothing, so an audit failure is only
// logged.
func (b *Boundary) Refuse(ctx context.Context, call toolwall.Call, v toolwall.Verdict) *Output {
	out := &Output{Tool: call.Tool, IsError: true, Verdict: &v,
		Text: "refused by toolwall" + rulesOf(v) + ": " + reasonOf(v)}
	if b.Audit != nil {
		out.AuditID = audit.NewID()
		rec := audit.Record{ID: out.AuditID, At: time.Now(), Driver: b.Driver, Session: call.Session, Turn: call.Turn,
			Caller: call.Caller, Tool: call.Tool, Input: json.RawMessage(call.Input), Verdict: v}
		if err := b.Audit.Record(ctx, rec); err != nil {
			b.logger().Error("toolwall: audit record of a refusal not written", "tool", call.Tool, "err", err)
			out.AuditID = ""
		} else {
			b.outcome(ctx, out.AuditID, audit.Outcome{Success: false, Error: out.Text, Refused: true})
		}
	}
	return out
}

// Confirmation answers Executor.Confirmation for call: the gate's Ask
// as a confirmation request, nil for every other verdict (a Deny is
// refused whatever a human says; Allow and Warn run).
func (b *Boundary) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	if b.Context != "" {
		call.Context = b.Context
	}
	v := b.evaluate(ctx, call)
	if v.Action != toolwall.Ask {
		return nil
	}
	return &pipeline.Confirmation{Reason: reasonOf(v), Verdict: v}
}

// Done attaches the outcome of an admitted call to its audit record and,
// with Remember, records the call in the gate's session memory.
func (b *Boundary) Done(ctx context.Context, a *Admission, o audit.Outcome) {
	if o.Duration == 0 {
		o.Duration = time.Since(a.started)
	}
	if a.AuditID != "" {
		b.outcome(ctx, a.AuditID, o)
	}
	if b.Remember && b.Gate != nil {
		b.Gate.RecordInvocation(ctx, a.Call, o.Success)
	}
}

func (b *Boundary) outcome(ctx context.Context, id string, o audit.Outcome) {
	if err := b.Audit.Outcome(context.WithoutCancel(ctx), id, o); err != nil {
		b.logger().Error("toolwall: audit outcome not written", "id", id, "err", err)
	}
}

// evaluate asks the gate, failing closed on a missing gate or a panic.
func (b *Boundary) evaluate(ctx context.Context, call toolwall.Call) (v toolwall.Verdict) {
	if b.Gate == nil {
		return toolwall.Refusal("executor", toolwall.RuleConfig, fmt.Sprintf(
			"the %s call was refused: this executor has no gate configured, and an executor runs nothing unchecked. Tell the user to configure the executor with toolwall's engine.", call.Tool))
	}
	defer func() {
		if r := recover(); r != nil {
			v = toolwall.Refusal("executor", toolwall.RuleInternal, fmt.Sprintf(
				"the %s call was refused: the gate failed (%v), and a call that cannot be judged is not run. Retry, or tell the user.", call.Tool, r))
		}
	}()
	return b.Gate.Evaluate(ctx, call)
}

func (b *Boundary) logger() *slog.Logger {
	if b.Logger != nil {
		return b.Logger
	}
	return slog.Default()
}

// rulesOf is " [rule, rule]" or "".
func rulesOf(v toolwall.Verdict) string {
	r := v.Rules()
	if len(r) == 0 {
		return ""
	}
	s := " ["
	for i, id := range r {
		if i > 0 {
			s += ", "
		}
		s += id
	}
	return s + "]"
}

// reasonOf is the verdict's reason, or one naming the band.
func reasonOf(v toolwall.Verdict) string {
	if v.Reason != "" {
		return v.Reason
	}
	return fmt.Sprintf("risk %.2f is in the %s band", v.Score, v.Band)
}
