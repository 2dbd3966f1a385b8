package audit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/toolwall/toolwall"
)

// ErrNotFound is returned by Get, Outcome and CallOutcome when no record
// has the id (or the call).
var ErrNotFound = errors.New("audit: no such decision")

// ErrClosed is returned by a store's methods after Close.
var ErrClosed = errors.New("audit: store closed")

// Store is a Sink that can be read back: every store (SQLite, JSONL)
// implements it and passes the conformance suite in audit/audittest.
type Store interface {
	Sink
	// CallOutcome attaches o to the latest decision on the host's call
	// callID in session (see Record.CallID); ErrNotFound when there is
	// none.
	CallOutcome(ctx context.Context, session, callID string, o Outcome) error
	// Turn notes that session's user turn turn (1, 2, …: the session
	// store's count of prompts) began at at. A record of session written
	// after it with no turn of its own (Turn 0) reads as in the turn of
	// the latest mark written before it: a hook process does not read
	// the session's turn for a call that needs no session memory, so the
	// store tells it from the prompt events (every record
	// carries its turn).
	Turn(ctx context.Context, session string, turn int, at time.Time) error
	// Query returns the records that match f, newest first (ties by id).
	Query(ctx context.Context, f Filter) ([]Record, error)
	// Get returns the record with decision id id, or ErrNotFound.
	Get(ctx context.Context, id string) (Record, error)
	// Prune deletes the records decided before before and returns how
	// many it deleted (retention).
	Prune(ctx context.Context, before time.Time) (int, error)
	// Close releases the store; later calls fail with ErrClosed.
	Close() error
}

// Filter selects records; a zero field matches everything.
type Filter struct {
	// Session, Tool, Caller and Driver match exactly.
	Session, Tool, Caller, Driver string
	// Actions match any of the listed verdict actions.
	Actions []toolwall.Action
	// Rule matches records with a finding of this rule id.
	Rule string
	// Since and Until bound the decision time: Since <= At < Until.
	Since, Until time.Time
	// NoProbes leaves out the records of probes (see IsProbe): the
	// canary calls `toolwall doctor` sends through each hook, which are
	// no agent's work.
	NoProbes bool
	// Limit caps the number of records returned (the newest); 0 means no
	// cap.
	Limit int
}

// Match reports whether r passes f (Limit aside). Stores that filter in
// memory use it; the SQLite store filters in SQL with the same meaning.
func (f Filter) Match(r *Record) bool {
	switch {
	case f.Session != "" && r.Session != f.Session,
		f.Tool != "" && r.Tool != f.Tool,
		f.Caller != "" && r.Caller != f.Caller,
		f.Driver != "" && r.Driver != f.Driver,
		f.NoProbes && IsProbe(r.Driver),
		len(f.Actions) > 0 && !slices.Contains(f.Actions, r.Verdict.Action),
		!f.Since.IsZero() && r.At.Before(f.Since),
		!f.Until.IsZero() && !r.At.Before(f.Until):
		return false
	}
	return f.Rule == "" || slices.ContainsFunc(r.Verdict.Findings, func(x toolwall.Finding) bool { return x.Rule == f.Rule })
}

// ProbeDriver is the start of the Driver of a probe's record:
// "doctor:" and the host whose hook `toolwall doctor` probed.
const ProbeDriver = "doctor:"

// IsProbe reports whether driver names a probe's record.
func IsProbe(driver string) bool { return strings.HasPrefix(driver, ProbeDriver) }

// Newest orders records newest first, ties by id: the order of Query.
func Newest(a, b Record) int {
	if c := b.At.Compare(a.At); c != 0 {
		return c
	}
	switch {
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}
