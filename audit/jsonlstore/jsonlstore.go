package jsonlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/jsonl"
)

// Line types of an Entry.
const (
	TypeDecision = "decision"
	TypeOutcome  = "outcome"
	TypeTurn     = "turn"
)

// Entry is one line of the file.
type Entry struct {
	// Type is TypeDecision, TypeOutcome or TypeTurn.
	Type string `json:"type"`
	// Record is the decision (TypeDecision).
	Record *audit.Record `json:"record,omitempty"`
	// ID names the decision an outcome belongs to; when empty, Session
	// and CallID name the host's call instead (TypeOutcome).
	ID      string         `json:"id,omitempty"`
	Session string         `json:"session,omitempty"`
	CallID  string         `json:"call_id,omitempty"`
	Outcome *audit.Outcome `json:"outcome,omitempty"`
	// Turn and At mark the start of Session's user turn (TypeTurn; see
	// audit.Store.Turn).
	Turn int       `json:"turn,omitempty"`
	At   time.Time `json:"at,omitzero"`
}

// Decode parses one line; a line that is not an Entry is an error.
func Decode(line []byte) (Entry, error) {
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		return e, fmt.Errorf("jsonlstore: %w", err)
	}
	switch {
	case e.Type == TypeDecision && e.Record != nil && e.Record.ID != "":
	case e.Type == TypeOutcome && e.Outcome != nil && (e.ID != "" || e.CallID != ""):
	case e.Type == TypeTurn && e.Session != "" && e.Turn > 0:
	default:
		return e, fmt.Errorf("jsonlstore: not an audit entry: %.80s", line)
	}
	return e, nil
}

// Store is the JSONL store. Create it with Open.
type Store struct {
	file   *jsonl.File
	closed atomic.Bool
}

var _ audit.Store = (*Store)(nil)

// Open returns the store in the file at path. It does no I/O: the file
// (mode 0600, directory 0700) is created by the first write.
func Open(path string) *Store { return &Store{file: &jsonl.File{Path: path}} }

// Path returns the file.
func (s *Store) Path() string { return s.file.Path }

// File returns the underlying file (for Drain by an indexing store).
func (s *Store) File() *jsonl.File { return s.file }

func (s *Store) append(e Entry) error {
	if s.closed.Load() {
		return audit.ErrClosed
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("jsonlstore: %w", err)
	}
	return s.file.Append(b)
}

// Record appends r.
func (s *Store) Record(_ context.Context, r audit.Record) error {
	if r.ID == "" {
		return fmt.Errorf("jsonlstore: record without an id")
	}
	return s.append(Entry{Type: TypeDecision, Record: &r})
}

// Outcome appends the outcome of decision id; it is dropped when read if
// no such decision was written before it.
func (s *Store) Outcome(_ context.Context, id string, o audit.Outcome) error {
	return s.append(Entry{Type: TypeOutcome, ID: id, Outcome: &o})
}

// CallOutcome appends the outcome of the host's call callID in session.
func (s *Store) CallOutcome(_ context.Context, session, callID string, o audit.Outcome) error {
	return s.append(Entry{Type: TypeOutcome, Session: session, CallID: callID, Outcome: &o})
}

// Turn appends the mark of session's turn turn, begun at at.
func (s *Store) Turn(_ context.Context, session string, turn int, at time.Time) error {
	if session == "" || turn <= 0 {
		return fmt.Errorf("jsonlstore: turn %d of session %q", turn, session)
	}
	return s.append(Entry{Type: TypeTurn, Session: session, Turn: turn, At: at})
}

// Fold applies entries in file order to a set of records: decisions are
// added (a repeated id is ignored; one without a turn takes its
// session's latest turn mark), outcomes attach to their decision. Bad
// lines are counted in bad and skipped.
type Fold struct {
	Records map[string]*audit.Record
	// byCall maps session + "\x00" + call id to the latest decision id.
	byCall map[string]string
	// turns is each session's latest turn mark, marks the times of all
	// its marks in file order.
	turns map[string]Entry
	marks map[string][]time.Time
	// Bad counts lines that did not decode.
	Bad int
}

// NewFold returns an empty fold.
func NewFold() *Fold {
	return &Fold{Records: map[string]*audit.Record{}, byCall: map[string]string{}, turns: map[string]Entry{}, marks: map[string][]time.Time{}}
}

// Add applies one entry and returns the decision id it touched ("" if
// none).
func (f *Fold) Add(e Entry) string {
	switch e.Type {
	case TypeDecision:
		if _, dup := f.Records[e.Record.ID]; dup {
			return ""
		}
		if m, ok := f.turns[e.Record.Session]; ok && e.Record.Turn == 0 && e.Record.Session != "" {
			e.Record.Turn = m.Turn
		}
		f.Records[e.Record.ID] = e.Record
		if e.Record.CallID != "" {
			f.byCall[e.Record.Session+"\x00"+e.Record.CallID] = e.Record.ID
		}
		return e.Record.ID
	case TypeOutcome:
		id := e.ID
		if id == "" {
			id = f.byCall[e.Session+"\x00"+e.CallID]
		}
		if r, ok := f.Records[id]; ok {
			o := *e.Outcome
			r.Outcome = &o
			return id
		}
	case TypeTurn:
		f.turns[e.Session] = e
		f.marks[e.Session] = append(f.marks[e.Session], e.At)
	}
	return ""
}

// Line decodes and applies one line.
func (f *Fold) Line(line []byte) {
	e, err := Decode(line)
	if err != nil {
		f.Bad++
		return
	}
	f.Add(e)
}

func (s *Store) fold() (*Fold, error) {
	if s.closed.Load() {
		return nil, audit.ErrClosed
	}
	f := NewFold()
	err := s.file.Read(func(line []byte) error { f.Line(line); return nil })
	return f, err
}

// Query scans the file and returns the matching records, newest first.
func (s *Store) Query(_ context.Context, flt audit.Filter) ([]audit.Record, error) {
	f, err := s.fold()
	if err != nil {
		return nil, err
	}
	var out []audit.Record
	for _, r := range f.Records {
		if flt.Match(r) {
			out = append(out, *r)
		}
	}
	slices.SortFunc(out, audit.Newest)
	if flt.Limit > 0 && len(out) > flt.Limit {
		out = out[:flt.Limit]
	}
	return out, nil
}

// Get scans the file for decision id.
func (s *Store) Get(_ context.Context, id string) (audit.Record, error) {
	f, err := s.fold()
	if err != nil {
		return audit.Record{}, err
	}
	r, ok := f.Records[id]
	if !ok {
		return audit.Record{}, audit.ErrNotFound
	}
	return *r, nil
}

// Prune rewrites the file without the decisions made before before,
// their outcomes, and the turn marks no kept decision reads: a mark is
// dropped when its session's next mark also began before before.
func (s *Store) Prune(_ context.Context, before time.Time) (int, error) {
	f, err := s.fold()
	if err != nil {
		return 0, err
	}
	old := map[string]bool{}
	for id, r := range f.Records {
		if r.At.Before(before) {
			old[id] = true
		}
	}
	if len(old) == 0 {
		return 0, nil
	}
	// Resolve call-id outcomes as the fold did, line by line; seen counts
	// each session's turn marks so far.
	g := NewFold()
	seen := map[string]int{}
	n := 0
	_, err = s.file.Rewrite(func(line []byte) bool {
		e, err := Decode(line)
		if err != nil {
			return false
		}
		id := g.Add(e)
		if e.Type == TypeDecision && old[e.Record.ID] && id != "" {
			n++
		}
		if e.Type == TypeTurn {
			i := seen[e.Session]
			seen[e.Session]++
			marks := f.marks[e.Session]
			return i+1 >= len(marks) || !marks[i+1].Before(before)
		}
		return !old[id] && (id != "" || e.Type == TypeOutcome)
	})
	return n, err
}

// Close marks the store closed (it holds no descriptor).
func (s *Store) Close() error {
	s.closed.Store(true)
	return nil
}
