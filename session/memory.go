package session

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Memory is a [Store] held in process memory, for the library and the
// server. It is lost when the process exits. Create it with [NewMemory].
type Memory struct {
	opts Options

	mu        sync.Mutex
	closed    bool
	sessions  map[string]*memSession
	lastPrune time.Time
}

type memSession struct {
	turn     int
	seen     time.Time
	records  []Record
	refusals []memRefusal
	staged   []memStaged
	risk     []RiskEvent
	// decisions are the decisions remembered by the host's key for a
	// call (see Decisions).
	decisions []memDecision
}

// memStaged is one staged record.
type memStaged struct {
	key string
	r   Record
}

type memRefusal struct {
	key  string
	turn int
}

// NewMemory returns an empty in-memory store with opts (zero fields take
// their defaults; BusyTimeout is unused).
func NewMemory(opts Options) *Memory {
	return &Memory{opts: opts.withDefaults(), sessions: map[string]*memSession{}}
}

var _ Store = (*Memory)(nil)

// begin checks the arguments and the store, and locks it. On success the
// caller must unlock m.mu.
func (m *Memory) begin(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkID(id); err != nil {
		return err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// write returns the session id for a write at now, creating it, after an
// opportunistic prune. m.mu must be held.
func (m *Memory) write(id string, now time.Time) *memSession {
	now = micro(now)
	if m.opts.PruneEvery > 0 && now.Sub(m.lastPrune) >= m.opts.PruneEvery {
		m.prune(now, m.opts.Retention)
	}
	s := m.sessions[id]
	if s == nil {
		s = &memSession{}
		m.sessions[id] = s
	}
	s.seen = now
	return s
}

// Turn implements [Store.Turn].
func (m *Memory) Turn(ctx context.Context, id string) (int, error) {
	if err := m.begin(ctx, id); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	if s := m.sessions[id]; s != nil {
		return s.turn, nil
	}
	return 0, nil
}

// AdvanceTurn implements [Store.AdvanceTurn].
func (m *Memory) AdvanceTurn(ctx context.Context, id string) (int, error) {
	if err := m.begin(ctx, id); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	s := m.write(id, m.opts.Now())
	s.turn++
	return s.turn, nil
}

// Append implements [Store.Append].
func (m *Memory) Append(ctx context.Context, id string, r Record) error {
	if err := m.begin(ctx, id); err != nil {
		return err
	}
	defer m.mu.Unlock()
	now := m.opts.Now()
	s := m.write(id, now)
	r = normalize(r, now)
	r.Turn = s.turn
	s.records = append(s.records, r)
	if over := len(s.records) - m.opts.Calls; over > 0 {
		s.records = append(s.records[:0:0], s.records[over:]...)
	}
	return nil
}

// History implements [Store.History].
func (m *Memory) History(ctx context.Context, id string, w Window) ([]Record, error) {
	if err := m.begin(ctx, id); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return nil, nil
	}
	w = w.withDefaults()
	recs := s.records[max(0, len(s.records)-w.Calls):]
	var out []Record
	for _, r := range recs {
		if w.inside(r.Turn, s.turn) {
			out = append(out, clone(r))
		}
	}
	return out, nil
}

// NoteRefusal implements [Store.NoteRefusal].
func (m *Memory) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	key, err := checkKey(key)
	if err != nil {
		return 0, err
	}
	if err := m.begin(ctx, id); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	s := m.write(id, m.opts.Now())
	s.refusals = append(s.refusals, memRefusal{key: key, turn: s.turn})
	if over := len(s.refusals) - m.opts.Refusals; over > 0 {
		s.refusals = append(s.refusals[:0:0], s.refusals[over:]...)
	}
	n := 0
	for _, f := range s.refusals {
		if f.key == key {
			n++
		}
	}
	return n, nil
}

// Refusals implements [Store.Refusals].
func (m *Memory) Refusals(ctx context.Context, id, key string, w Window) (int, error) {
	key, err := checkKey(key)
	if err != nil {
		return 0, err
	}
	if err := m.begin(ctx, id); err != nil {
		return 0, err
	}
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return 0, nil
	}
	w = w.withDefaults()
	n := 0
	for _, f := range s.refusals[max(0, len(s.refusals)-w.Calls):] {
		if f.key == key && w.inside(f.turn, s.turn) {
			n++
		}
	}
	return n, nil
}

// Prune implements [Store.Prune].
func (m *Memory) Prune(ctx context.Context, idle time.Duration) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if idle <= 0 {
		idle = m.opts.Retention
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return 0, ErrClosed
	}
	return m.prune(micro(m.opts.Now()), idle), nil
}

// prune deletes sessions idle for longer than idle at now (in
// microseconds, as the SQLite store compares). m.mu must be held.
func (m *Memory) prune(now time.Time, idle time.Duration) int {
	m.lastPrune = now
	n := 0
	for id, s := range m.sessions {
		if now.Sub(s.seen) > idle {
			delete(m.sessions, id)
			n++
		}
	}
	return n
}

// Close implements [Store.Close]; it drops the memory.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.sessions = nil
	return nil
}

// Stage implements [Store.Stage].
func (m *Memory) Stage(ctx context.Context, id, key string, r Record) error {
	key, err := checkKey(key)
	if err != nil {
		return err
	}
	if err := m.begin(ctx, id); err != nil {
		return err
	}
	defer m.mu.Unlock()
	now := m.opts.Now()
	s := m.write(id, now)
	s.staged = slices.DeleteFunc(s.staged, func(x memStaged) bool { return x.key == key })
	s.staged = append(s.staged, memStaged{key: key, r: normalize(r, now)})
	if over := len(s.staged) - DefaultStaged; over > 0 {
		s.staged = append(s.staged[:0:0], s.staged[over:]...)
	}
	return nil
}

// Commit implements [Store.Commit].
func (m *Memory) Commit(ctx context.Context, id, key string, success bool) (bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return false, err
	}
	if err := m.begin(ctx, id); err != nil {
		return false, err
	}
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return false, nil
	}
	i := slices.IndexFunc(s.staged, func(x memStaged) bool { return x.key == key })
	if i < 0 {
		return false, nil
	}
	r := s.staged[i].r
	s.staged = slices.Delete(s.staged, i, i+1)
	s = m.write(id, m.opts.Now())
	r.Turn, r.Success = s.turn, success
	s.records = append(s.records, r)
	if over := len(s.records) - m.opts.Calls; over > 0 {
		s.records = append(s.records[:0:0], s.records[over:]...)
	}
	return true, nil
}

// NoteRisk implements [Store.NoteRisk].
func (m *Memory) NoteRisk(ctx context.Context, id string, e RiskEvent) error {
	e, err := normalizeRisk(e, m.opts.Now())
	if err != nil {
		return err
	}
	if err := m.begin(ctx, id); err != nil {
		return err
	}
	defer m.mu.Unlock()
	s := m.write(id, m.opts.Now())
	e.Turn = s.turn
	s.risk = append(s.risk, e)
	if over := len(s.risk) - DefaultRiskEvents; over > 0 {
		s.risk = append(s.risk[:0:0], s.risk[over:]...)
	}
	return nil
}

// Risk implements [Store.Risk].
func (m *Memory) Risk(ctx context.Context, id string) (RiskLog, error) {
	if err := m.begin(ctx, id); err != nil {
		return RiskLog{}, err
	}
	defer m.mu.Unlock()
	s := m.sessions[id]
	if s == nil {
		return RiskLog{}, nil
	}
	return RiskLog{Turn: s.turn, Events: slices.Clone(s.risk)}, nil
}
