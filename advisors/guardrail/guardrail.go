package guardrail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/session"
)

// DefaultWindow is how many recent executed calls of the session the
// guardrail shows its model (20).
const DefaultWindow = 20

// Options configure a Guardrail.
type Options struct {
	// Members are the models asked; more than one is an ensemble (seed
	// 001): the highest concrete risk wins. At least one.
	Members []llm.Client
	// Policy maps the label to an action (zero value: ask at HIGH and on
	// UNKNOWN).
	Policy Policy
	// Window is how many recent executed calls are shown (0: DefaultWindow;
	// negative is an error).
	Window int
	// Experiences are the safety experiences, loaded once, on the first
	// classification.
	Experiences Experiences
	// Store keeps the history per session, so the hook, one process per
	// call, keeps it across processes; nil keeps none (every action is
	// judged alone).
	Store session.Store
	// Tools limits the guardrail to these tools; nil means every tool.
	Tools []string
	// Logger receives failures and warnings; nil means slog.Default().
	Logger *slog.Logger
}

// Guardrail is the LLM security analyzer's guardrail LLM: a separate model, not the agent
// that proposes the call, labels each tool call LOW, MEDIUM or HIGH with
// the session's recent history and optional safety experiences in view.
// It is safe for concurrent use.
type Guardrail struct {
	opts Options
	log  *slog.Logger

	once   sync.Once
	exp    string
	expErr error
}

// New returns a guardrail for opts. Errors: no members, a negative
// window, a threshold that is not a concrete risk.
func New(opts Options) (*Guardrail, error) {
	if len(opts.Members) == 0 {
		return nil, errors.New("guardrail: no model to ask")
	}
	if opts.Window < 0 {
		return nil, fmt.Errorf("guardrail: window %d must be at least 1", opts.Window)
	}
	if opts.Window == 0 {
		opts.Window = DefaultWindow
	}
	g := &Guardrail{opts: opts, log: opts.Logger}
	if g.log == nil {
		g.log = slog.Default()
	}
	return g, nil
}

// Member is one ensemble member's answer.
type Member struct {
	Reply
	// Model is the model that answered (the configured one when it did
	// not).
	Model string
	// Usage and Latency are what the call cost.
	Usage   llm.Usage
	Latency time.Duration
	// Err is the client's failure; Reply is then Unknown.
	Err error
}

// Result is the guardrail's answer on one action.
type Result struct {
	// Risk is the members' labels combined (Combine).
	Risk Risk
	// Explanation is the explanation of a member that gave Risk.
	Explanation string
	// Members are the answers, in Options.Members order.
	Members []Member
}

// Failed reports whether no member answered at all (every one failed):
// the guardrail is then unavailable rather than undecided.
func (r Result) Failed() bool {
	for _, m := range r.Members {
		if m.Err == nil {
			return false
		}
	}
	return true
}

// Err joins the members' failures on one line ("; "); nil when none
// failed. errors.Is and errors.As see each of them.
func (r Result) Err() error {
	var errs joined
	for _, m := range r.Members {
		if m.Err != nil {
			errs = append(errs, m.Err)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// joined is errors.Join on one line, for notes.
type joined []error

func (j joined) Error() string {
	msgs := make([]string, len(j))
	for i, e := range j {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

func (j joined) Unwrap() []error { return j }

// Classify asks every member, concurrently, about current with history
// (oldest first, at most Window of it is shown). A client error or
// timeout makes that member Unknown, logged.
func (g *Guardrail) Classify(ctx context.Context, history []Action, current Action) (Result, error) {
	exp, err := g.experiences(ctx)
	if err != nil {
		return Result{}, err
	}
	if len(history) > g.opts.Window {
		history = history[len(history)-g.opts.Window:]
	}
	req := llm.Request{System: System(exp), Messages: []llm.Message{{Role: llm.User, Content: User(history, current)}}}
	res := Result{Members: make([]Member, len(g.opts.Members))}
	var wg sync.WaitGroup
	for i, c := range g.opts.Members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := Member{Model: c.Model()}
			resp, err := c.Complete(ctx, req)
			switch {
			case err != nil:
				m.Err = err
				m.Problem = "no answer"
				g.log.Warn("toolwall: guardrail model failed; its label is UNKNOWN", "model", c.Model(), "tool", current.Tool, "err", err)
			default:
				m.Reply = Parse(resp.Text)
				m.Model, m.Usage, m.Latency = resp.Model, resp.Usage, resp.Latency
			}
			res.Members[i] = m
		}()
	}
	wg.Wait()
	risks := make([]Risk, len(res.Members))
	for i, m := range res.Members {
		risks[i] = m.Risk
	}
	res.Risk = Combine(risks...)
	for _, m := range res.Members {
		if m.Risk == res.Risk {
			res.Explanation = m.Explanation
			break
		}
	}
	return res, nil
}

// experiences loads the configured experiences once.
func (g *Guardrail) experiences(ctx context.Context) (string, error) {
	g.once.Do(func() { g.exp, g.expErr = g.opts.Experiences.Load(ctx, g.log) })
	return g.exp, g.expErr
}

// historyID is the store's session id for a session's guardrail history:
// its own namespace, so the chain rules' window never sees these records
// (and a burst of harmless calls cannot push a chain's first link out).
func historyID(sessionID string) string { return "guardrail/" + sessionID }

// Record adds an executed call to its session's history (the gate's
// Observe hook). Calls without a session, and every call without a store,
// are not kept. Failures are logged.
func (g *Guardrail) Record(ctx context.Context, call toolwall.Call, success bool) {
	if g.opts.Store == nil || call.Session == "" {
		return
	}
	desc, _ := call.Field("description")
	err := g.opts.Store.Append(ctx, historyID(call.Session), session.Record{
		Tool: call.Tool, Summary: desc, Input: call.Input, Success: success,
	})
	if err != nil {
		g.log.Warn("toolwall: cannot record the guardrail's history", "session", call.Session, "err", err)
	}
}

// History returns the session's recent executed calls as actions, oldest
// first, at most Window of them (none without a store or session).
func (g *Guardrail) History(ctx context.Context, sessionID string) ([]Action, error) {
	if g.opts.Store == nil || sessionID == "" {
		return nil, nil
	}
	recs, err := g.opts.Store.History(ctx, historyID(sessionID), session.Window{Calls: g.opts.Window, Turns: math.MaxInt32})
	if err != nil {
		return nil, err
	}
	out := make([]Action, len(recs))
	for i, r := range recs {
		out[i] = Action{Tool: r.Tool, Summary: r.Summary, Arguments: r.Input, Failed: !r.Success}
	}
	return out, nil
}

// ActionOf is how the gate shows a call: its tool, its "description"
// input field as the summary (Claude Code's Bash and Task tools carry
// one), its input as the arguments. The hook knows no thought.
func ActionOf(call toolwall.Call) Action {
	desc, _ := call.Field("description")
	return Action{Tool: call.Tool, Summary: desc, Arguments: call.Input}
}

// Analyzer returns the guardrail as an analyzer of the gate's later
// stage. It runs only where it can still change the outcome: below the
// policy's stop action (so never when the rules already deny). A label
// becomes a finding by the policy: LOW nothing; MEDIUM below the
// threshold warns (guardrail.risk-medium); at or above the threshold the
// stop action (guardrail.risk-low|medium|high); UNKNOWN asks
// (guardrail.unknown) unless IgnoreUnknown, which allows with a logged
// warning. When no member answers it returns an error: the gate notes
// "LLM guardrail unavailable: …" and asks (or, with IgnoreUnknown,
// allows). Every answer is an opinion on the verdict. Observe keeps the
// history.
func (g *Guardrail) Analyzer() *analysis.Later {
	onError := toolwall.Ask
	if g.opts.Policy.IgnoreUnknown {
		onError = toolwall.Allow
	}
	a := &analysis.Later{
		Name:    "guardrail",
		Title:   "LLM guardrail",
		Doc:     "Asks a separate model (the LLM security analyzer) to label the call LOW, MEDIUM or HIGH risk with the session's recent calls and the configured safety experiences in view.",
		Tools:   g.opts.Tools,
		Below:   g.opts.Policy.Stop(),
		OnError: onError,
		Run:     g.run,
	}
	if g.opts.Store != nil {
		a.Observe = g.Record
	}
	return a
}

func (g *Guardrail) run(ctx context.Context, in *analysis.LaterInput, r *analysis.LaterReport) error {
	hist, err := g.History(ctx, in.Call.Session)
	if err != nil {
		g.log.Warn("toolwall: guardrail history unavailable; the call is judged alone", "session", in.Call.Session, "err", err)
	}
	res, err := g.Classify(ctx, hist, ActionOf(in.Call))
	if err != nil {
		return err
	}
	p := g.opts.Policy
	for _, m := range res.Members {
		o := toolwall.Opinion{
			Model: m.Model, Label: m.Risk.String(), Explanation: m.Explanation, Action: p.Map(m.Risk),
			InputTokens: m.Usage.InputTokens, OutputTokens: m.Usage.OutputTokens, Latency: m.Latency,
		}
		switch {
		case m.Err != nil:
			o.Error = m.Err.Error()
		case m.Problem != "":
			o.Error = m.Problem
		}
		r.Opine(o)
	}
	if res.Failed() {
		return res.Err()
	}
	act := p.Map(res.Risk)
	model := modelOf(res)
	switch {
	case res.Risk == Unknown && act == toolwall.Allow:
		g.log.Warn("toolwall: guardrail gave no usable label; allowed because confirm_unknown is off", "tool", in.Call.Tool, "session", in.Call.Session, "problem", problems(res))
	case res.Risk == Unknown:
		r.Add(toolwall.Finding{
			Rule: "guardrail.unknown", Category: "second-opinion", Action: act,
			Reason: fmt.Sprintf("The guardrail model (%s) gave no single clear risk label for this call (%s), so it is not taken as safe; a human has to confirm it.", model, problems(res)),
		})
	case act == toolwall.Allow:
	default:
		r.Add(toolwall.Finding{
			Rule: "guardrail.risk-" + strings.ToLower(res.Risk.String()), Category: "second-opinion", Action: act,
			Reason: reason(model, res, act),
		})
	}
	return nil
}

// reason words a labelled finding for the model and the human.
func reason(model string, res Result, act toolwall.Action) string {
	why := res.Explanation
	if why == "" {
		why = "no explanation given"
	}
	s := fmt.Sprintf("A separate guardrail model (%s) rated this call %s risk: %s", model, res.Risk, strings.TrimRight(why, "."))
	switch act {
	case toolwall.Deny:
		return s + ". It is refused; if the step is really needed, explain why to the user and let them run it."
	case toolwall.Ask:
		return s + ". A human has to confirm it before it runs."
	}
	return s + "."
}

// modelOf names the model(s) behind the combined label.
func modelOf(res Result) string {
	var names []string
	for _, m := range res.Members {
		if m.Risk == res.Risk && !slices.Contains(names, m.Model) {
			names = append(names, m.Model)
		}
	}
	return strings.Join(names, ", ")
}

func problems(res Result) string {
	var ps []string
	for _, m := range res.Members {
		if m.Problem != "" && !slices.Contains(ps, m.Problem) {
			ps = append(ps, m.Problem)
		}
	}
	return strings.Join(ps, "; ")
}
