package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	sessionpg "github.com/toolwall/toolwall/session/postgres"
)

// DefaultSchema is the schema of the table when Options.Schema is empty:
// the session store's (session/postgres.DefaultSchema).
const DefaultSchema = "toolwall"

// DefaultPruneEvery is how often Check prunes by itself (1 hour).
const DefaultPruneEvery = time.Hour

// metaKey is the row of the schema's meta table that holds the version
// of this store's tables (the session store's is "schema").
const metaKey = "approvals"

// migrations are the schema steps; migration i moves the version from i
// to i+1. Append, never edit. "S." stands for the quoted schema.
//
// kind is 'pending' or 'grant'; expires is 0 for a grant without a TTL.
// Lookups go newest first by seq: a grant by key, an entry by decision,
// an entry by session and call id.
var migrations = [][]string{
	{
		`CREATE TABLE S.approvals (
			seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
			kind        text NOT NULL CHECK (kind IN ('pending', 'grant')),
			decision    bytea NOT NULL,
			key         bytea NOT NULL,
			session     bytea NOT NULL,
			call_id     bytea NOT NULL,
			caller      bytea NOT NULL,
			cwd         bytea NOT NULL,
			tool        bytea NOT NULL,
			summary     bytea NOT NULL,
			confirmable boolean NOT NULL,
			at          bigint NOT NULL,
			expires     bigint NOT NULL,
			by          bytea NOT NULL
		)`,
		`CREATE INDEX ON S.approvals (key, seq) WHERE kind = 'grant'`,
		`CREATE INDEX ON S.approvals (decision, seq)`,
		`CREATE INDEX ON S.approvals (session, call_id, seq)`,
		`CREATE INDEX ON S.approvals (at)`,
		// An ask is granted once, whichever replica grants it.
		`CREATE UNIQUE INDEX ON S.approvals (decision) WHERE kind = 'grant'`,
	},
}

// Options configure a Store. The zero value gives the defaults.
type Options struct {
	// Approval are the rules every approvals store shares: TTL of a
	// grant, retention, clock.
	Approval approval.Options
	// Schema is the PostgreSQL schema of the table (default
	// DefaultSchema); created when missing.
	Schema string
	// PruneEvery is how often Check prunes, at most, in this process
	// (default DefaultPruneEvery; negative: never, call Prune).
	PruneEvery time.Duration
}

// Store is an [approval.Keeper] in PostgreSQL, shared by every process
// that opens the same database and schema. Create it with [Open] or
// [New]; it is safe for concurrent use.
type Store struct {
	pool      *pgxpool.Pool
	owned     bool
	opts      approval.Options
	every     time.Duration
	schema    string
	q         queries
	nextPrune atomic.Int64 // Unix microseconds
}

var _ approval.Keeper = (*Store)(nil)

// Open connects to the database named by dsn (a "postgres://" URL or
// "key=value" string; empty means libpq's PG* variables), migrates the
// schema and returns the store, which closes its pool in Close.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	pool, err := sessionpg.Connect(ctx, dsn, 0)
	if err != nil {
		return nil, fmt.Errorf("approval/postgres: %w", err)
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
// ownership of pool. A schema written by a newer toolwall is an error.
func New(ctx context.Context, pool *pgxpool.Pool, opts Options) (*Store, error) {
	schema := opts.Schema
	if schema == "" {
		schema = DefaultSchema
	}
	every := opts.PruneEvery
	if every == 0 {
		every = DefaultPruneEvery
	}
	s := &Store{pool: pool, opts: opts.Approval.WithDefaults(), every: every, schema: schema}
	s.q = newQueries(pgx.Identifier{schema}.Sanitize())
	if err := s.migrate(ctx); err != nil {
		return nil, fmt.Errorf("approval/postgres: schema %q: %w", schema, err)
	}
	return s, nil
}

// migrate brings the table to len(migrations), under the advisory lock
// session/postgres takes for the same schema.
func (s *Store) migrate(ctx context.Context) error {
	return sessionpg.Migrate(ctx, s.pool, s.schema, metaKey, migrations)
}

// queries are the store's statements with the schema filled in.
type queries struct {
	check, grantBy, confirm, pending, grants, prune string
}

// cols are an entry's columns, in the order scan reads them.
const cols = `kind, decision, key, session, call_id, caller, cwd, tool, summary, confirmable, at, expires, by`

// newQueries returns the statements for the quoted schema name.
func newQueries(schema string) queries {
	s := func(q string) string { return strings.ReplaceAll(q, "S.", schema+".") }
	const grantFrom = `INSERT INTO S.approvals (` + cols + `)
		SELECT 'grant', decision, key, session, call_id, caller, cwd, tool, summary, confirmable, $3::bigint, $4::bigint, $5::bytea FROM `
	return queries{
		// The newest live grant for the key, or else a new pending entry,
		// in one statement ($1 now, $2 cut, $3.. the entry).
		check: s(`WITH g AS (
				SELECT ` + cols + ` FROM S.approvals
				WHERE key = $3::bytea AND kind = 'grant' AND at >= $2::bigint AND (expires = 0 OR expires > $1::bigint)
				ORDER BY seq DESC LIMIT 1),
			p AS (
				INSERT INTO S.approvals (` + cols + `)
				SELECT 'pending', $4::bytea, $3::bytea, $5::bytea, $6::bytea, $7::bytea, $8::bytea, $9::bytea, $10::bytea, $11::boolean,
					$1::bigint, 0, ''::bytea
				WHERE NOT EXISTS (SELECT 1 FROM g))
			SELECT ` + cols + ` FROM g`),
		// The pending ask of decision $1 (its newest entry within the
		// retention, $2) granted at $3 until $4 by $5; no row when the
		// newest entry is not pending or the ask was granted already.
		grantBy: s(grantFrom + `(SELECT * FROM S.approvals WHERE decision = $1 AND at >= $2 ORDER BY seq DESC LIMIT 1) p
			WHERE p.kind = 'pending'
			ON CONFLICT DO NOTHING RETURNING ` + cols),
		// The same for the newest entry of session $1 and call id $6,
		// when it is a confirmable pending ask.
		confirm: s(grantFrom + `(SELECT * FROM S.approvals WHERE session = $1 AND call_id = $6 AND at >= $2 ORDER BY seq DESC LIMIT 1) p
			WHERE p.kind = 'pending' AND p.confirmable
			ON CONFLICT DO NOTHING RETURNING ` + cols),
		pending: s(`SELECT ` + cols + ` FROM S.approvals WHERE decision = $1 AND at >= $2 ORDER BY seq DESC LIMIT 1`),
		grants: s(`SELECT ` + cols + ` FROM S.approvals
			WHERE kind = 'grant' AND at >= $2 AND (expires = 0 OR expires > $1) ORDER BY at DESC, seq`),
		prune: s(`DELETE FROM S.approvals WHERE at < $2 OR (kind = 'grant' AND expires <> 0 AND expires <= $1)`),
	}
}

// scan reads an entry from the columns cols.
func scan(row pgx.Row) (approval.Entry, error) {
	var (
		e                                                      approval.Entry
		decision, key, session, callID, caller, cwd, tool, sum []byte
		by                                                     []byte
		at, expires                                            int64
	)
	if err := row.Scan(&e.Type, &decision, &key, &session, &callID, &caller, &cwd, &tool, &sum, &e.Confirmable, &at, &expires, &by); err != nil {
		return e, err
	}
	e.Decision, e.Key, e.Session, e.CallID, e.Caller = string(decision), string(key), string(session), string(callID), string(caller)
	e.Cwd, e.Tool, e.Summary, e.By = string(cwd), string(tool), string(sum), string(by)
	e.At = time.UnixMicro(at).UTC()
	if expires != 0 {
		e.Expires = time.UnixMicro(expires).UTC()
	}
	return e, nil
}

// times returns now and the retention's cut, in Unix microseconds.
func (s *Store) times() (now time.Time, nowUS, cutUS int64) {
	now = s.opts.Now()
	return now, now.UnixMicro(), now.Add(-s.opts.Retention).UnixMicro()
}

// fail wraps an operation's error.
func fail(op string, err error) error {
	return fmt.Errorf("approval/postgres: %s: %w", op, err)
}

// Check implements [approval.Keeper.Check]: one statement reads the
// newest live grant of the call's key and, when there is none, notes
// the ask pending.
func (s *Store) Check(ctx context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error) {
	if v.Action != toolwall.Ask {
		return v, nil
	}
	now, nowUS, cutUS := s.times()
	s.maybePrune(ctx, nowUS)
	p := approval.NewPending(decision, call, confirmable, now)
	g, err := scan(s.pool.QueryRow(ctx, s.q.check, nowUS, cutUS, []byte(p.Key), []byte(p.Decision), []byte(p.Session),
		[]byte(p.CallID), []byte(p.Caller), []byte(p.Cwd), []byte(p.Tool), []byte(p.Summary), p.Confirmable))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return v, nil // noted pending
	case err != nil:
		return v, fail("check", err)
	}
	return g.Allow(v), nil
}

// maybePrune prunes when this process has not for PruneEvery; a failure
// is left for the next time (Check goes on).
func (s *Store) maybePrune(ctx context.Context, nowUS int64) {
	next := s.nextPrune.Load()
	if s.every < 0 || nowUS < next || !s.nextPrune.CompareAndSwap(next, nowUS+s.every.Microseconds()) {
		return
	}
	_, _ = s.Prune(ctx)
}

// grant runs a grant statement and returns the grant, or
// approval.ErrNotPending when it granted nothing.
func (s *Store) grant(ctx context.Context, op, q string, sel []byte, by string, extra ...any) (approval.Entry, error) {
	now, nowUS, cutUS := s.times()
	var expires int64
	if s.opts.TTL > 0 {
		expires = now.Add(s.opts.TTL).UnixMicro()
	}
	g, err := scan(s.pool.QueryRow(ctx, q, append([]any{sel, cutUS, nowUS, expires, []byte(by)}, extra...)...))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return approval.Entry{}, approval.ErrNotPending
	case err != nil:
		return approval.Entry{}, fail(op, err)
	}
	return g, nil
}

// Confirm implements [approval.Keeper.Confirm].
func (s *Store) Confirm(ctx context.Context, session, callID, by string) (bool, error) {
	if callID == "" {
		return false, nil
	}
	_, err := s.grant(ctx, "confirm", s.q.confirm, []byte(session), by, []byte(callID))
	if errors.Is(err, approval.ErrNotPending) {
		return false, nil
	}
	return err == nil, err
}

// Pending implements [approval.Keeper.Pending].
func (s *Store) Pending(ctx context.Context, decision string) (approval.Entry, error) {
	_, _, cutUS := s.times()
	e, err := scan(s.pool.QueryRow(ctx, s.q.pending, []byte(decision), cutUS))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return approval.Entry{}, approval.ErrNotPending
	case err != nil:
		return approval.Entry{}, fail("pending", err)
	case e.Type != approval.TypePending:
		return approval.Entry{}, approval.ErrNotPending
	}
	return e, nil
}

// Approve implements [approval.Keeper.Approve]: in one statement, so of
// two replicas approving the same ask at once one grants and the other
// gets approval.ErrNotPending.
func (s *Store) Approve(ctx context.Context, decision, by string) (approval.Entry, error) {
	return s.grant(ctx, "approve", s.q.grantBy, []byte(decision), by)
}

// Grants implements [approval.Keeper.Grants].
func (s *Store) Grants(ctx context.Context) ([]approval.Entry, error) {
	_, nowUS, cutUS := s.times()
	rows, err := s.pool.Query(ctx, s.q.grants, nowUS, cutUS)
	if err != nil {
		return nil, fail("grants", err)
	}
	defer rows.Close()
	var out []approval.Entry
	for rows.Next() {
		e, err := scan(rows)
		if err != nil {
			return nil, fail("grants", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("grants", err)
	}
	return out, nil
}

// Prune implements [approval.Keeper.Prune].
func (s *Store) Prune(ctx context.Context) (int, error) {
	_, nowUS, cutUS := s.times()
	tag, err := s.pool.Exec(ctx, s.q.prune, nowUS, cutUS)
	if err != nil {
		return 0, fail("prune", err)
	}
	return int(tag.RowsAffected()), nil
}

// Schema returns the PostgreSQL schema the store uses.
func (s *Store) Schema() string { return s.schema }

// Close closes the pool when Open opened it.
func (s *Store) Close() error {
	if s.owned {
		s.pool.Close()
	}
	return nil
}
