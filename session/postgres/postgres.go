package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// DefaultSchema is the PostgreSQL schema the store keeps its tables in
// when Options.Schema is empty.
const DefaultSchema = "toolwall"

// migrations are the schema steps; migration i moves the version kept in
// meta from i to i+1. Append new steps, never edit old ones. "S." stands
// for the schema, quoted.
//
// Times are Unix microseconds (UTC), taken from the store's clock
// (session.Options.Now) so that every replica and the conformance suite
// agree with the clock they were given. Byte strings the host controls
// (session id, tool, summary, input, keys, effects, rules) are bytea so
// any bytes round-trip, invalid UTF-8 and NUL included. A record's
// effects are three parallel arrays (tag, path, detail); an empty list is
// NULL. Records, refusals and staged calls are ordered by seq.
var migrations = [][]string{
	{
		`CREATE TABLE S.sessions (
			id   bytea PRIMARY KEY,
			turn integer NOT NULL,
			seen bigint NOT NULL
		)`,
		`CREATE INDEX ON S.sessions (seen)`,
		`CREATE TABLE S.records (
			seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			session        bytea NOT NULL,
			turn           integer NOT NULL,
			at             bigint NOT NULL,
			success        boolean NOT NULL,
			tool           bytea NOT NULL,
			summary        bytea NOT NULL,
			input          bytea,
			effect_tags    bytea[],
			effect_paths   bytea[],
			effect_details bytea[],
			rules          bytea[]
		)`,
		`CREATE INDEX ON S.records (session, seq)`,
		`CREATE TABLE S.refusals (
			seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			session bytea NOT NULL,
			key     bytea NOT NULL,
			turn    integer NOT NULL,
			at      bigint NOT NULL
		)`,
		`CREATE INDEX ON S.refusals (session, seq)`,
		`CREATE TABLE S.staged (
			seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			session        bytea NOT NULL,
			key            bytea NOT NULL,
			at             bigint NOT NULL,
			tool           bytea NOT NULL,
			summary        bytea NOT NULL,
			input          bytea,
			effect_tags    bytea[],
			effect_paths   bytea[],
			effect_details bytea[],
			rules          bytea[]
		)`,
		`CREATE INDEX ON S.staged (session, key)`,
	},
	{
		// Trajectory risk events.
		`CREATE TABLE S.risk (
			seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			session  bytea NOT NULL,
			turn     integer NOT NULL,
			at       bigint NOT NULL,
			points   integer NOT NULL,
			setlevel boolean NOT NULL,
			caller   bytea NOT NULL,
			why      bytea NOT NULL
		)`,
		`CREATE INDEX ON S.risk (session, seq)`,
	},
}

// Options configure a store. The zero value gives the defaults.
type Options struct {
	// Session are the store options every store shares: caps per
	// session, retention, prune schedule and clock (BusyTimeout is
	// unused).
	Session session.Options
	// Schema is the PostgreSQL schema for the tables (default
	// DefaultSchema). It is created when missing, so the role needs the
	// CREATE privilege on the database the first time.
	Schema string
	// MaxConns bounds the pool New opens (default pgxpool's: the greater
	// of 4 and the number of CPUs).
	MaxConns int32
}

// Store is a [session.Store] in PostgreSQL, shared by every process that
// opens the same database and schema: replicas of the HTTP server behind a
// load balancer see one session memory, so a download recorded by one
// arms a chain rule on another. Create it with [Open] or [New].
type Store struct {
	pool   *pgxpool.Pool
	owned  bool // the pool was opened by Open and is closed by Close
	opts   session.Options
	schema string
	q      queries

	closed atomic.Bool
	// nextPrune is the Unix microsecond before which writes skip the
	// opportunistic prune check.
	nextPrune atomic.Int64
}

var _ session.Store = (*Store)(nil)

// Open connects to the database named by dsn (a "postgres://" URL or
// "key=value" string; empty means libpq's PG* environment variables, as
// pgx reads them), migrates the schema and returns the store, which owns
// the pool and closes it in Close. Any failure matches
// [session.ErrUnavailable].
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	pool, err := Connect(ctx, dsn, opts.MaxConns)
	if err != nil {
		return nil, fmt.Errorf("session/postgres: %w: %w", session.ErrUnavailable, err)
	}
	s, err := New(ctx, pool, opts)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// Connect opens a pool on the database named by dsn (a "postgres://" URL
// or "key=value" string; empty means libpq's PG* variables), of at most
// maxConns connections when maxConns > 0 (else pgxpool's default). The
// session, approval and audit stores' Open use it; the caller closes the
// pool.
func Connect(ctx context.Context, dsn string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parsing the connection string: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

// New returns a store on pool, migrating the schema first (replicas
// starting together take turns through an advisory lock). The caller keeps
// ownership of pool: Close does not close it. Any failure matches
// [session.ErrUnavailable]; a schema written by a newer toolwall is an
// error too.
func New(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Store, error) {
	schema := opts.Schema
	if schema == "" {
		schema = DefaultSchema
	}
	s := &Store{pool: pool, opts: opts.Session.WithDefaults(), schema: schema}
	s.q = newQueries(pgx.Identifier{schema}.Sanitize())
	if err := s.migrate(ctx); err != nil {
		return nil, fmt.Errorf("session/postgres: %w: schema %q: %w", session.ErrUnavailable, schema, err)
	}
	return s, nil
}

// migrate brings the sessions' tables to len(migrations).
func (s *Store) migrate(ctx context.Context) error {
	return Migrate(ctx, s.pool, s.schema, "schema", migrations)
}

// Migrate brings one part of toolwall's tables in schema to version
// len(steps), in one transaction under the schema's advisory lock (so
// that replicas starting together migrate once). key names the part in
// the schema's meta table ("schema" for the sessions, "approvals" for
// approval/postgres); step i moves it from version i to i+1, and its
// statements name the schema as "S." (replaced with the quoted name). A
// version newer than len(steps) (a newer toolwall wrote it) is an error.
func Migrate(ctx context.Context, pool *pgxpool.Pool, schema, key string, steps [][]string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	name := pgx.Identifier{schema}.Sanitize()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "toolwall.session:"+schema); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+name); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+name+`.meta (k text PRIMARY KEY, v bigint NOT NULL)`); err != nil {
		return err
	}
	var v int
	err = tx.QueryRow(ctx, `SELECT v FROM `+name+`.meta WHERE k = $1`, key).Scan(&v)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if v > len(steps) {
		return fmt.Errorf("%s version %d is newer than this toolwall's %d", key, v, len(steps))
	}
	if v == len(steps) {
		return tx.Commit(ctx)
	}
	for _, m := range steps[v:] {
		for _, stmt := range m {
			if _, err := tx.Exec(ctx, strings.ReplaceAll(stmt, "S.", name+".")); err != nil {
				return fmt.Errorf("migrating %s from version %d: %w", key, v, err)
			}
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO `+name+`.meta (k, v) VALUES ($1, $2)
		ON CONFLICT (k) DO UPDATE SET v = excluded.v`, key, len(steps)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// Schema returns the PostgreSQL schema the store uses.
func (s *Store) Schema() string { return s.schema }

// fail wraps an operation's error: context errors as they are, the rest
// as session.ErrUnavailable.
func (s *Store) fail(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("session/postgres: %s: %w", op, err)
	}
	return fmt.Errorf("session/postgres: %s: %w: %w", op, session.ErrUnavailable, err)
}

// check validates id and the store before an operation.
func (s *Store) check(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := session.CheckID(id); err != nil {
		return err
	}
	if s.closed.Load() {
		return session.ErrClosed
	}
	return nil
}

func (s *Store) now() int64 { return s.opts.Now().UnixMicro() }

// batch runs the statements of b in one round trip and one implicit
// transaction (all or nothing), after an opportunistic prune. When read is
// set it reads the result of statement at; the others are executed.
func (s *Store) batch(ctx context.Context, op string, b *pgx.Batch, at int, read func(pgx.BatchResults) error) error {
	if err := s.maybePrune(ctx); err != nil {
		return s.fail(op, err)
	}
	br := s.pool.SendBatch(ctx, b)
	var err error
	for i := range b.Len() {
		if i == at && read != nil {
			err = read(br)
		} else {
			_, err = br.Exec()
		}
		if err != nil {
			break
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return s.fail(op, err)
	}
	return nil
}

// maybePrune prunes idle sessions when the last prune recorded in the
// database is at least PruneEvery old; between checks a process skips the
// query.
func (s *Store) maybePrune(ctx context.Context) error {
	now := s.now()
	if s.opts.PruneEvery < 0 || now < s.nextPrune.Load() {
		return nil
	}
	every := s.opts.PruneEvery.Microseconds()
	var last int64
	err := s.pool.QueryRow(ctx, s.q.lastPrune).Scan(&last)
	switch {
	case err == nil && now-last < every:
		s.nextPrune.Store(last + every)
		return nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return err
	}
	if _, err := s.prune(ctx, now, s.opts.Retention); err != nil {
		return err
	}
	s.nextPrune.Store(now + every)
	return nil
}

// prune deletes the sessions not written since now-idle with everything
// they hold, and notes the time in meta, in one transaction.
func (s *Store) prune(ctx context.Context, now int64, idle time.Duration) (int, error) {
	cut := now - idle.Microseconds()
	var n int
	b := &pgx.Batch{}
	for _, q := range s.q.prune {
		b.Queue(q, cut)
	}
	b.Queue(s.q.notePrune, now)
	br := s.pool.SendBatch(ctx, b)
	var err error
	for i := range b.Len() {
		var tag interface{ RowsAffected() int64 }
		tag, err = br.Exec()
		if err != nil {
			break
		}
		if i == len(s.q.prune)-1 {
			n = int(tag.RowsAffected())
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// Turn implements [session.Store.Turn].
func (s *Store) Turn(ctx context.Context, id string) (int, error) {
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var turn int
	err := s.pool.QueryRow(ctx, s.q.turn, []byte(id)).Scan(&turn)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, s.fail("turn", err)
	}
	return turn, nil
}

// AdvanceTurn implements [session.Store.AdvanceTurn].
func (s *Store) AdvanceTurn(ctx context.Context, id string) (int, error) {
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var turn int
	b := &pgx.Batch{}
	b.Queue(s.q.advance, []byte(id), s.now())
	err := s.batch(ctx, "advance turn", b, 0, func(br pgx.BatchResults) error { return br.QueryRow().Scan(&turn) })
	return turn, err
}

// effectColumns splits effects into the three parallel arrays stored; all
// nil when there are none.
func effectColumns(es []toolwall.Effect) (tags, paths, details [][]byte) {
	for _, e := range es {
		tags = append(tags, []byte(e.Tag))
		paths = append(paths, []byte(e.Path))
		details = append(details, []byte(e.Detail))
	}
	return tags, paths, details
}

// ruleColumn is the stored form of rules; nil when there are none.
func ruleColumn(rs []string) [][]byte {
	var out [][]byte
	for _, r := range rs {
		out = append(out, []byte(r))
	}
	return out
}

// Append implements [session.Store.Append].
func (s *Store) Append(ctx context.Context, id string, r session.Record) error {
	if err := s.check(ctx, id); err != nil {
		return err
	}
	now := s.now()
	r = session.Normalize(r, time.UnixMicro(now))
	tags, paths, details := effectColumns(r.Effects)
	b := &pgx.Batch{}
	b.Queue(s.q.appendRecord, []byte(id), now, r.At.UnixMicro(), r.Success, []byte(r.Tool), []byte(r.Summary),
		nilIfEmpty(r.Input), tags, paths, details, ruleColumn(r.Rules))
	b.Queue(s.q.capRecords, []byte(id), s.opts.Calls)
	return s.batch(ctx, "append", b, -1, nil)
}

// nilIfEmpty keeps an empty input NULL.
func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// History implements [session.Store.History].
func (s *Store) History(ctx context.Context, id string, w session.Window) ([]session.Record, error) {
	if err := s.check(ctx, id); err != nil {
		return nil, err
	}
	w = w.WithDefaults()
	rows, err := s.pool.Query(ctx, s.q.history, []byte(id), w.Turns, w.Calls)
	if err != nil {
		return nil, s.fail("history", err)
	}
	defer rows.Close()
	var out []session.Record
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return nil, s.fail("history", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("history", err)
	}
	slices.Reverse(out)
	return out, nil
}

// scanRecord reads a record from the columns turn, at, success, tool,
// summary, input and the effect and rule arrays, after any columns
// named in more.
func scanRecord(rows pgx.Rows, more ...any) (session.Record, error) {
	var (
		r                    session.Record
		at                   int64
		tool, summary, input []byte
		// FlatArray scans without the reflection a [][]byte costs pgx
		// (a tenth of a batch's CPU in the server's load test).
		tags, paths, details, R pgtype.FlatArray[[]byte]
	)
	if err := rows.Scan(append(more, &r.Turn, &at, &r.Success, &tool, &summary, &input, &tags, &paths, &details, &R)...); err != nil {
		return r, err
	}
	r.At = time.UnixMicro(at).UTC()
	r.Tool, r.Summary = string(tool), string(summary)
	if input != nil {
		r.Input = input
	}
	if len(tags) != len(paths) || len(tags) != len(details) {
		return r, errors.New("effect columns of different lengths")
	}
	for i := range tags {
		r.Effects = append(r.Effects, toolwall.Effect{Tag: toolwall.Tag(tags[i]), Path: string(paths[i]), Detail: string(details[i])})
	}
	for _, x := range R {
		r.Rules = append(r.Rules, string(x))
	}
	return r, nil
}

// NoteRefusal implements [session.Store.NoteRefusal].
func (s *Store) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	key, err := session.CheckKey(key)
	if err != nil {
		return 0, err
	}
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var n int
	b := &pgx.Batch{}
	b.Queue(s.q.refuse, []byte(id), s.now(), []byte(key))
	b.Queue(s.q.capRefusals, []byte(id), s.opts.Refusals)
	b.Queue(s.q.countRefusals, []byte(id), []byte(key))
	err = s.batch(ctx, "note refusal", b, 2, func(br pgx.BatchResults) error { return br.QueryRow().Scan(&n) })
	return n, err
}

// Refusals implements [session.Store.Refusals].
func (s *Store) Refusals(ctx context.Context, id, key string, w session.Window) (int, error) {
	key, err := session.CheckKey(key)
	if err != nil {
		return 0, err
	}
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	w = w.WithDefaults()
	var n int
	if err := s.pool.QueryRow(ctx, s.q.refusals, []byte(id), w.Turns, w.Calls, []byte(key)).Scan(&n); err != nil {
		return 0, s.fail("refusals", err)
	}
	return n, nil
}

// Stage implements [session.Store.Stage].
func (s *Store) Stage(ctx context.Context, id, key string, r session.Record) error {
	key, err := session.CheckKey(key)
	if err != nil {
		return err
	}
	if err := s.check(ctx, id); err != nil {
		return err
	}
	now := s.now()
	r = session.Normalize(r, time.UnixMicro(now))
	tags, paths, details := effectColumns(r.Effects)
	b := &pgx.Batch{}
	b.Queue(s.q.touch, []byte(id), now)
	b.Queue(s.q.unstage, []byte(id), []byte(key))
	b.Queue(s.q.stage, []byte(id), []byte(key), r.At.UnixMicro(), []byte(r.Tool), []byte(r.Summary),
		nilIfEmpty(r.Input), tags, paths, details, ruleColumn(r.Rules))
	b.Queue(s.q.capStaged, []byte(id), session.DefaultStaged)
	return s.batch(ctx, "stage", b, -1, nil)
}

// Commit implements [session.Store.Commit].
func (s *Store) Commit(ctx context.Context, id, key string, success bool) (bool, error) {
	key, err := session.CheckKey(key)
	if err != nil {
		return false, err
	}
	if err := s.check(ctx, id); err != nil {
		return false, err
	}
	found := false
	b := &pgx.Batch{}
	b.Queue(s.q.commit, []byte(id), []byte(key), success, s.now())
	b.Queue(s.q.capRecords, []byte(id), s.opts.Calls)
	err = s.batch(ctx, "commit", b, 0, func(br pgx.BatchResults) error {
		tag, err := br.Exec()
		found = tag.RowsAffected() == 1
		return err
	})
	return found, err
}

// NoteRisk implements [session.Store.NoteRisk].
func (s *Store) NoteRisk(ctx context.Context, id string, e session.RiskEvent) error {
	now := s.now()
	e, err := session.NormalizeRisk(e, time.UnixMicro(now))
	if err != nil {
		return err
	}
	if err := s.check(ctx, id); err != nil {
		return err
	}
	b := &pgx.Batch{}
	b.Queue(s.q.noteRisk, []byte(id), now, e.At.UnixMicro(), e.Points, e.Set, []byte(e.Caller), []byte(e.Why))
	b.Queue(s.q.capRisk, []byte(id), session.DefaultRiskEvents)
	return s.batch(ctx, "note risk", b, -1, nil)
}

// Risk implements [session.Store.Risk]: the turn and the events in one
// statement, so they agree.
func (s *Store) Risk(ctx context.Context, id string) (session.RiskLog, error) {
	if err := s.check(ctx, id); err != nil {
		return session.RiskLog{}, err
	}
	var out session.RiskLog
	rows, err := s.pool.Query(ctx, s.q.risk, []byte(id))
	if err != nil {
		return out, s.fail("risk", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			turn, points *int32
			at           *int64
			set          *bool
			caller, why  []byte
			cur          int
		)
		if err := rows.Scan(&cur, &turn, &at, &points, &set, &caller, &why); err != nil {
			return session.RiskLog{}, s.fail("risk", err)
		}
		out.Turn = cur
		if turn == nil {
			continue // the session has no events: the one row of the outer join
		}
		out.Events = append(out.Events, session.RiskEvent{Turn: int(*turn), At: time.UnixMicro(*at).UTC(),
			Points: int(*points), Set: *set, Caller: string(caller), Why: string(why)})
	}
	if err := rows.Err(); err != nil {
		return session.RiskLog{}, s.fail("risk", err)
	}
	return out, nil
}

// Prune implements [session.Store.Prune].
func (s *Store) Prune(ctx context.Context, idle time.Duration) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if s.closed.Load() {
		return 0, session.ErrClosed
	}
	if idle <= 0 {
		idle = s.opts.Retention
	}
	n, err := s.prune(ctx, s.now(), idle)
	if err != nil {
		return 0, s.fail("prune", err)
	}
	return n, nil
}

// Close implements [session.Store.Close]: it closes the pool when Open
// opened it. Calling it again does nothing.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if s.owned {
		s.pool.Close()
	}
	return nil
}

// Pool returns the store's connection pool, for a store that keeps its
// tables beside the session memory's on the same connections (the
// approvals of approval/postgres). It stays the session store's: Close
// closes it when Open opened it.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
