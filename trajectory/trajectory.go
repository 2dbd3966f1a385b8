package trajectory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// Level is a session's trajectory risk, from Calm to Critical.
type Level uint8

// The four levels (0 Calm … 3 Critical).
const (
	Calm Level = iota
	Elevated
	High
	Critical
)

var levelNames = [...]string{"calm", "elevated", "high", "critical"}

// String returns the lower-case name: "calm", "elevated", "high" or
// "critical".
func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", l)
}

// ParseLevel parses a level's number (0 to 3) or name.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, n := range levelNames {
		if s == n || s == fmt.Sprint(i) {
			return Level(i), nil
		}
	}
	return Calm, fmt.Errorf("trajectory: unknown level %q (want 0 to 3, or calm, elevated, high, critical)", s)
}

// Points an event of the gate adds to a session's risk.
const (
	// RefusalPoints: a call the gate denied.
	RefusalPoints = 1
	// ChainPoints: a call that completes an attack split across calls.
	ChainPoints = 2
	// AnomalyPoints: a call with an anomaly finding.
	AnomalyPoints = 1
)

// DefaultDecay is how many points a session's risk loses at every new
// user turn by default.
const DefaultDecay = 1

// RuleCritical is the rule id of the deny a critical session gets.
const RuleCritical = "trajectory.critical"

// AnomalyRules are the rule ids that count as anomalies: input shaped to
// slip past a reader rather than to do work.
var AnomalyRules = []string{"input.nul-byte", "shell.lookalike-dash"}

// DefaultReadOnly are the tools that neither write, run nor send: a
// critical session may still use them.
var DefaultReadOnly = []string{toolwall.ToolRead, toolwall.ToolGrep, "Glob", "LS"}

// Options configure a Tracker.
type Options struct {
	// Store keeps the risk events; required.
	Store session.Store
	// Decay is how many points the risk loses at every new user turn
	// (default DefaultDecay; at most 3, which calms any session at the
	// next turn).
	Decay int
	// ReadOnly lists more tools that neither write, run nor send, beside
	// DefaultReadOnly. Any other tool — a shell, a file write, a fetch, a
	// search, an MCP tool toolwall does not know — is refused at Critical.
	ReadOnly []string
	// Logger receives store failures; nil means slog.Default().
	Logger *slog.Logger
}

// Tracker reads, raises and applies sessions' trajectory risk. It is
// safe for concurrent use; its state lives in the store.
type Tracker struct {
	store    session.Store
	decay    int
	readOnly []string
	log      *slog.Logger
}

// New returns a Tracker for opts. Errors: no store, a decay outside 0
// to 3.
func New(opts Options) (*Tracker, error) {
	if opts.Store == nil {
		return nil, errors.New("trajectory: no session store to keep the risk in")
	}
	if opts.Decay < 0 || opts.Decay > int(Critical) {
		return nil, fmt.Errorf("trajectory: decay %d must be from 0 to 3 (0: default %d)", opts.Decay, DefaultDecay)
	}
	if opts.Decay == 0 {
		opts.Decay = DefaultDecay
	}
	t := &Tracker{store: opts.Store, decay: opts.Decay, readOnly: append(slices.Clone(DefaultReadOnly), opts.ReadOnly...), log: opts.Logger}
	if t.log == nil {
		t.log = slog.Default()
	}
	return t, nil
}

// State is a session's trajectory risk at one moment.
type State struct {
	// Level is the risk level.
	Level Level `json:"level"`
	// Turn is the session's current user turn.
	Turn int `json:"turn"`
	// Causes are the events that still count toward Level, oldest first
	// (since the risk last fell to 0, or since it was last set); empty at
	// Calm.
	Causes []session.RiskEvent `json:"causes,omitempty"`
}

// Compute returns the state a session's risk log gives with decay points
// lost per new turn. Events are read oldest first; turns that go
// backwards (a tampered or reset store) lose nothing.
func Compute(log session.RiskLog, decay int) State {
	points, last := 0, 0
	var causes []session.RiskEvent
	leak := func(turn int) {
		if turn > last && points > 0 {
			d := turn - last
			if d < 0 || d > int(Critical) { // past 3 turns any decay has emptied the bucket (d < 0: overflow)
				d = int(Critical) + 1
			}
			points = max(0, points-decay*d)
			if points == 0 {
				causes = nil
			}
		}
		last = max(last, turn)
	}
	for i, e := range log.Events {
		if i == 0 {
			last = e.Turn
		}
		leak(e.Turn)
		switch {
		case e.Set:
			points = min(max(e.Points, 0), int(Critical))
			causes = []session.RiskEvent{e}
			if points == 0 {
				causes = nil
			}
		case e.Points > 0:
			points = min(points+e.Points, int(Critical))
			causes = append(causes, e)
		}
	}
	leak(log.Turn)
	return State{Level: Level(points), Turn: log.Turn, Causes: causes}
}

// State returns session's trajectory risk now.
func (t *Tracker) State(ctx context.Context, sessionID string) (State, error) {
	log, err := t.store.Risk(ctx, sessionID)
	if err != nil {
		return State{}, fmt.Errorf("trajectory: reading session %q: %w", sessionID, err)
	}
	return Compute(log, t.decay), nil
}

// Raise adds points (1 to session.MaxRiskPoints) to session's risk in its
// current turn; caller is the agent whose call raised it ("" for the
// primary agent or the application) and why says what did, for reasons
// ("anomaly: 8 of the last 10 calls failed").
func (t *Tracker) Raise(ctx context.Context, sessionID string, points int, caller, why string) error {
	if points < 1 {
		return fmt.Errorf("trajectory: raising by %d points: want at least 1", points)
	}
	if err := t.store.NoteRisk(ctx, sessionID, session.RiskEvent{Points: points, Caller: caller, Why: why}); err != nil {
		return fmt.Errorf("trajectory: raising session %q: %w", sessionID, err)
	}
	return nil
}

// Set sets session's risk to level from now on (it decays from there like
// any other); why says who set it and why ("operator: reviewed, resumed").
// Set Calm to clear a session.
func (t *Tracker) Set(ctx context.Context, sessionID string, level Level, why string) error {
	if level > Critical {
		return fmt.Errorf("trajectory: level %d: want 0 to 3", level)
	}
	if err := t.store.NoteRisk(ctx, sessionID, session.RiskEvent{Points: int(level), Set: true, Why: why}); err != nil {
		return fmt.Errorf("trajectory: setting session %q: %w", sessionID, err)
	}
	return nil
}

// Slot returns session's trajectory risk as the tool-executor framework's
// TrajectoryRiskSlot: a value the embedding application reads and sets.
func (t *Tracker) Slot(sessionID string) Slot { return Slot{t: t, session: sessionID} }

// Slot is one session's trajectory risk level (the tool-executor framework's
// TrajectoryRiskSlot). The level lives in the session store, so every
// process that shares the store sees the same slot.
type Slot struct {
	t       *Tracker
	session string
}

// Load returns the level now.
func (s Slot) Load(ctx context.Context) (Level, error) {
	st, err := s.t.State(ctx, s.session)
	return st.Level, err
}

// Store sets the level, noting why.
func (s Slot) Store(ctx context.Context, level Level, why string) error {
	return s.t.Set(ctx, s.session, level, why)
}

// ReadOnly reports whether tool neither writes, runs nor sends (a
// critical session may still use it).
func (t *Tracker) ReadOnly(tool string) bool { return slices.Contains(t.readOnly, tool) }

// Apply is the gate's side of the trajectory, for a call of a session
// decided as v (the verdict after every other stage): it raises the
// session's risk by what v holds (see the package documentation) and, when
// v lets a call of a tool that is not read-only run (allow or warn) and
// the session is critical, returns a deny (rule trajectory.critical) that
// names the level and what raised it. Any other verdict it reads the level
// for (a tool that is not read-only, not already denied) gets a note
// "trajectory risk N (name): …" when the session is above calm. Calls without a session are
// returned unchanged. A store failure leaves v as it is, with a note,
// logged: the risk is an aid like the rest of session memory, and the
// gate already asks about chain-completing calls when memory is off.
func (t *Tracker) Apply(ctx context.Context, call toolwall.Call, v toolwall.Verdict) toolwall.Verdict {
	if call.Session == "" {
		return v
	}
	if points, why := Earned(v); points > 0 {
		if err := t.Raise(ctx, call.Session, points, call.Caller, why); err != nil {
			t.log.Warn("toolwall: cannot raise the trajectory risk", "session", call.Session, "err", err)
		}
	}
	if v.Action == toolwall.Deny || t.ReadOnly(call.Tool) {
		return v
	}
	st, err := t.State(ctx, call.Session)
	if err != nil {
		t.log.Warn("toolwall: trajectory risk unknown", "session", call.Session, "err", err)
		v.Notes = append(slices.Clip(v.Notes), "trajectory risk unknown: "+err.Error())
		return v
	}
	if st.Level == Calm {
		return v
	}
	if st.Level < Critical || v.Action >= toolwall.Ask {
		v.Notes = append(slices.Clip(v.Notes), Describe(st))
		return v
	}
	reason := fmt.Sprintf("This session's trajectory risk is at level 3 (critical); what raised it: %s. While it is critical, tools that write, run or send are refused; read-only tools still work. Stop, and tell the user what happened and what you were trying to do; the level falls at each new prompt from the user.", causes(st))
	f := toolwall.Finding{Analyzer: "trajectory", Rule: RuleCritical, Category: "trajectory", Score: 0.95, Action: toolwall.Deny, Reason: reason}
	v.Findings = append([]toolwall.Finding{f}, v.Findings...)
	v.Action, v.Band, v.Score, v.Reason = toolwall.Deny, toolwall.Critical, max(v.Score, f.Score), reason
	return v
}

// Earned returns the points a verdict adds to its session's risk and why
// (see the package documentation): 0 for a verdict that raises nothing.
func Earned(v toolwall.Verdict) (int, string) {
	var chains, anomalies []string
	for _, f := range v.Findings {
		if !f.Action.Stops() {
			continue
		}
		switch {
		case strings.HasPrefix(f.Rule, "chain.") && f.Rule != "chain.memory-off":
			chains = appendNew(chains, f.Rule)
		case slices.Contains(AnomalyRules, f.Rule):
			anomalies = appendNew(anomalies, f.Rule)
		}
	}
	points := 0
	var why []string
	if v.Action == toolwall.Deny && !ownFailure(v) {
		points += RefusalPoints
		why = append(why, "refused ("+strings.Join(v.Rules(), ", ")+")")
	}
	if len(chains) > 0 {
		points += ChainPoints
		why = append(why, "a chain across calls ("+strings.Join(chains, ", ")+")")
	}
	if len(anomalies) > 0 {
		points += AnomalyPoints
		why = append(why, "an anomaly ("+strings.Join(anomalies, ", ")+")")
	}
	return points, strings.Join(why, ", ")
}

// ownFailure reports whether a deny is toolwall's own doing rather than
// the session's: an internal error, a timeout or cancellation, a broken
// configuration, a payload it cannot read (toolwall.Fault), or the
// trajectory's own refusal.
func ownFailure(v toolwall.Verdict) bool {
	if len(v.Findings) == 0 {
		return true
	}
	for _, f := range v.Findings {
		if !f.Action.Stops() {
			continue
		}
		own := f.Category == "internal" || f.Rule == RuleCritical || toolwall.Fault(f.Rule) ||
			strings.HasPrefix(f.Rule, "gate.") || strings.HasPrefix(f.Rule, "config.")
		if !own {
			return false
		}
	}
	return true
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Describe words a state for notes and toolwall explain: "trajectory
// risk 2 (high): refused (rm.dangerous-target) in turn 3, …".
func Describe(st State) string {
	if st.Level == Calm {
		return "trajectory risk 0 (calm)"
	}
	return fmt.Sprintf("trajectory risk %d (%s): %s", st.Level, st.Level, causes(st))
}

// causes words what raised a state: the last five causes, newest last,
// each with its turn and caller, each cause's words cut to 200 bytes.
func causes(st State) string {
	cs := st.Causes
	var parts []string
	if len(cs) > 5 {
		parts = append(parts, fmt.Sprintf("%d earlier events", len(cs)-5))
		cs = cs[len(cs)-5:]
	}
	for _, e := range cs {
		why := e.Why
		if why == "" {
			why = "an unnamed cause"
		}
		if len(why) > 200 {
			n := 197
			for n > 0 && !utf8.RuneStart(why[n]) {
				n--
			}
			why = why[:n] + "..."
		}
		if e.Set {
			why = fmt.Sprintf("set to %d: %s", e.Points, why)
		}
		p := fmt.Sprintf("%s in turn %d", why, e.Turn)
		if e.Caller != "" {
			p += " by " + e.Caller
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "nothing recorded"
	}
	return strings.Join(parts, "; ")
}
