package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toolwall/toolwall"
)

// Store is per-session memory. Every method takes the session id as the
// host sends it (Claude Code's session_id); ids are compared byte for byte
// and must be 1 to [MaxIDLen] bytes long, else the method fails with
// [ErrInvalid]. Reading an unknown session is not an error: it has turn 0
// and no history. Implementations are safe for concurrent use; after
// Close every method but Close fails with [ErrClosed]. A cancelled context
// fails with the context's error.
type Store interface {
	// Turn returns the session's current user turn: 0 before the first
	// AdvanceTurn, and for an unknown session.
	Turn(ctx context.Context, id string) (int, error)

	// AdvanceTurn starts the session's next user turn (the Claude Code
	// UserPromptSubmit event; the tool-executor framework's advance_turn) and returns its
	// number: 1 for the first.
	AdvanceTurn(ctx context.Context, id string) (int, error)

	// Append records r as an executed call in the session's current turn.
	// The store sets r.Turn (the value passed is ignored), sets r.At to the
	// store's clock when it is zero, and bounds r's size (see [MaxInputLen],
	// [MaxFieldLen], [MaxList]). Only the last [Options.Calls] records of a
	// session are kept.
	Append(ctx context.Context, id string, r Record) error

	// History returns the session's executed calls inside w, oldest first:
	// at most the last w.Calls records, and of those only the ones made in
	// the last w.Turns turns. The records are the caller's to modify.
	History(ctx context.Context, id string, w Window) ([]Record, error)

	// NoteRefusal records that an attempt identified by key was refused in
	// the session's current turn, and returns how many refusals of key the
	// session now holds, this one included. Keys are compared byte for
	// byte; an empty key fails with [ErrInvalid], a longer one than
	// [MaxFieldLen] is cut. Only the last [Options.Refusals] refusals of a
	// session are kept.
	NoteRefusal(ctx context.Context, id, key string) (int, error)

	// Refusals counts the refusals of key inside w: among the session's
	// last w.Calls refusals (of any key), those of key made in the last
	// w.Turns turns.
	Refusals(ctx context.Context, id, key string, w Window) (int, error)

	// Stage remembers r as a call that was allowed under key (the host's
	// tool-use id) but has not run yet, so that when the host reports it
	// ran (Commit) the record made before it ran is used: a call's effects
	// depend on the working directory it started in, and a host may report
	// the one it ended in. Only the last [DefaultStaged] staged calls of a
	// session are kept; staging a key again replaces it. An empty key fails
	// with [ErrInvalid].
	Stage(ctx context.Context, id, key string, r Record) error

	// Commit appends the record staged under key as an executed call, with
	// success set, in the session's current turn, and forgets it. It
	// reports whether a record was staged under key; if not, nothing
	// changes.
	Commit(ctx context.Context, id, key string, success bool) (bool, error)

	// NoteRisk records e as a change of the session's trajectory risk in
	// its current turn (package trajectory reads them back and computes
	// the level). The store sets e.Turn (the value passed is ignored),
	// sets e.At to its clock when zero, and cuts e.Why and e.Caller to
	// [MaxFieldLen]. Points outside 0 to [MaxRiskPoints] fail with
	// [ErrInvalid]. Only the last [DefaultRiskEvents] events of a session
	// are kept.
	NoteRisk(ctx context.Context, id string, e RiskEvent) error

	// Risk returns the session's risk events, oldest first, with its
	// current turn, in one read. An unknown session has turn 0 and no
	// events. The events are the caller's to modify.
	Risk(ctx context.Context, id string) (RiskLog, error)

	// Prune deletes every session with no write (AdvanceTurn, Append,
	// NoteRefusal, Stage, Commit, NoteRisk) for longer than idle, with its
	// records, refusals, staged calls and risk events, and returns how
	// many sessions it deleted. An idle of zero or less means
	// [Options.Retention].
	Prune(ctx context.Context, idle time.Duration) (int, error)

	// Close releases the store. Calling it again does nothing.
	Close() error
}

// Record is one executed call as the store keeps it.
type Record struct {
	// Tool is the tool name ("Bash", "Write", ...).
	Tool string `json:"tool"`
	// Summary is a one-line description, as [toolwall.Call.Summary] gives.
	Summary string `json:"summary,omitempty"`
	// Input is the tool input object. Inputs longer than [MaxInputLen]
	// bytes are replaced by a truncation marker (see [MaxInputLen]).
	Input json.RawMessage `json:"input,omitempty"`
	// Turn is the user turn the call ran in; set by [Store.Append].
	Turn int `json:"turn"`
	// At is when the call ran, kept with microsecond precision and
	// returned in UTC.
	At time.Time `json:"at"`
	// Success says whether the tool reported success.
	Success bool `json:"success"`
	// Effects are the call's risk tags, for chain rules.
	Effects []toolwall.Effect `json:"effects,omitempty"`
	// Rules are the rule ids of the findings the call carried.
	Rules []string `json:"rules,omitempty"`
}

// RiskEvent is one change of a session's trajectory risk (the tool-executor framework's
// TrajectoryRiskSlot, kept per session so that the hook, a process per
// call, sees what earlier processes raised): points the session earned
// by what it did, or a level an application set.
type RiskEvent struct {
	// Turn is the user turn the event happened in; set by
	// [Store.NoteRisk].
	Turn int `json:"turn"`
	// At is when it happened, kept with microsecond precision and
	// returned in UTC; the store's clock when zero.
	At time.Time `json:"at"`
	// Points are added to the session's risk (0 to [MaxRiskPoints]); with
	// Set they are the level the risk is set to.
	Points int `json:"points"`
	// Set says Points replaces the risk rather than adding to it.
	Set bool `json:"set,omitempty"`
	// Caller is the agent whose call raised it ("" for the primary agent
	// or an application).
	Caller string `json:"caller,omitempty"`
	// Why says what raised it, for reasons and toolwall explain
	// ("refused: rm.dangerous-target").
	Why string `json:"why"`
}

// RiskLog is what [Store.Risk] returns: a session's kept risk events,
// oldest first, and its current turn.
type RiskLog struct {
	Turn   int         `json:"turn"`
	Events []RiskEvent `json:"events,omitempty"`
}

// Window selects recent memory: the last Calls entries, of those only the
// ones made in the last Turns turns. An entry made in turn t is inside
// when current-t < Turns, so Turns 1 is the current turn only and the
// default 3 is the current turn and the two before it
// (DEFAULT_CROSS_TURN_WINDOW_TURNS). A zero or negative field takes its
// default.
type Window struct {
	// Calls is the most entries considered (default 20, the tool shield).
	Calls int
	// Turns is how many turns back, the current one included (default 3).
	Turns int
}

// Window defaults.
const (
	// DefaultCalls is the default Window.Calls and Options.Calls: seed
	// 000's "last 20" recent calls.
	DefaultCalls = 20
	// DefaultTurns is the default Window.Turns: the tool-executor framework's risk-chain
	// window of 3 turns.
	DefaultTurns = 3
)

// DefaultWindow returns Window{Calls: 20, Turns: 3}.
func DefaultWindow() Window { return Window{Calls: DefaultCalls, Turns: DefaultTurns} }

func (w Window) withDefaults() Window {
	if w.Calls <= 0 {
		w.Calls = DefaultCalls
	}
	if w.Turns <= 0 {
		w.Turns = DefaultTurns
	}
	return w
}

// inside reports whether an entry made in turn t is within w.Turns of the
// current turn cur.
func (w Window) inside(t, cur int) bool { return cur-t < w.Turns }

// Options configure a store. The zero value gives the defaults.
type Options struct {
	// Calls is the most executed records kept per session (default 20).
	Calls int
	// Refusals is the most refusals kept per session (default 64).
	Refusals int
	// Retention is how long a session may go without a write before
	// pruning deletes it (default 7 days).
	Retention time.Duration
	// PruneEvery is how often writes prune idle sessions on the side
	// (default 1 hour; negative: never, the caller runs Prune). The SQLite
	// store remembers the last prune in the file, so short-lived processes
	// share the schedule.
	PruneEvery time.Duration
	// BusyTimeout is how long a SQLite write waits for another process's
	// write to finish (default 5 s). Unused by the memory store.
	BusyTimeout time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Recover makes Open move a state file that is not a usable toolwall
	// state file (not a database, corrupt, another program's database)
	// aside — renamed, never deleted — and create a fresh one; the store's
	// Recovered field says so. A newer schema is still refused untouched.
	Recover bool
}

// Option defaults.
const (
	// DefaultRefusals is the default Options.Refusals.
	DefaultRefusals = 64
	// DefaultStaged is how many staged (allowed, not yet reported) calls a
	// session keeps.
	DefaultStaged = 64
	// DefaultRiskEvents is how many risk events a session keeps.
	DefaultRiskEvents = 64
	// MaxRiskPoints is the most points one risk event may carry.
	MaxRiskPoints = 100
	// DefaultRetention is the default Options.Retention: 7 days.
	DefaultRetention = 7 * 24 * time.Hour
	// DefaultPruneEvery is the default Options.PruneEvery.
	DefaultPruneEvery = time.Hour
	// DefaultBusyTimeout is the default Options.BusyTimeout.
	DefaultBusyTimeout = 5 * time.Second
)

func (o Options) withDefaults() Options {
	if o.Calls <= 0 {
		o.Calls = DefaultCalls
	}
	if o.Refusals <= 0 {
		o.Refusals = DefaultRefusals
	}
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.PruneEvery == 0 {
		o.PruneEvery = DefaultPruneEvery
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = DefaultBusyTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Errors. Match them with errors.Is.
var (
	// ErrUnavailable is matched by every error that means the store cannot
	// be used: an [*OpenError], and a storage failure during an operation
	// (a corrupt page, a read-only file, a lock held past the busy
	// timeout). Carry on without session memory and say so.
	ErrUnavailable = errors.New("session store unavailable")
	// ErrInvalid is returned for an empty or too long session id and an
	// empty refusal key.
	ErrInvalid = errors.New("session: invalid argument")
	// ErrClosed is returned by a method of a closed store.
	ErrClosed = errors.New("session: store closed")
)

// OpenError reports a store [Open] could not use. It matches
// [ErrUnavailable] and the underlying error with errors.Is.
type OpenError struct {
	// Path is the state file.
	Path string
	// Err is the cause.
	Err error
}

// Error returns "session: state file <path> unavailable: <cause>".
func (e *OpenError) Error() string {
	return fmt.Sprintf("session: state file %q unavailable: %v", e.Path, e.Err)
}

// Unwrap returns ErrUnavailable and the cause.
func (e *OpenError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// checkID validates a session id.
func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty session id", ErrInvalid)
	case len(id) > MaxIDLen:
		return fmt.Errorf("%w: session id of %d bytes (at most %d)", ErrInvalid, len(id), MaxIDLen)
	}
	return nil
}

// normalizeRisk checks e's points and returns its stored form: Why and
// Caller cut to MaxFieldLen, At defaulted to now and reduced to
// microseconds in UTC. Turn is left for the store to set.
func normalizeRisk(e RiskEvent, now time.Time) (RiskEvent, error) {
	if e.Points < 0 || e.Points > MaxRiskPoints {
		return e, fmt.Errorf("%w: risk points %d (want 0 to %d)", ErrInvalid, e.Points, MaxRiskPoints)
	}
	e.Why, e.Caller = clipString(e.Why), clipString(e.Caller)
	if e.At.IsZero() {
		e.At = now
	}
	e.At = micro(e.At)
	return e, nil
}

// checkKey validates a refusal key and cuts it to MaxFieldLen.
func checkKey(key string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("%w: empty refusal key", ErrInvalid)
	}
	return clipString(key), nil
}
