package session

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Lazy is a Store that opens its backing store on first use. The Claude
// Code hook starts a process per tool call, and most calls (a benign
// command with no risk tags) never need memory; with Lazy they do not pay
// for opening SQLite. If opening fails, every method returns the open
// error (an [*OpenError] matching [ErrUnavailable] for [Open]) and the
// open is not retried until [Lazy.Reset]. Safe for concurrent use.
type Lazy struct {
	open   func() (Store, error)
	mu     sync.Mutex
	done   bool // open was called
	closed bool
	store  Store
	err    error
	// path is the state file open opens, for NoteLost ("" when none).
	path string
}

// NewLazy returns a Lazy that calls open on first use.
func NewLazy(open func() (Store, error)) *Lazy { return &Lazy{open: open} }

// NewLazyAt returns a Lazy that calls open, which opens the SQLite state
// file at path, on first use. When the file cannot be opened, Append
// notes the record as lost there ([NoteLost]): the next call of the
// session, which may find the file usable again, then knows its memory
// has a hole.
func NewLazyAt(path string, open func() (Store, error)) *Lazy {
	return &Lazy{open: open, path: path}
}

func (l *Lazy) get() (Store, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	if !l.done {
		l.store, l.err = l.open()
		if l.store == nil && l.err == nil {
			l.err = &OpenError{Err: errors.New("open returned no store")}
		}
		l.done = true
	}
	return l.store, l.err
}

// Opened reports whether opening the backing store was attempted
// (successfully or not).
func (l *Lazy) Opened() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done
}

// Turn is Store.Turn on the backing store.
func (l *Lazy) Turn(ctx context.Context, id string) (int, error) {
	s, err := l.get()
	if err != nil {
		return 0, err
	}
	return s.Turn(ctx, id)
}

// AdvanceTurn is Store.AdvanceTurn on the backing store.
func (l *Lazy) AdvanceTurn(ctx context.Context, id string) (int, error) {
	s, err := l.get()
	if err != nil {
		return 0, err
	}
	return s.AdvanceTurn(ctx, id)
}

// Append is Store.Append on the backing store.
func (l *Lazy) Append(ctx context.Context, id string, r Record) error {
	s, err := l.get()
	if err != nil {
		if l.path != "" && errors.Is(err, ErrUnavailable) && checkID(id) == nil {
			NoteLost(l.path, id)
		}
		return err
	}
	return s.Append(ctx, id, r)
}

// History is Store.History on the backing store.
func (l *Lazy) History(ctx context.Context, id string, w Window) ([]Record, error) {
	s, err := l.get()
	if err != nil {
		return nil, err
	}
	return s.History(ctx, id, w)
}

// NoteRefusal is Store.NoteRefusal on the backing store.
func (l *Lazy) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	s, err := l.get()
	if err != nil {
		return 0, err
	}
	return s.NoteRefusal(ctx, id, key)
}

// Refusals is Store.Refusals on the backing store.
func (l *Lazy) Refusals(ctx context.Context, id, key string, w Window) (int, error) {
	s, err := l.get()
	if err != nil {
		return 0, err
	}
	return s.Refusals(ctx, id, key, w)
}

// Stage is Store.Stage on the backing store.
func (l *Lazy) Stage(ctx context.Context, id, key string, r Record) error {
	s, err := l.get()
	if err != nil {
		return err
	}
	return s.Stage(ctx, id, key, r)
}

// Commit is Store.Commit on the backing store.
func (l *Lazy) Commit(ctx context.Context, id, key string, success bool) (bool, error) {
	s, err := l.get()
	if err != nil {
		return false, err
	}
	return s.Commit(ctx, id, key, success)
}

// NoteRisk is Store.NoteRisk on the backing store.
func (l *Lazy) NoteRisk(ctx context.Context, id string, e RiskEvent) error {
	s, err := l.get()
	if err != nil {
		return err
	}
	return s.NoteRisk(ctx, id, e)
}

// Risk is Store.Risk on the backing store.
func (l *Lazy) Risk(ctx context.Context, id string) (RiskLog, error) {
	s, err := l.get()
	if err != nil {
		return RiskLog{}, err
	}
	return s.Risk(ctx, id)
}

// Prune is Store.Prune on the backing store.
func (l *Lazy) Prune(ctx context.Context, idle time.Duration) (int, error) {
	s, err := l.get()
	if err != nil {
		return 0, err
	}
	return s.Prune(ctx, idle)
}

// Reset closes the backing store, if one was opened, and makes the next
// use open it again (a failed open is tried again too). A process that
// serves many calls with one Lazy resets it between calls. A closed Lazy
// stays closed (ErrClosed).
func (l *Lazy) Reset() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	var err error
	if l.store != nil {
		err = l.store.Close()
	}
	l.store, l.err, l.done = nil, nil, false
	return err
}

// Close closes the backing store if it was opened; after Close every
// method but Close fails with ErrClosed, and a store never opened stays
// unopened.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.store == nil {
		return nil
	}
	return l.store.Close()
}
