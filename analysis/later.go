package analysis

import (
	"context"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// Later is an analyzer of the gate's later stage (deterministic
// first, model second; slow stages are first-class): one
// that may call out — a model, a service — and so may take time, fail or
// be cancelled. The gate runs it after the deterministic analyzers, only
// where it can still change the outcome (see Below), concurrently with the
// other later analyzers, within the stage's own budget (gate.LaterStage).
//
// Failure is never read as safe: when Run returns an error, runs past the
// budget, or cannot start for lack of time, the gate puts a note on the
// verdict, logs it, and imposes OnError. When the caller's context is
// cancelled while the stage runs, the call is refused (gate.cancelled).
type Later struct {
	// Name is short and stable; it stamps findings and opinions
	// ("guardrail", "advisor").
	Name string
	// Title names the analyzer in notes on the verdict ("LLM guardrail",
	// "advisor").
	Title string
	// Doc says what the analyzer asks, one paragraph.
	Doc string
	// Tools are the tool names it looks at; nil means every tool.
	Tools []string
	// Below limits the stage to where it can still change the outcome:
	// the gate runs the analyzer only when the deterministic action is
	// below Below (Deny: skipped when the rules already deny; Ask: only on
	// calls the rules allowed or warned about). Allow, the zero value,
	// means always. A skip is noted on the verdict.
	Below toolwall.Action
	// OnError is the action floor imposed when the analyzer has no
	// opinion (an error, the budget spent, no time to start): Allow fails
	// open — visibly, through the note and the log — and Ask or Deny fail
	// closed.
	OnError toolwall.Action
	// Run analyzes in within ctx, which carries the stage's deadline, and
	// adds findings and opinions to r. It returns an error when it has no
	// usable opinion; what it added to r is kept either way. It must
	// return soon after ctx is done and must not retain in or r.
	Run func(ctx context.Context, in *LaterInput, r *LaterReport) error
	// Observe, when set, is told of every executed call the gate records
	// (after it ran, with whether it succeeded), for an analyzer that keeps
	// its own history. Errors are the analyzer's to log; it must not block
	// for long.
	Observe func(ctx context.Context, call toolwall.Call, success bool)
}

// LaterInput is what a later-stage analyzer sees of one call.
type LaterInput struct {
	// Call is the proposed tool call, normalized as the gate reads it.
	Call toolwall.Call
	// Script is the shell reading of a Bash call (nil otherwise, and when
	// the command did not parse).
	Script *shell.Script
	// Verdict is the deterministic stage's verdict on the call.
	Verdict toolwall.Verdict
}

// LaterReport collects what one later-stage analyzer found.
type LaterReport struct {
	// Findings in the order they were added.
	Findings []toolwall.Finding
	// Opinions in the order they were added.
	Opinions []toolwall.Opinion

	analyzer string
}

// NewLaterReport returns an empty report that stamps name on what is
// added without an analyzer name.
func NewLaterReport(name string) *LaterReport { return &LaterReport{analyzer: name} }

// Add appends a finding, stamping the analyzer's name when it has none.
func (r *LaterReport) Add(f toolwall.Finding) {
	if f.Analyzer == "" {
		f.Analyzer = r.analyzer
	}
	r.Findings = append(r.Findings, f)
}

// Opine appends an opinion, stamping the analyzer's name when it has
// none.
func (r *LaterReport) Opine(o toolwall.Opinion) {
	if o.Analyzer == "" {
		o.Analyzer = r.analyzer
	}
	r.Opinions = append(r.Opinions, o)
}
