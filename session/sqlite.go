package session

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/toolwall/toolwall/internal/sqliteschema"
)

// migrations are the schema steps; migration i moves PRAGMA user_version
// from i to i+1. Append new steps, never edit old ones.
//
// Times are Unix microseconds (UTC). Byte strings the host controls (tool,
// summary, input, refusal key) are BLOBs so any bytes round-trip;
// effects and rules use the encoding in codec.go. Records and refusals
// are ordered by seq, which grows with every insert.
var migrations = [][]string{
	{
		`CREATE TABLE sessions (
			id   TEXT PRIMARY KEY,
			turn INTEGER NOT NULL,
			seen INTEGER NOT NULL
		) WITHOUT ROWID`,
		`CREATE INDEX sessions_seen ON sessions(seen)`,
		`CREATE TABLE records (
			seq     INTEGER PRIMARY KEY,
			session TEXT NOT NULL,
			turn    INTEGER NOT NULL,
			at      INTEGER NOT NULL,
			success INTEGER NOT NULL,
			tool    BLOB NOT NULL,
			summary BLOB NOT NULL,
			input   BLOB,
			effects BLOB,
			rules   BLOB
		)`,
		`CREATE INDEX records_session ON records(session, seq)`,
		`CREATE TABLE refusals (
			seq     INTEGER PRIMARY KEY,
			session TEXT NOT NULL,
			key     BLOB NOT NULL,
			turn    INTEGER NOT NULL,
			at      INTEGER NOT NULL
		)`,
		`CREATE INDEX refusals_session ON refusals(session, seq)`,
		`CREATE TABLE meta (
			k TEXT PRIMARY KEY,
			v INTEGER NOT NULL
		) WITHOUT ROWID`,
	},
	{
		`CREATE TABLE staged (
			seq     INTEGER PRIMARY KEY,
			session TEXT NOT NULL,
			key     BLOB NOT NULL,
			at      INTEGER NOT NULL,
			tool    BLOB NOT NULL,
			summary BLOB NOT NULL,
			input   BLOB,
			effects BLOB,
			rules   BLOB
		)`,
		`CREATE INDEX staged_session ON staged(session, key)`,
	},
	{
		// Trajectory risk events: setlevel is 1 when points
		// replace the level instead of adding to it.
		`CREATE TABLE risk (
			seq      INTEGER PRIMARY KEY,
			session  TEXT NOT NULL,
			turn     INTEGER NOT NULL,
			at       INTEGER NOT NULL,
			points   INTEGER NOT NULL,
			setlevel INTEGER NOT NULL,
			caller   BLOB NOT NULL,
			why      BLOB NOT NULL
		)`,
		`CREATE INDEX risk_session ON risk(session, seq)`,
	},
	{
		// Decisions by the host's key for a call (Decisions): a call a
		// host reports in two events is decided once.
		`CREATE TABLE decisions (
			seq     INTEGER PRIMARY KEY,
			session TEXT NOT NULL,
			key     BLOB NOT NULL,
			at      INTEGER NOT NULL,
			d       BLOB NOT NULL
		)`,
		`CREATE INDEX decisions_session ON decisions(session, key)`,
	},
}

// SQLite is a [Store] in a SQLite file, shared by every process that opens
// the same path. Create it with [Open].
type SQLite struct {
	// Recovered is set when Open replaced an unusable file (see
	// Options.Recover); nil otherwise.
	Recovered *Recovery

	db   *sql.DB
	path string
	opts Options
	// id is the file's identity (see identify).
	id int64

	closed atomic.Bool
	// nextPrune is the Unix microsecond before which writes skip the
	// opportunistic prune check; 0 means check on the next write.
	nextPrune atomic.Int64
}

var _ Store = (*SQLite)(nil)

// Open opens the SQLite store at path, creating it on first use: missing
// parent directories with mode 0700, the file with mode 0600. The file is
// put in WAL mode with synchronous=NORMAL and opts.BusyTimeout, and its
// schema migrated (in one transaction, skipped when PRAGMA user_version is
// current). Any failure, including a file that is not a SQLite database
// or was written by a newer schema, is an [*OpenError] matching
// [ErrUnavailable]; the caller should carry on without session memory.
func Open(path string, opts Options) (*SQLite, error) {
	st, err := open(path, opts)
	if err == nil {
		return st.ready(false)
	}
	if !opts.Recover || !errors.Is(err, errUnusable) {
		return st, err
	}
	aside := fmt.Sprintf("%s.unusable-%d", path, opts.withDefaults().Now().UnixNano())
	if rerr := moveAside(path, aside); rerr != nil {
		return nil, &OpenError{Path: path, Err: errors.Join(err, fmt.Errorf("moving it aside: %w", rerr))}
	}
	st, err2 := open(path, opts)
	if err2 != nil {
		return nil, err2
	}
	st.Recovered = &Recovery{From: path, Aside: aside, Why: err}
	return st.ready(true)
}

// ready finishes Open: the file's identity is checked (a file that is not
// the one its mirrors name, or one Open just recovered, notes a reset)
// and the spare for a lost marker made.
func (s *SQLite) ready(recovered bool) (*SQLite, error) {
	if err := s.identify(recovered); err != nil {
		s.db.Close()
		return nil, &OpenError{Path: s.path, Err: fmt.Errorf("checking the file's identity: %w", err)}
	}
	makeSpare(s.path)
	return s, nil
}

// Recovery says that Open moved an unusable state file aside and made a
// fresh one (Options.Recover).
type Recovery struct {
	// From is the state file's path; Aside where the old file now is (its
	// -wal and -shm files beside it, with the same suffix).
	From, Aside string
	// Why is what made the old file unusable.
	Why error
}

func (r *Recovery) String() string {
	return fmt.Sprintf("the state file %s was unusable (%v); it was moved to %s and a fresh one created", r.From, r.Why, r.Aside)
}

// errUnusable marks a file that is not a usable toolwall state file but
// could be replaced by one: not a database, corrupt, or another
// program's database. A newer schema, an unreadable file or a directory
// in its place are not.
var errUnusable = errors.New("unusable state file")

// moveAside renames path and its -wal and -shm files to aside (and
// aside-wal, aside-shm); a missing side file is not an error. Nothing is
// deleted.
func moveAside(path, aside string) error {
	if err := os.Rename(path, aside); err != nil {
		return err
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, aside+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// open opens the store once; see Open.
func open(path string, opts Options) (*SQLite, error) {
	opts = opts.withDefaults()
	fail := func(err error) (*SQLite, error) { return nil, &OpenError{Path: path, Err: err} }
	if path == "" {
		return fail(errors.New("empty path"))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return fail(err)
	}
	// Create the file ourselves for its mode: SQLite gives the -wal and
	// -shm files the main file's permissions.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail(err)
	}
	f.Close()

	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(opts.BusyTimeout.Milliseconds(), 10))
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate") // every write transaction is BEGIN IMMEDIATE
	// With the persisted WAL (see persistWAL) a non-negative limit makes
	// the last close truncate the -wal file to zero bytes, so the next
	// open does not replay old frames; it also bounds the file at 1 MiB.
	q.Set("_pragma", "journal_size_limit(1048576)")
	dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() + "?" + q.Encode()
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return fail(err)
	}
	db := sql.OpenDB(persistWAL{base})
	// A file is created or migrated once, by whichever of the processes
	// starting together gets the lock; the others wait for it longer than
	// for one write (128 hooks at once wait more than 500 ms).
	if err := migrate(db, max(opts.BusyTimeout, DefaultBusyTimeout)); err != nil {
		db.Close()
		var se *sqlite.Error
		if errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_NOTADB || se.Code()&0xff == sqlite3.SQLITE_CORRUPT) {
			err = fmt.Errorf("%w: %w", errUnusable, err)
		}
		return fail(err)
	}
	return &SQLite{db: db, path: abs, opts: opts}, nil
}

// AppID is the PRAGMA application_id that marks a toolwall state file
// ("twst"). Open refuses a database marked otherwise, and one holding
// tables while unmarked, so a mistyped path never alters another
// program's data.
const AppID = 0x74777374

// migrate checks the file is a toolwall state file, puts it in WAL mode
// and brings its schema to len(migrations). It changes nothing in a file
// that is not a toolwall state file. Processes creating the file at the
// same time meet each other's locks, which SQLite may report at once
// rather than wait for (a reader upgrading to a writer) or after its busy
// timeout: it retries with a short random pause until wait has passed.
func migrate(db *sql.DB, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := migrateOnce(db, wait)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Millisecond + rand.N(4*time.Millisecond))
	}
}

// migrateOnce is one attempt of migrate.
func migrateOnce(db *sql.DB, busy time.Duration) error {
	var (
		v, app, objects int
		mode            string
	)
	check := func(q interface {
		QueryRow(string, ...any) *sql.Row
	}) error {
		// One statement, so one snapshot: a process creating the file
		// sets application_id and the tables in one transaction.
		if err := q.QueryRow(`SELECT user_version, application_id, journal_mode,
			(SELECT count(*) FROM sqlite_schema)
			FROM pragma_user_version, pragma_application_id, pragma_journal_mode`).Scan(&v, &app, &mode, &objects); err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		switch {
		case app == 0 && objects > 0:
			return fmt.Errorf("%w: not a toolwall state file (a database with other tables)", errUnusable)
		case app != AppID && app != 0:
			return fmt.Errorf("%w: not a toolwall state file (application_id %#x)", errUnusable, app)
		case v > len(migrations):
			return fmt.Errorf("schema version %d is newer than this toolwall's %d", v, len(migrations))
		}
		return nil
	}
	if err := check(db); err != nil {
		return err
	}
	if v == len(migrations) && app == AppID && mode == "wal" {
		return nil
	}
	if err := setWAL(db, busy); err != nil {
		return fmt.Errorf("setting WAL mode: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("starting the migration: %w", err)
	}
	defer tx.Rollback()
	// Another process may have migrated while we waited for the lock.
	if err := check(tx); err != nil {
		return err
	}
	if err := sqliteschema.Apply(tx, AppID, migrations, v); err != nil {
		return err
	}
	return tx.Commit()
}

// setWAL puts the file in WAL mode. The switch needs an exclusive lock,
// and SQLite fails at once rather than wait when processes creating the
// file at the same time each hold a shared lock, so retry with a short
// random pause until busy has passed.
func setWAL(db *sql.DB, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for {
		_, err := db.Exec(`PRAGMA journal_mode = WAL`)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(time.Millisecond + rand.N(4*time.Millisecond))
	}
}

// persistWAL opens connections that keep the -wal file when they close
// (SQLITE_FCNTL_PERSIST_WAL). Deleting it on every close and creating it
// again on the next open cost each hook process a few milliseconds.
type persistWAL struct{ driver.Connector }

// Connect opens a connection and sets its persist-WAL flag.
func (c persistWAL) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if fc, ok := conn.(sqlite.FileControl); ok {
		if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// Path returns the absolute path of the state file.
func (s *SQLite) Path() string { return s.path }

// fail wraps an operation's error: context errors as they are, the rest
// as ErrUnavailable.
func (s *SQLite) fail(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("session: %s: %w", op, err)
	}
	return fmt.Errorf("session: %s in %s: %w: %w", op, s.path, ErrUnavailable, err)
}

// check validates id and the store before an operation.
func (s *SQLite) check(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := checkID(id); err != nil {
		return err
	}
	if s.closed.Load() {
		return ErrClosed
	}
	return nil
}

// update runs fn in a write transaction (BEGIN IMMEDIATE) with the
// current time in Unix microseconds, after an opportunistic prune when
// auto is set. A transaction that meets another process's write lock past
// the busy timeout is tried again, after a short random pause, until it
// commits or ctx ends: a record is not lost to contention while the
// caller still has time.
func (s *SQLite) update(ctx context.Context, op string, auto bool, fn func(tx *sql.Tx, now int64) error) error {
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		err := s.updateOnce(ctx, auto, fn)
		if err == nil {
			return nil
		}
		if !busy(err) || ctx.Err() != nil {
			return s.fail(op, err)
		}
		t := time.NewTimer(pause + rand.N(pause))
		select {
		case <-ctx.Done():
			t.Stop()
			return s.fail(op, errors.Join(err, ctx.Err()))
		case <-t.C:
		}
	}
}

// busy reports whether err is SQLite's "database is locked" or "busy".
func busy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	c := se.Code() & 0xff
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

func (s *SQLite) updateOnce(ctx context.Context, auto bool, fn func(tx *sql.Tx, now int64) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := s.opts.Now().UnixMicro()
	if auto {
		if err := s.maybePrune(ctx, tx, now); err != nil {
			return err
		}
	}
	if err := fn(tx, now); err != nil {
		return err
	}
	return tx.Commit()
}

// maybePrune prunes idle sessions when the last prune recorded in the file
// is at least PruneEvery old. Between checks a process skips the query.
func (s *SQLite) maybePrune(ctx context.Context, tx *sql.Tx, now int64) error {
	if s.opts.PruneEvery < 0 || now < s.nextPrune.Load() {
		return nil
	}
	every := s.opts.PruneEvery.Microseconds()
	var last int64
	err := tx.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'pruned'`).Scan(&last)
	switch {
	case err == nil && now-last < every:
		s.nextPrune.Store(last + every)
		return nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := prune(ctx, tx, now, s.opts.Retention); err != nil {
		return err
	}
	s.nextPrune.Store(now + every)
	return nil
}

// prune deletes the sessions not written since now-idle, and notes the
// time in meta.
func prune(ctx context.Context, tx *sql.Tx, now int64, idle time.Duration) (int, error) {
	cut := now - idle.Microseconds()
	for _, q := range []string{
		`DELETE FROM records WHERE session IN (SELECT id FROM sessions WHERE seen < ?)`,
		`DELETE FROM refusals WHERE session IN (SELECT id FROM sessions WHERE seen < ?)`,
		`DELETE FROM staged WHERE session IN (SELECT id FROM sessions WHERE seen < ?)`,
		`DELETE FROM risk WHERE session IN (SELECT id FROM sessions WHERE seen < ?)`,
		`DELETE FROM decisions WHERE session IN (SELECT id FROM sessions WHERE seen < ?)`,
	} {
		if _, err := tx.ExecContext(ctx, q, cut); err != nil {
			return 0, err
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE seen < ?`, cut)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES('pruned', ?)
		ON CONFLICT(k) DO UPDATE SET v = excluded.v`, now)
	return int(n), err
}

// touch creates the session or marks it written at now, and returns its
// turn.
func touch(ctx context.Context, tx *sql.Tx, id string, now int64) (int, error) {
	var turn int
	err := tx.QueryRowContext(ctx, `INSERT INTO sessions(id, turn, seen) VALUES(?1, 0, ?2)
		ON CONFLICT(id) DO UPDATE SET seen = excluded.seen RETURNING turn`, id, now).Scan(&turn)
	return turn, err
}

// Turn implements [Store.Turn].
func (s *SQLite) Turn(ctx context.Context, id string) (int, error) {
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var turn int
	err := s.db.QueryRowContext(ctx, `SELECT turn FROM sessions WHERE id = ?`, id).Scan(&turn)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, s.fail("turn", err)
	}
	return turn, nil
}

// AdvanceTurn implements [Store.AdvanceTurn].
func (s *SQLite) AdvanceTurn(ctx context.Context, id string) (int, error) {
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var turn int
	err := s.update(ctx, "advance turn", true, func(tx *sql.Tx, now int64) error {
		return tx.QueryRowContext(ctx, `INSERT INTO sessions(id, turn, seen) VALUES(?1, 1, ?2)
			ON CONFLICT(id) DO UPDATE SET turn = turn + 1, seen = excluded.seen RETURNING turn`,
			id, now).Scan(&turn)
	})
	return turn, err
}

// Append implements [Store.Append].
func (s *SQLite) Append(ctx context.Context, id string, r Record) error {
	if err := s.check(ctx, id); err != nil {
		return err
	}
	return s.lost(id, s.update(ctx, "append", true, func(tx *sql.Tx, now int64) error {
		turn, err := touch(ctx, tx, id, now)
		if err != nil {
			return err
		}
		r = normalize(r, time.UnixMicro(now))
		if _, err := tx.ExecContext(ctx, `INSERT INTO records(session, turn, at, success, tool, summary, input, effects, rules)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, turn, r.At.UnixMicro(), r.Success, []byte(r.Tool), []byte(r.Summary),
			[]byte(r.Input), encodeEffects(r.Effects), encodeRules(r.Rules)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM records WHERE session = ?1 AND seq <=
			(SELECT seq FROM records WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, s.opts.Calls)
		return err
	}))
}

// lostSuffix names the file beside the state file that lists the
// sessions whose records could not be written ("<path>-lost").
const lostSuffix = "-lost"

// maxLost bounds the part of the -lost file History reads (its end).
const maxLost = 1 << 20

// lost notes that a record of session id could not be written (err not
// nil) with [NoteLost], so that later calls of the session know their
// memory has a hole (History then fails with a [*LostError]). It returns
// err.
func (s *SQLite) lost(id string, err error) error {
	if err != nil {
		NoteLost(s.path, id)
	}
	return err
}

// LostError is History's error for a session one of whose records could
// not be written (the store was locked past the deadline, the disk full):
// what it returns is incomplete, so a chain may be missing its first step.
// It matches [ErrUnavailable].
type LostError struct {
	Session string
	// At is when the last record was lost.
	At time.Time
	// Reset says the state file itself was lost (replaced, truncated,
	// removed, moved aside as unusable) at At, and the session may have
	// had records in the old one.
	Reset bool
}

// Error says which session lost a record, and when.
func (e *LostError) Error() string {
	if e.Reset {
		return fmt.Sprintf("session: the state file was lost and started afresh at %s, so the memory of session %q from before is missing", e.At.UTC().Format(time.RFC3339), e.Session)
	}
	return fmt.Sprintf("session: a record of session %q could not be written at %s, so its memory is incomplete", e.Session, e.At.UTC().Format(time.RFC3339))
}

// Unwrap returns ErrUnavailable.
func (e *LostError) Unwrap() error { return ErrUnavailable }

// lostAt returns when a record of session id was last lost within the
// store's retention, per the -lost file (zero when none).
func (s *SQLite) lostAt(id string) time.Time {
	f, err := os.Open(s.path + lostSuffix)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxLost {
		_, _ = f.Seek(st.Size()-maxLost, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, maxLost))
	want := " " + strconv.Quote(id)
	var last time.Time
	for _, line := range strings.Split(string(data), "\n") {
		at, rest, ok := strings.Cut(line, " ")
		if !ok || " "+rest != want {
			continue
		}
		if us, err := strconv.ParseInt(at, 10, 64); err == nil {
			last = time.UnixMicro(us)
		}
	}
	if m := markerAt(s.path, id); m.After(last) {
		last = m
	}
	if !last.IsZero() && time.Since(last) > s.opts.Retention {
		return time.Time{}
	}
	return last
}

// History implements [Store.History]. A session that lost a record (see
// [LostError]) gets its records and a *LostError.
func (s *SQLite) History(ctx context.Context, id string, w Window) ([]Record, error) {
	if err := s.check(ctx, id); err != nil {
		return nil, err
	}
	w = w.withDefaults()
	rows, err := s.db.QueryContext(ctx, `SELECT turn, at, success, tool, summary, input, effects, rules
		FROM records
		WHERE session = ?1 AND turn > IFNULL((SELECT turn FROM sessions WHERE id = ?1), 0) - ?2
		ORDER BY seq DESC LIMIT ?3`, id, w.Turns, w.Calls)
	if err != nil {
		return nil, s.fail("history", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var (
			r                    Record
			at                   int64
			tool, summary, input []byte
			effects, rules       []byte
		)
		if err := rows.Scan(&r.Turn, &at, &r.Success, &tool, &summary, &input, &effects, &rules); err != nil {
			return nil, s.fail("history", err)
		}
		r.At = time.UnixMicro(at).UTC()
		r.Tool, r.Summary, r.Input = string(tool), string(summary), input
		if r.Effects, err = decodeEffects(effects); err == nil {
			r.Rules, err = decodeRules(rules)
		}
		if err != nil {
			return nil, s.fail("history", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("history", err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	if at := s.lostAt(id); !at.IsZero() {
		return out, &LostError{Session: id, At: at}
	}
	// After a reset, a session that has not lived a whole window of turns
	// in this file may have had steps in the old one.
	at, turn, err := s.resetAt(ctx, id)
	if err != nil {
		return nil, s.fail("history", err)
	}
	if !at.IsZero() && turn < w.Turns {
		return out, &LostError{Session: id, At: at, Reset: true}
	}
	return out, nil
}

// NoteRefusal implements [Store.NoteRefusal].
func (s *SQLite) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	key, err := checkKey(key)
	if err != nil {
		return 0, err
	}
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	var n int
	err = s.update(ctx, "note refusal", true, func(tx *sql.Tx, now int64) error {
		turn, err := touch(ctx, tx, id, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO refusals(session, key, turn, at) VALUES(?, ?, ?, ?)`,
			id, []byte(key), turn, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM refusals WHERE session = ?1 AND seq <=
			(SELECT seq FROM refusals WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, s.opts.Refusals); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM refusals WHERE session = ? AND key = ?`,
			id, []byte(key)).Scan(&n)
	})
	return n, err
}

// Refusals implements [Store.Refusals].
func (s *SQLite) Refusals(ctx context.Context, id, key string, w Window) (int, error) {
	key, err := checkKey(key)
	if err != nil {
		return 0, err
	}
	if err := s.check(ctx, id); err != nil {
		return 0, err
	}
	w = w.withDefaults()
	var n int
	err = s.db.QueryRowContext(ctx, `SELECT count(*) FROM
		(SELECT key, turn FROM refusals WHERE session = ?1 ORDER BY seq DESC LIMIT ?3)
		WHERE key = ?4 AND turn > IFNULL((SELECT turn FROM sessions WHERE id = ?1), 0) - ?2`,
		id, w.Turns, w.Calls, []byte(key)).Scan(&n)
	if err != nil {
		return 0, s.fail("refusals", err)
	}
	return n, nil
}

// Prune implements [Store.Prune].
func (s *SQLite) Prune(ctx context.Context, idle time.Duration) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if s.closed.Load() {
		return 0, ErrClosed
	}
	if idle <= 0 {
		idle = s.opts.Retention
	}
	var n int
	err := s.update(ctx, "prune", false, func(tx *sql.Tx, now int64) error {
		var err error
		n, err = prune(ctx, tx, now, idle)
		return err
	})
	return n, err
}

// Close implements [Store.Close]. The last process to close a file
// checkpoints its write-ahead log.
func (s *SQLite) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}

// Stage implements [Store.Stage].
func (s *SQLite) Stage(ctx context.Context, id, key string, r Record) error {
	key, err := checkKey(key)
	if err != nil {
		return err
	}
	if err := s.check(ctx, id); err != nil {
		return err
	}
	return s.update(ctx, "stage", true, func(tx *sql.Tx, now int64) error {
		if _, err := touch(ctx, tx, id, now); err != nil {
			return err
		}
		r = normalize(r, time.UnixMicro(now))
		if _, err := tx.ExecContext(ctx, `DELETE FROM staged WHERE session = ? AND key = ?`, id, []byte(key)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO staged(session, key, at, tool, summary, input, effects, rules)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
			id, []byte(key), r.At.UnixMicro(), []byte(r.Tool), []byte(r.Summary),
			[]byte(r.Input), encodeEffects(r.Effects), encodeRules(r.Rules)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM staged WHERE session = ?1 AND seq <=
			(SELECT seq FROM staged WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, DefaultStaged)
		return err
	})
}

// Commit implements [Store.Commit].
func (s *SQLite) Commit(ctx context.Context, id, key string, success bool) (bool, error) {
	key, err := checkKey(key)
	if err != nil {
		return false, err
	}
	if err := s.check(ctx, id); err != nil {
		return false, err
	}
	found := false
	err = s.lost(id, s.update(ctx, "commit", true, func(tx *sql.Tx, now int64) error {
		var (
			seq                            int64
			at                             int64
			tool, summary, input, eff, rls []byte
		)
		err := tx.QueryRowContext(ctx, `SELECT seq, at, tool, summary, input, effects, rules FROM staged
			WHERE session = ? AND key = ? ORDER BY seq DESC LIMIT 1`, id, []byte(key)).
			Scan(&seq, &at, &tool, &summary, &input, &eff, &rls)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if _, err := tx.ExecContext(ctx, `DELETE FROM staged WHERE seq = ?`, seq); err != nil {
			return err
		}
		turn, err := touch(ctx, tx, id, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO records(session, turn, at, success, tool, summary, input, effects, rules)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, turn, at, success, tool, summary, input, eff, rls); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM records WHERE session = ?1 AND seq <=
			(SELECT seq FROM records WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, s.opts.Calls)
		return err
	}))
	return found, err
}

// NoteRisk implements [Store.NoteRisk].
func (s *SQLite) NoteRisk(ctx context.Context, id string, e RiskEvent) error {
	if _, err := normalizeRisk(e, time.Time{}); err != nil {
		return err
	}
	if err := s.check(ctx, id); err != nil {
		return err
	}
	return s.update(ctx, "note risk", true, func(tx *sql.Tx, now int64) error {
		turn, err := touch(ctx, tx, id, now)
		if err != nil {
			return err
		}
		e, _ := normalizeRisk(e, time.UnixMicro(now))
		if _, err := tx.ExecContext(ctx, `INSERT INTO risk(session, turn, at, points, setlevel, caller, why) VALUES(?, ?, ?, ?, ?, ?, ?)`,
			id, turn, e.At.UnixMicro(), e.Points, e.Set, []byte(e.Caller), []byte(e.Why)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM risk WHERE session = ?1 AND seq <=
			(SELECT seq FROM risk WHERE session = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)`,
			id, DefaultRiskEvents)
		return err
	})
}

// Risk implements [Store.Risk]: the turn and the events in one read
// transaction, so they agree.
func (s *SQLite) Risk(ctx context.Context, id string) (RiskLog, error) {
	if err := s.check(ctx, id); err != nil {
		return RiskLog{}, err
	}
	var out RiskLog
	rows, err := s.db.QueryContext(ctx, `SELECT IFNULL((SELECT turn FROM sessions WHERE id = ?1), 0), r.turn, r.at, r.points, r.setlevel, r.caller, r.why
		FROM (SELECT 1) LEFT JOIN risk r ON r.session = ?1 ORDER BY r.seq`, id)
	if err != nil {
		return RiskLog{}, s.fail("risk", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			turn, at, points, set sql.NullInt64
			caller, why           []byte
		)
		if err := rows.Scan(&out.Turn, &turn, &at, &points, &set, &caller, &why); err != nil {
			return RiskLog{}, s.fail("risk", err)
		}
		if !turn.Valid {
			continue // the session has no events: the one row of the left join
		}
		out.Events = append(out.Events, RiskEvent{Turn: int(turn.Int64), At: time.UnixMicro(at.Int64).UTC(),
			Points: int(points.Int64), Set: set.Int64 != 0, Caller: string(caller), Why: string(why)})
	}
	if err := rows.Err(); err != nil {
		return RiskLog{}, s.fail("risk", err)
	}
	return out, nil
}
