package approval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/jsonl"
)

// DefaultRetention bounds how long pending entries and session-long
// grants are kept (7 days, the session memory's default retention).
const DefaultRetention = 7 * 24 * time.Hour

// ErrNotPending is returned by Approve for a decision that left no
// pending ask: an allow, a deny (never approvable), an unknown id, one
// already approved, or one older than the retention.
var ErrNotPending = errors.New("approval: no pending ask with that decision id (only asked calls can be approved; a denied call never can)")

// Entry types.
const (
	TypePending = "pending"
	TypeGrant   = "grant"
)

// Entry is one line of the store.
type Entry struct {
	// Type is TypePending or TypeGrant.
	Type string `json:"type"`
	// Decision is the decision id of the ask.
	Decision string `json:"decision"`
	// Key identifies the call (see Key).
	Key string `json:"key"`
	// Session, CallID (the host's id), Caller, Cwd and Tool describe the
	// asked call; Summary is its one-line description, secrets redacted.
	Session string `json:"session,omitempty"`
	CallID  string `json:"call_id,omitempty"`
	Caller  string `json:"caller,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"`
	// Confirmable says the host shows a human prompt for the ask, so its
	// report that the call ran (Confirm) is a human's yes.
	Confirmable bool `json:"confirmable,omitempty"`
	// At is when the entry was written.
	At time.Time `json:"at"`
	// Expires ends a grant (zero: at the retention bound).
	Expires time.Time `json:"expires,omitzero"`
	// By says who approved a grant ("claude-code PostToolUse",
	// "toolwall approve").
	By string `json:"by,omitempty"`
}

// Options configure a Store.
type Options struct {
	// TTL bounds a grant; 0 means the session (grants are keyed by
	// session, and kept up to Retention).
	TTL time.Duration
	// Retention drops entries older than this (default DefaultRetention).
	Retention time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// WithDefaults returns o with its zero fields set to the defaults.
func (o Options) WithDefaults() Options {
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Keeper is what every approvals store does, with the same rules: the
// JSON Lines [Store] of the hook and a machine, and the PostgreSQL store
// of approval/postgres that replicas of the HTTP server share. The
// conformance suite in approval/approvaltest holds both to them.
type Keeper interface {
	// Check returns v unchanged unless it is an ask. An ask of call with
	// a live grant for its Key becomes an allow with a note naming the
	// grant ([Entry.Allow]); any other ask is noted pending under
	// decision. Errors leave v unchanged.
	Check(ctx context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error)
	// Confirm grants the confirmable pending ask of the host's call
	// callID in session, and reports whether it did.
	Confirm(ctx context.Context, session, callID, by string) (bool, error)
	// Pending returns the pending ask of decision, or ErrNotPending.
	Pending(ctx context.Context, decision string) (Entry, error)
	// Approve grants the pending ask of decision, once; ErrNotPending
	// otherwise.
	Approve(ctx context.Context, decision, by string) (Entry, error)
	// Grants returns the live grants, newest first.
	Grants(ctx context.Context) ([]Entry, error)
	// Prune drops entries older than the retention and expired grants,
	// and returns how many it dropped.
	Prune(ctx context.Context) (int, error)
}

var _ Keeper = (*Store)(nil)

// Store keeps approvals in a JSON Lines file.
type Store struct {
	file *jsonl.File
	opts Options
}

// Open returns the store at path; it does no I/O until used.
func Open(path string, opts Options) *Store {
	return &Store{file: &jsonl.File{Path: path}, opts: opts.WithDefaults()}
}

// Files lists the store's files for self-protection: the file at path
// and its lock file (path + ".lock", see [Store.Approve]).
func Files(path string) []string { return []string{path, path + ".lock"} }

// Path returns the store's file.
func (s *Store) Path() string { return s.file.Path }

// Key returns the identity of "the same call in the same session and
// directory": a SHA-256 over the session, caller, working directory, tool
// and input. A Bash input counts by its command only, and any other input
// without its "description" field, since the model rewrites those for
// every call; object keys are compared in sorted order.
func Key(call toolwall.Call) string {
	h := sha256.New()
	for _, f := range []string{call.Session, call.Caller, call.Cwd, call.Tool} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	h.Write(canonicalInput(call))
	return hex.EncodeToString(h.Sum(nil))
}

func canonicalInput(call toolwall.Call) []byte {
	if cmd, ok := call.Command(); ok {
		return []byte(cmd)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(call.Input))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return call.Input
	}
	delete(m, "description")
	b, err := json.Marshal(m) // sorted keys
	if err != nil {
		return call.Input
	}
	return b
}

// entries reads the live entries.
func (s *Store) entries() ([]Entry, error) {
	cut := s.opts.Now().Add(-s.opts.Retention)
	var out []Entry
	err := s.file.Read(func(line []byte) error {
		var e Entry
		if json.Unmarshal(line, &e) == nil && e.Decision != "" && e.Key != "" && !e.At.Before(cut) {
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("approval: %w", err)
	}
	return out, nil
}

func (s *Store) append(e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("approval: %w", err)
	}
	if err := s.file.Append(b); err != nil {
		return fmt.Errorf("approval: %w", err)
	}
	return nil
}

// live reports whether grant g holds at now.
func (s *Store) live(g Entry, now time.Time) bool {
	return g.Type == TypeGrant && (g.Expires.IsZero() || now.Before(g.Expires))
}

// Allow returns v turned into an allow by grant g, with a note naming
// the grant (its decision, who approved it and when, until when it
// holds); v's findings stay for the audit.
func (g Entry) Allow(v toolwall.Verdict) toolwall.Verdict {
	v.Action = toolwall.Allow
	until := "for the rest of the session"
	if !g.Expires.IsZero() {
		until = "until " + g.Expires.UTC().Format(time.RFC3339)
	}
	v.Notes = append(v.Notes, fmt.Sprintf("approved: the user allowed this same call (decision %s, %s at %s), %s", g.Decision, g.By, g.At.UTC().Format(time.RFC3339), until))
	return v
}

// NewPending returns the pending entry of an ask of call under decision
// at time at: its Key and the call's description, the summary with
// secrets redacted.
func NewPending(decision string, call toolwall.Call, confirmable bool, at time.Time) Entry {
	summary, _ := audit.RedactString(call.Summary())
	return Entry{Type: TypePending, Decision: decision, Key: Key(call), Session: call.Session, CallID: call.ID, Caller: call.Caller,
		Cwd: call.Cwd, Tool: call.Tool, Summary: summary, Confirmable: confirmable, At: at}
}

// Grant returns pending entry p granted by by at time at, expiring after
// ttl (0: at the retention bound).
func (p Entry) Grant(by string, at time.Time, ttl time.Duration) Entry {
	g := p
	g.Type, g.By, g.At = TypeGrant, by, at
	if ttl > 0 {
		g.Expires = at.Add(ttl)
	}
	return g
}

// Check returns v unchanged unless it is an ask. For an ask with a live
// grant for call it returns v with Action allow and a note naming the
// grant; otherwise it records decision as pending (confirmable says the
// host will show a human prompt) and returns v. Errors leave v unchanged.
func (s *Store) Check(_ context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error) {
	if v.Action != toolwall.Ask {
		return v, nil
	}
	key := Key(call)
	es, err := s.entries()
	if err != nil {
		return v, err
	}
	now := s.opts.Now()
	for i := len(es) - 1; i >= 0; i-- {
		if g := es[i]; g.Key == key && s.live(g, now) {
			return g.Allow(v), nil
		}
	}
	return v, s.append(NewPending(decision, call, confirmable, now))
}

// grantOnce grants the pending entry that find picks out of the live
// entries (find fails with ErrNotPending when there is none), at most
// once across goroutines and processes: the read and the grant's append
// hold the store's lock (see [Store.Approve]), so of two processes
// granting the same ask at once, the second finds the first one's grant
// and gets ErrNotPending, as with the PostgreSQL store's single
// statement.
func (s *Store) grantOnce(ctx context.Context, by string, find func([]Entry) (Entry, error)) (Entry, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return Entry{}, err
	}
	defer unlock()
	es, err := s.entries()
	if err != nil {
		return Entry{}, err
	}
	p, err := find(es)
	if err != nil {
		return Entry{}, err
	}
	g := p.Grant(by, s.opts.Now(), s.opts.TTL)
	return g, s.append(g)
}

// Confirm grants the confirmable pending ask on the host's call callID in
// session, when there is one: the host reports that the asked call ran,
// which it only does after a human said yes. It reports whether it
// granted; of two reports of the same call at once, one grants. The host
// reports every call that ran, and most were never asked: those are
// told apart by a read without the lock, and take none.
func (s *Store) Confirm(ctx context.Context, session, callID, by string) (bool, error) {
	if callID == "" {
		return false, nil
	}
	find := func(es []Entry) (Entry, error) {
		for i := len(es) - 1; i >= 0; i-- {
			e := es[i]
			if e.Session != session || e.CallID != callID {
				continue
			}
			if e.Type != TypePending || !e.Confirmable {
				break
			}
			return e, nil
		}
		return Entry{}, ErrNotPending
	}
	es, err := s.entries()
	if err != nil {
		return false, err
	}
	if _, err := find(es); err != nil {
		return false, nil
	}
	_, err = s.grantOnce(ctx, by, find)
	if errors.Is(err, ErrNotPending) {
		return false, nil
	}
	return err == nil, err
}

// Pending returns the pending ask of decision, for a driver that checks
// who may approve it (the HTTP server: only the decision's tenant). It
// fails with ErrNotPending when the decision left no pending ask.
func (s *Store) Pending(_ context.Context, decision string) (Entry, error) {
	es, err := s.entries()
	if err != nil {
		return Entry{}, err
	}
	return pending(es, decision)
}

// pending returns the pending ask of decision among es, or
// ErrNotPending.
func pending(es []Entry, decision string) (Entry, error) {
	for i := len(es) - 1; i >= 0; i-- {
		if e := es[i]; e.Decision == decision {
			if e.Type != TypePending {
				return Entry{}, ErrNotPending
			}
			return e, nil
		}
	}
	return Entry{}, ErrNotPending
}

// Approve grants the pending ask of decision, by a human (by names how:
// "toolwall approve"). It fails with ErrNotPending when the decision left
// no pending ask, or when another approval of it came first: on unix
// systems the read of the pending ask and the grant's append hold an
// exclusive flock(2) on the lock file beside the store (path + ".lock"),
// so two `toolwall approve` at once, or two servers on one file, record
// one grant. On other systems the lock keeps apart one process's
// goroutines only, and two processes can still both grant. Waiting for
// the lock ends with ctx.
func (s *Store) Approve(ctx context.Context, decision, by string) (Entry, error) {
	return s.grantOnce(ctx, by, func(es []Entry) (Entry, error) { return pending(es, decision) })
}

// Grants returns the live grants, newest first.
func (s *Store) Grants(context.Context) ([]Entry, error) {
	es, err := s.entries()
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	var out []Entry
	for _, e := range es {
		if s.live(e, now) {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out, nil
}

// Prune drops entries older than the retention and expired grants, and
// returns how many it dropped.
func (s *Store) Prune(context.Context) (int, error) {
	now := s.opts.Now()
	cut := now.Add(-s.opts.Retention)
	n, err := s.file.Rewrite(func(line []byte) bool {
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			return false
		}
		return !e.At.Before(cut) && (e.Type != TypeGrant || s.live(e, now))
	})
	if err != nil {
		return 0, fmt.Errorf("approval: %w", err)
	}
	return n, nil
}
