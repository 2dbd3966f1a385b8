package session

import (
	"context"
	"database/sql"
	"errors"
	"slices"
)

// Decisions is implemented by the stores that remember a session's
// decisions under the host's key for a call (Memory, SQLite, and a Lazy
// whose backing store does): a host that reports one call in two events
// (one event for every tool and one for its shell; two copies of the
// same hook installed) gets one decision, counted once.
type Decisions interface {
	// Decided returns the decision remembered under key in the session,
	// and whether there is one.
	Decided(ctx context.Context, id, key string) ([]byte, bool, error)
	// Decide remembers d under key unless a decision is remembered there
	// already, and returns the decision that stands: d, or the earlier
	// one with earlier set. Only the last [DefaultDecisions] keys of a
	// session are kept; an empty key fails with [ErrInvalid].
	Decide(ctx context.Context, id, key string, d []byte) (stands []byte, earlier bool, err error)
}

// DefaultDecisions is how many decisions a session's store keeps.
const DefaultDecisions = 64

var (
	_ Decisions = (*Memory)(nil)
	_ Decisions = (*SQLite)(nil)
	_ Decisions = (*Lazy)(nil)
)

// memDecision is one remembered decision.
type memDecision struct {
	key string
	d   []byte
}

// Decided implements [Decisions.Decided].
func (m *Memory) Decided(ctx context.Context, id, key string) ([]byte, bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return nil, false, err
	}
	if err := m.begin(ctx, id); err != nil {
		return nil, false, err
	}
	defer m.mu.Unlock()
	if s := m.sessions[id]; s != nil {
		if i := slices.IndexFunc(s.decisions, func(x memDecision) bool { return x.key == key }); i >= 0 {
			return slices.Clone(s.decisions[i].d), true, nil
		}
	}
	return nil, false, nil
}

// Decide implements [Decisions.Decide].
func (m *Memory) Decide(ctx context.Context, id, key string, d []byte) ([]byte, bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return nil, false, err
	}
	if err := m.begin(ctx, id); err != nil {
		return nil, false, err
	}
	defer m.mu.Unlock()
	s := m.write(id, m.opts.Now())
	if i := slices.IndexFunc(s.decisions, func(x memDecision) bool { return x.key == key }); i >= 0 {
		return slices.Clone(s.decisions[i].d), true, nil
	}
	s.decisions = append(s.decisions, memDecision{key: key, d: slices.Clone(d)})
	if over := len(s.decisions) - DefaultDecisions; over > 0 {
		s.decisions = append(s.decisions[:0:0], s.decisions[over:]...)
	}
	return d, false, nil
}

// Decided implements [Decisions.Decided].
func (s *SQLite) Decided(ctx context.Context, id, key string) ([]byte, bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return nil, false, err
	}
	if err := s.check(ctx, id); err != nil {
		return nil, false, err
	}
	var d []byte
	err = s.db.QueryRowContext(ctx, `SELECT d FROM decisions WHERE session = ? AND key = ? ORDER BY seq LIMIT 1`, id, []byte(key)).Scan(&d)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, s.fail("decided", err)
	}
	return d, true, nil
}

// Decide implements [Decisions.Decide].
func (s *SQLite) Decide(ctx context.Context, id, key string, d []byte) ([]byte, bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return nil, false, err
	}
	if err := s.check(ctx, id); err != nil {
		return nil, false, err
	}
	stands, earlier := d, false
	err = s.update(ctx, "decide", true, func(tx *sql.Tx, now int64) error {
		stands, earlier = d, false
		var prior []byte
		err := tx.QueryRowContext(ctx, `SELECT d FROM decisions WHERE session = ? AND key = ? ORDER BY seq LIMIT 1`, id, []byte(key)).Scan(&prior)
		switch {
		case err == nil:
			stands, earlier = prior, true
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if _, err := touch(ctx, tx, id, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO decisions(session, key, at, d) VALUES(?, ?, ?, ?)`, id, []byte(key), now, d); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM decisions WHERE session = ?1 AND seq <=
			(SELECT seq FROM decisions WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, DefaultDecisions)
		return err
	})
	return stands, earlier, err
}

// Decided is Decisions.Decided on the backing store; a store that keeps
// no decisions has none.
func (l *Lazy) Decided(ctx context.Context, id, key string) ([]byte, bool, error) {
	s, err := l.get()
	if err != nil {
		return nil, false, err
	}
	if d, ok := s.(Decisions); ok {
		return d.Decided(ctx, id, key)
	}
	return nil, false, nil
}

// Decide is Decisions.Decide on the backing store; a store that keeps
// no decisions lets d stand.
func (l *Lazy) Decide(ctx context.Context, id, key string, d []byte) ([]byte, bool, error) {
	s, err := l.get()
	if err != nil {
		return nil, false, err
	}
	if ds, ok := s.(Decisions); ok {
		return ds.Decide(ctx, id, key, d)
	}
	return d, false, nil
}
