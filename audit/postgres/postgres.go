package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolwall/toolwall/audit"
	sessionpg "github.com/toolwall/toolwall/session/postgres"
)

// DefaultSchema is the schema of the tables when Options.Schema is empty:
// the session store's (session/postgres.DefaultSchema).
const DefaultSchema = sessionpg.DefaultSchema

// DefaultPruneEvery is how often the store prunes by itself, at most, when
// Options.Retention is set (1 hour).
const DefaultPruneEvery = time.Hour

// metaKey is the row of the schema's meta table that holds the version
// of this store's tables.
const metaKey = "audit"

// MaxID is the longest decision id the store keeps, in bytes (an index
// entry holds at most about 2.7 KB; toolwall's ids are 32). A longer id
// is refused by Record, and an outcome for one is not found and not
// held.
const MaxID = 1024

// ErrHeld is returned by Outcome, wrapped, when no record has the
// decision id yet: the outcome is kept and attaches when the record is
// written. It matches audit.ErrNotFound too.
var ErrHeld = fmt.Errorf("%w (the outcome is held until a record with the id is written)", audit.ErrNotFound)

// migrations are the schema steps; migration i moves the version from i
// to i+1. Append, never edit. "S." stands for the quoted schema.
//
// A row of audit_records with data NULL is an outcome held for a record
// not written yet (its at: when the outcome came). rules are the
// record's rule ids (NULL when none), indexed for the rule filter.
var migrations = [][]string{
	{
		`CREATE TABLE S.audit_records (
			id      bytea PRIMARY KEY,
			at      bigint NOT NULL,
			driver  bytea NOT NULL DEFAULT ''::bytea,
			session bytea NOT NULL DEFAULT ''::bytea,
			call_id bytea NOT NULL DEFAULT ''::bytea,
			caller  bytea NOT NULL DEFAULT ''::bytea,
			tool    bytea NOT NULL DEFAULT ''::bytea,
			action  smallint NOT NULL DEFAULT 0,
			turn    integer NOT NULL DEFAULT 0,
			rules   bytea[],
			data    bytea,
			outcome bytea
		)`,
		`CREATE INDEX ON S.audit_records (at)`,
		`CREATE INDEX ON S.audit_records (session, at)`,
		`CREATE INDEX ON S.audit_records (session, call_id, at)`,
		`CREATE INDEX ON S.audit_records USING gin (rules)`,
		// Turn marks (audit.Store.Turn), in the order written.
		`CREATE TABLE S.audit_turns (
			seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			session bytea NOT NULL,
			turn    integer NOT NULL,
			at      bigint NOT NULL
		)`,
		`CREATE INDEX ON S.audit_turns (session, seq)`,
	},
}

// Options configure a Store. The zero value gives the defaults.
type Options struct {
	// Schema is the PostgreSQL schema of the tables (default
	// DefaultSchema); created when missing.
	Schema string
	// Retention, when positive, is how long records are kept: the store
	// prunes the older ones by itself (see PruneEvery). Zero: only
	// [Store.Prune] deletes.
	Retention time.Duration
	// PruneEvery is how often, at most, a process prunes by itself when
	// Retention is set (default DefaultPruneEvery).
	PruneEvery time.Duration
	// Now is the clock of held outcomes and of pruning (default
	// time.Now).
	Now func() time.Time
}

// Store is an [audit.Store] in PostgreSQL, shared by every process that
// opens the same database and schema. Create it with [Open] or [New]; it
// is safe for concurrent use.
type Store struct {
	pool      *pgxpool.Pool
	owned     bool
	opts      Options
	schema    string
	q         queries
	closed    atomic.Bool
	nextPrune atomic.Int64 // Unix microseconds
}

var _ audit.Store = (*Store)(nil)

// Open connects to the database named by dsn (a "postgres://" URL or
// "key=value" string; empty means libpq's PG* variables), migrates the
// schema and returns the store, which closes its pool in Close.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	pool, err := sessionpg.Connect(ctx, dsn, 0)
	if err != nil {
		return nil, fmt.Errorf("audit/postgres: %w", err)
	}
	s, err := New(ctx, pool, opts)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// New returns a store on pool (for example the session store's, so that
// one pool serves both), migrating the schema first. The caller keeps
// ownership of pool: Close leaves it open. A schema written by a newer
// toolwall is an error.
func New(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Store, error) {
	if opts.Schema == "" {
		opts.Schema = DefaultSchema
	}
	if opts.PruneEvery <= 0 {
		opts.PruneEvery = DefaultPruneEvery
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{pool: pool, opts: opts, schema: opts.Schema, q: newQueries(pgx.Identifier{opts.Schema}.Sanitize())}
	if err := sessionpg.Migrate(ctx, pool, s.schema, metaKey, migrations); err != nil {
		return nil, fmt.Errorf("audit/postgres: schema %q: %w", s.schema, err)
	}
	return s, nil
}

// Schema returns the PostgreSQL schema the store uses.
func (s *Store) Schema() string { return s.schema }

// queries are the store's statements with the schema filled in.
type queries struct {
	record, outcomeMany, callOutcome, turn, get string
	pruneRecords, pruneTurns                    string
}

// newQueries returns the statements for the quoted schema name.
func newQueries(schema string) queries {
	s := func(q string) string { return strings.ReplaceAll(q, "S.", schema+".") }
	return queries{
		// Records from arrays (rows locked in the order of their ids, so
		// that two batches never deadlock): a record without a turn
		// takes its session's latest mark; one whose id is stored is
		// ignored, unless that row is a held outcome, which it fills
		// (keeping the outcome). A record's rules are the slice of the
		// flattened $10 its offset and count name.
		record: s(`INSERT INTO S.audit_records AS r (id, at, driver, session, call_id, caller, tool, action, turn, rules, data, outcome)
			SELECT u.id, u.at, u.driver, u.session, u.call_id, u.caller, u.tool, u.action,
				CASE WHEN u.turn = 0 AND u.session <> ''::bytea
					THEN COALESCE((SELECT t.turn FROM S.audit_turns t WHERE t.session = u.session ORDER BY t.seq DESC LIMIT 1), 0)
					ELSE u.turn END,
				CASE WHEN u.nr = 0 THEN NULL ELSE ($10::bytea[])[u.ro + 1 : u.ro + u.nr] END,
				u.data, u.outcome
			FROM unnest($1::bytea[], $2::bigint[], $3::bytea[], $4::bytea[], $5::bytea[], $6::bytea[], $7::bytea[], $8::smallint[],
				$9::integer[], $11::integer[], $12::integer[], $13::bytea[], $14::bytea[])
				AS u(id, at, driver, session, call_id, caller, tool, action, turn, ro, nr, data, outcome)
			ORDER BY u.id
			ON CONFLICT (id) DO UPDATE SET at = excluded.at, driver = excluded.driver, session = excluded.session,
				call_id = excluded.call_id, caller = excluded.caller, tool = excluded.tool, action = excluded.action,
				turn = excluded.turn, rules = excluded.rules, data = excluded.data, outcome = COALESCE(r.outcome, excluded.outcome)
			WHERE r.data IS NULL`),
		// The outcome of each decision of $1 (in the order of the ids),
		// or a held outcome when no record has the id; returns whether
		// each record is there.
		outcomeMany: s(`INSERT INTO S.audit_records AS r (id, at, outcome)
			SELECT u.id, $3, u.outcome FROM unnest($1::bytea[], $2::bytea[]) AS u(id, outcome) ORDER BY u.id
			ON CONFLICT (id) DO UPDATE SET outcome = excluded.outcome
			RETURNING r.id, r.data IS NOT NULL`),
		callOutcome: s(`UPDATE S.audit_records SET outcome = $3 WHERE id =
			(SELECT id FROM S.audit_records WHERE session = $1 AND call_id = $2 AND data IS NOT NULL ORDER BY at DESC, id DESC LIMIT 1)`),
		turn: s(`INSERT INTO S.audit_turns (session, turn, at) VALUES ($1, $2, $3)`),
		get:  s(`SELECT turn, data, outcome FROM S.audit_records WHERE id = $1 AND data IS NOT NULL`),
		// The records (and held outcomes) before $1; counts the records.
		pruneRecords: s(`WITH d AS (DELETE FROM S.audit_records WHERE at < $1 RETURNING data IS NOT NULL AS rec)
			SELECT count(*) FILTER (WHERE rec) FROM d`),
		// A record took its turn when written: only each session's
		// latest mark is still read.
		pruneTurns: s(`DELETE FROM S.audit_turns t WHERE t.at < $1
			AND t.seq <> (SELECT max(l.seq) FROM S.audit_turns l WHERE l.session = t.session)`),
	}
}

// fail wraps an operation's error.
func fail(op string, err error) error {
	return fmt.Errorf("audit/postgres: %s: %w", op, err)
}

// open checks the store before an operation.
func (s *Store) open(ctx context.Context) error {
	if s.closed.Load() {
		return audit.ErrClosed
	}
	return ctx.Err()
}

// Record stores r. A record whose id is stored already is ignored; one
// of a session without a turn (Turn 0) takes the turn of the session's
// latest mark; an outcome held for its id attaches to it.
func (s *Store) Record(ctx context.Context, r audit.Record) error {
	return s.RecordMany(ctx, []audit.Record{r})
}

// RecordMany does what Record does for each of rs, in one statement (one
// round trip, one transaction: all are stored or none). When an id
// repeats in rs the first record wins, as with Record called in order.
// An empty rs is nothing to do.
func (s *Store) RecordMany(ctx context.Context, rs []audit.Record) error {
	if err := s.open(ctx); err != nil {
		return err
	}
	if len(rs) == 0 {
		return nil
	}
	var c columns
	seen := make(map[string]bool, len(rs))
	for _, r := range rs {
		if r.ID == "" || len(r.ID) > MaxID {
			return fmt.Errorf("audit/postgres: a record's id must have 1 to %d bytes, not %d", MaxID, len(r.ID))
		}
		if seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		if err := c.add(r); err != nil {
			return err
		}
	}
	s.maybePrune(ctx)
	if _, err := s.pool.Exec(ctx, s.q.record, c.id, c.at, c.driver, c.session, c.callID, c.caller, c.tool, c.action,
		c.turn, c.rules, c.ruleAt, c.ruleN, c.data, c.outcome); err != nil {
		return fail("record", err)
	}
	return nil
}

// columns are records as the arrays the record statement takes: one
// element per record, and the rule ids of all records flattened, each
// record naming where its own start (0-based) and how many it has.
type columns struct {
	id, driver, session, callID, caller, tool, data, outcome, rules [][]byte
	at                                                              []int64
	action                                                          []int16
	turn, ruleAt, ruleN                                             []int32
}

// add appends r.
func (c *columns) add(r audit.Record) error {
	var ob []byte
	if r.Outcome != nil {
		var err error
		if ob, err = json.Marshal(r.Outcome); err != nil {
			return fmt.Errorf("audit/postgres: %w", err)
		}
	}
	r.Outcome = nil
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("audit/postgres: %w", err)
	}
	c.id = append(c.id, []byte(r.ID))
	c.at = append(c.at, r.At.UnixMicro())
	c.driver, c.session, c.callID = append(c.driver, []byte(r.Driver)), append(c.session, []byte(r.Session)), append(c.callID, []byte(r.CallID))
	c.caller, c.tool = append(c.caller, []byte(r.Caller)), append(c.tool, []byte(r.Tool))
	c.action, c.turn = append(c.action, int16(r.Verdict.Action)), append(c.turn, int32(r.Turn))
	rules := r.Verdict.Rules()
	c.ruleAt, c.ruleN = append(c.ruleAt, int32(len(c.rules))), append(c.ruleN, int32(len(rules)))
	for _, rule := range rules {
		c.rules = append(c.rules, []byte(rule))
	}
	c.data, c.outcome = append(c.data, data), append(c.outcome, ob)
	return nil
}

// Outcome attaches o to decision id. When no record has the id, o is
// held and attaches when the record is written; the error then matches
// ErrHeld and audit.ErrNotFound.
func (s *Store) Outcome(ctx context.Context, id string, o audit.Outcome) error {
	held, err := s.OutcomeMany(ctx, []string{id}, []audit.Outcome{o})
	switch {
	case err != nil:
		return err
	case len(held) > 0 && len(id) > MaxID:
		return fmt.Errorf("audit/postgres: a decision id of %d bytes: %w", len(id), audit.ErrNotFound)
	case len(held) > 0:
		return fmt.Errorf("audit/postgres: decision %q: %w", id, ErrHeld)
	}
	return nil
}

// OutcomeMany does what Outcome does for each ids[i] and outs[i], in one
// statement (one round trip, one transaction), and returns the ids no
// record had, in the order given: their outcomes are held (but for ids
// longer than MaxID, which no record can have: those are dropped). When
// an id repeats the last outcome wins, as with Outcome called in order.
func (s *Store) OutcomeMany(ctx context.Context, ids []string, outs []audit.Outcome) (held []string, err error) {
	if err := s.open(ctx); err != nil {
		return nil, err
	}
	if len(outs) != len(ids) {
		return nil, fmt.Errorf("audit/postgres: %d ids, %d outcomes", len(ids), len(outs))
	}
	last := make(map[string]int, len(ids))
	for i, id := range ids {
		last[id] = i
	}
	var rawIDs, obs [][]byte
	missing := map[string]bool{}
	for i, id := range ids {
		if last[id] != i {
			continue
		}
		if len(id) > MaxID {
			missing[id] = true
			continue
		}
		ob, err := json.Marshal(outs[i])
		if err != nil {
			return nil, fmt.Errorf("audit/postgres: %w", err)
		}
		rawIDs, obs = append(rawIDs, []byte(id)), append(obs, ob)
	}
	if len(rawIDs) > 0 {
		if err := s.attach(ctx, rawIDs, obs, missing); err != nil {
			return nil, err
		}
	}
	for i, id := range ids {
		if last[id] == i && missing[id] {
			held = append(held, id)
		}
	}
	return held, nil
}

// attach runs the outcome statement and notes in missing the ids no
// record had.
func (s *Store) attach(ctx context.Context, ids, obs [][]byte, missing map[string]bool) error {
	rows, err := s.pool.Query(ctx, s.q.outcomeMany, ids, obs, s.opts.Now().UnixMicro())
	if err != nil {
		return fail("outcome", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id []byte
		var found bool
		if err := rows.Scan(&id, &found); err != nil {
			return fail("outcome", err)
		}
		if !found {
			missing[string(id)] = true
		}
	}
	if err := rows.Err(); err != nil {
		return fail("outcome", err)
	}
	return nil
}

// CallOutcome attaches o to the latest decision on the host's call
// callID in session; audit.ErrNotFound when there is none (nothing is
// held).
func (s *Store) CallOutcome(ctx context.Context, session, callID string, o audit.Outcome) error {
	if err := s.open(ctx); err != nil {
		return err
	}
	if callID == "" {
		return audit.ErrNotFound
	}
	ob, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("audit/postgres: %w", err)
	}
	tag, err := s.pool.Exec(ctx, s.q.callOutcome, []byte(session), []byte(callID), ob)
	if err != nil {
		return fail("call outcome", err)
	}
	if tag.RowsAffected() == 0 {
		return audit.ErrNotFound
	}
	return nil
}

// Turn marks session's turn turn, begun at at.
func (s *Store) Turn(ctx context.Context, session string, turn int, at time.Time) error {
	if session == "" || turn <= 0 {
		return fmt.Errorf("audit/postgres: turn %d of session %q", turn, session)
	}
	if err := s.open(ctx); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, s.q.turn, []byte(session), int32(turn), at.UnixMicro()); err != nil {
		return fail("turn", err)
	}
	return nil
}

// scan reads records from rows of turn, data and outcome.
func scan(rows pgx.Rows) ([]audit.Record, error) {
	defer rows.Close()
	var out []audit.Record
	for rows.Next() {
		var (
			turn     int32
			data, ob []byte
		)
		if err := rows.Scan(&turn, &data, &ob); err != nil {
			return nil, err
		}
		var r audit.Record
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("a stored record does not decode: %w", err)
		}
		r.Turn = int(turn)
		if ob != nil {
			var o audit.Outcome
			if err := json.Unmarshal(ob, &o); err != nil {
				return nil, fmt.Errorf("a stored outcome does not decode: %w", err)
			}
			r.Outcome = &o
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Query returns the records that match f, newest first (ties by id).
func (s *Store) Query(ctx context.Context, f audit.Filter) ([]audit.Record, error) {
	if err := s.open(ctx); err != nil {
		return nil, err
	}
	where := []string{"data IS NOT NULL"}
	var args []any
	add := func(cond string, a any) {
		args = append(args, a)
		where = append(where, strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(args))))
	}
	for _, c := range []struct{ col, v string }{{"session", f.Session}, {"tool", f.Tool}, {"caller", f.Caller}, {"driver", f.Driver}} {
		if c.v != "" {
			add(c.col+" = $?", []byte(c.v))
		}
	}
	if f.NoProbes {
		add("position($?::bytea in driver) <> 1", []byte(audit.ProbeDriver))
	}
	if len(f.Actions) > 0 {
		acts := make([]int16, len(f.Actions))
		for i, a := range f.Actions {
			acts[i] = int16(a)
		}
		add("action = ANY($?::smallint[])", acts)
	}
	if f.Rule != "" {
		add("rules @> ARRAY[$?::bytea]", []byte(f.Rule))
	}
	if !f.Since.IsZero() {
		add("at >= $?", f.Since.UnixMicro())
	}
	if !f.Until.IsZero() {
		add("at < $?", f.Until.UnixMicro())
	}
	q := `SELECT turn, data, outcome FROM ` + pgx.Identifier{s.schema, "audit_records"}.Sanitize() +
		` WHERE ` + strings.Join(where, " AND ") + ` ORDER BY at DESC, id ASC`
	if f.Limit > 0 {
		q += " LIMIT " + strconv.Itoa(f.Limit)
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fail("query", err)
	}
	out, err := scan(rows)
	if err != nil {
		return nil, fail("query", err)
	}
	return out, nil
}

// Get returns the record with decision id id, or audit.ErrNotFound (also
// when only an outcome is held for it).
func (s *Store) Get(ctx context.Context, id string) (audit.Record, error) {
	if err := s.open(ctx); err != nil {
		return audit.Record{}, err
	}
	rows, err := s.pool.Query(ctx, s.q.get, []byte(id))
	if err != nil {
		return audit.Record{}, fail("get", err)
	}
	rs, err := scan(rows)
	switch {
	case err != nil:
		return audit.Record{}, fail("get", err)
	case len(rs) == 0:
		return audit.Record{}, audit.ErrNotFound
	}
	return rs[0], nil
}

// Prune deletes the records decided before before, the outcomes held
// since before it, and the turn marks begun before it but each session's
// latest, in one transaction; it returns how many records it deleted.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	if err := s.open(ctx); err != nil {
		return 0, err
	}
	cut := before.UnixMicro()
	b := &pgx.Batch{}
	var n int64
	b.Queue(s.q.pruneRecords, cut).QueryRow(func(row pgx.Row) error { return row.Scan(&n) })
	b.Queue(s.q.pruneTurns, cut)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return 0, fail("prune", err)
	}
	return int(n), nil
}

// maybePrune prunes to the retention when this process has not for
// PruneEvery; a failure is left for the next time (the write goes on).
func (s *Store) maybePrune(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	now := s.opts.Now()
	next := s.nextPrune.Load()
	if now.UnixMicro() < next || !s.nextPrune.CompareAndSwap(next, now.Add(s.opts.PruneEvery).UnixMicro()) {
		return
	}
	_, _ = s.Prune(ctx, now.Add(-s.opts.Retention))
}

// Close marks the store closed (later calls fail with audit.ErrClosed)
// and closes the pool when Open opened it.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if s.owned {
		s.pool.Close()
	}
	return nil
}
