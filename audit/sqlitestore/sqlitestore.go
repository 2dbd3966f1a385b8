package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/jsonlstore"
	"github.com/toolwall/toolwall/internal/sqliteschema"
)

// AppID is the PRAGMA application_id of a toolwall audit database
// ("twau").
const AppID = 0x74776175

// migrations move PRAGMA user_version from i to i+1. Append, never edit.
// Times are Unix microseconds (UTC); data is the record's JSON without
// its outcome, outcome the outcome's JSON.
var migrations = [][]string{{
	`CREATE TABLE records (
		id      TEXT PRIMARY KEY,
		at      INTEGER NOT NULL,
		driver  TEXT NOT NULL,
		session TEXT NOT NULL,
		call_id TEXT NOT NULL,
		caller  TEXT NOT NULL,
		tool    TEXT NOT NULL,
		action  INTEGER NOT NULL,
		data    BLOB NOT NULL,
		outcome BLOB
	)`,
	`CREATE INDEX records_at ON records(at)`,
	`CREATE INDEX records_session ON records(session, at)`,
	`CREATE INDEX records_call ON records(session, call_id, at)`,
	`CREATE TABLE rules (
		rule TEXT NOT NULL,
		id   TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
		PRIMARY KEY (rule, id)
	) WITHOUT ROWID`,
	`CREATE INDEX rules_id ON rules(id)`,
}, {
	// Turn marks (audit.Store.Turn), in the order written.
	`CREATE TABLE turns (
		session TEXT NOT NULL,
		turn    INTEGER NOT NULL,
		at      INTEGER NOT NULL
	)`,
	`CREATE INDEX turns_session ON turns(session)`,
}}

// Options configure Open.
type Options struct {
	// Inbox, when set, is the JSONL file writes go to; reads move it into
	// the database first (see the package doc).
	Inbox string
	// BusyTimeout bounds the wait for another process's write lock
	// (default 2 s).
	BusyTimeout time.Duration
}

// Store is the SQLite audit store. Create it with Open.
type Store struct {
	path  string
	opts  Options
	inbox *jsonlstore.Store

	once   sync.Once
	db     *sql.DB
	err    error
	closed atomic.Bool
}

var _ audit.Store = (*Store)(nil)

// Open returns the store in the SQLite file at path. It does no I/O: the
// database (mode 0600, directory 0700) is opened, created and migrated on
// the first read, or the first write when there is no inbox; a failure
// then is returned by that call and every later one.
func Open(path string, opts Options) *Store {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 2 * time.Second
	}
	s := &Store{path: path, opts: opts}
	if opts.Inbox != "" {
		s.inbox = jsonlstore.Open(opts.Inbox)
	}
	return s
}

// Files lists the files of a store at path with inbox: what toolwall's
// self-protection must guard (the database, its WAL and shared-memory
// files, the inbox).
func Files(path, inbox string) []string {
	out := []string{path, path + "-wal", path + "-shm"}
	if inbox != "" {
		out = append(out, inbox)
	}
	return out
}

// Path returns the database file.
func (s *Store) Path() string { return s.path }

// open opens the database once.
func (s *Store) open() (*sql.DB, error) {
	if s.closed.Load() {
		return nil, audit.ErrClosed
	}
	s.once.Do(func() { s.db, s.err = openDB(s.path, s.opts.BusyTimeout) })
	if s.err != nil {
		return nil, s.err
	}
	return s.db, nil
}

func openDB(path string, busy time.Duration) (*sql.DB, error) {
	fail := func(err error) (*sql.DB, error) { return nil, fmt.Errorf("sqlitestore: opening %s: %w", path, err) }
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail(err)
	}
	f.Close()
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	q.Set("_txlock", "immediate")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(1)")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: abs}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return fail(err)
	}
	if err := migrate(db); err != nil {
		db.Close()
		return fail(err)
	}
	return db, nil
}

func migrate(db *sql.DB) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v, app, objects int
	if err := tx.QueryRow(`SELECT user_version, application_id, (SELECT count(*) FROM sqlite_schema)
		FROM pragma_user_version, pragma_application_id`).Scan(&v, &app, &objects); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	switch {
	case app == 0 && objects > 0, app != 0 && app != AppID:
		return errors.New("not a toolwall audit database")
	case v > len(migrations):
		return fmt.Errorf("schema version %d is newer than this toolwall's %d", v, len(migrations))
	case v == len(migrations):
		return nil
	}
	if err := sqliteschema.Apply(tx, AppID, migrations, v); err != nil {
		return err
	}
	return tx.Commit()
}

// update runs fn in one write transaction.
func (s *Store) update(ctx context.Context, fn func(tx *sql.Tx) error) error {
	db, err := s.open()
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	return nil
}

// insert adds r and its rule rows unless its id is stored; a record of a
// session without a turn takes the turn of the session's latest mark.
func insert(ctx context.Context, tx *sql.Tx, r audit.Record) error {
	if r.Turn == 0 && r.Session != "" {
		err := tx.QueryRowContext(ctx, `SELECT turn FROM turns WHERE session = ? ORDER BY rowid DESC LIMIT 1`, r.Session).Scan(&r.Turn)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlitestore: %w", err)
		}
	}
	o := r.Outcome
	r.Outcome = nil
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	var ob []byte
	if o != nil {
		if ob, err = json.Marshal(o); err != nil {
			return fmt.Errorf("sqlitestore: %w", err)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO records(id, at, driver, session, call_id, caller, tool, action, data, outcome)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.At.UnixMicro(), r.Driver, r.Session, r.CallID, r.Caller, r.Tool, int(r.Verdict.Action), data, ob)
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	for _, rule := range r.Verdict.Rules() {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO rules(rule, id) VALUES(?, ?)`, rule, r.ID); err != nil {
			return fmt.Errorf("sqlitestore: %w", err)
		}
	}
	return nil
}

// setOutcome attaches o by id, or by session and call id when id is "".
func setOutcome(ctx context.Context, tx *sql.Tx, id, session, callID string, o audit.Outcome) error {
	ob, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	var res sql.Result
	if id != "" {
		res, err = tx.ExecContext(ctx, `UPDATE records SET outcome = ? WHERE id = ?`, ob, id)
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE records SET outcome = ?1 WHERE id =
			(SELECT id FROM records WHERE session = ?2 AND call_id = ?3 ORDER BY at DESC, id DESC LIMIT 1)`, ob, session, callID)
	}
	if err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return audit.ErrNotFound
	}
	return nil
}

// Record stores r (in the inbox when there is one). A record whose id is
// stored already is ignored.
func (s *Store) Record(ctx context.Context, r audit.Record) error {
	if r.ID == "" {
		return errors.New("sqlitestore: record without an id")
	}
	if s.closed.Load() {
		return audit.ErrClosed
	}
	if s.inbox != nil {
		return s.inbox.Record(ctx, r)
	}
	return s.update(ctx, func(tx *sql.Tx) error { return insert(ctx, tx, r) })
}

// Outcome attaches o to decision id (in the inbox when there is one:
// then an unknown id is dropped when the inbox is read, not reported).
func (s *Store) Outcome(ctx context.Context, id string, o audit.Outcome) error {
	if s.closed.Load() {
		return audit.ErrClosed
	}
	if s.inbox != nil {
		return s.inbox.Outcome(ctx, id, o)
	}
	return s.update(ctx, func(tx *sql.Tx) error { return setOutcome(ctx, tx, id, "", "", o) })
}

// CallOutcome attaches o to the latest decision on the host's call.
func (s *Store) CallOutcome(ctx context.Context, session, callID string, o audit.Outcome) error {
	if s.closed.Load() {
		return audit.ErrClosed
	}
	if s.inbox != nil {
		return s.inbox.CallOutcome(ctx, session, callID, o)
	}
	return s.update(ctx, func(tx *sql.Tx) error { return setOutcome(ctx, tx, "", session, callID, o) })
}

// Turn marks session's turn turn, begun at at (in the inbox when there
// is one).
func (s *Store) Turn(ctx context.Context, session string, turn int, at time.Time) error {
	if session == "" || turn <= 0 {
		return fmt.Errorf("sqlitestore: turn %d of session %q", turn, session)
	}
	if s.closed.Load() {
		return audit.ErrClosed
	}
	if s.inbox != nil {
		return s.inbox.Turn(ctx, session, turn, at)
	}
	return s.update(ctx, func(tx *sql.Tx) error { return mark(ctx, tx, session, turn, at) })
}

// mark adds a turn mark.
func mark(ctx context.Context, tx *sql.Tx, session string, turn int, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO turns(session, turn, at) VALUES(?, ?, ?)`, session, turn, at.UnixMicro()); err != nil {
		return fmt.Errorf("sqlitestore: %w", err)
	}
	return nil
}

// Index moves the inbox into the database and returns how many lines it
// moved. Reads call it; a driver may call it to keep the inbox short.
func (s *Store) Index(ctx context.Context) (int, error) {
	if s.inbox == nil {
		return 0, nil
	}
	if _, err := s.open(); err != nil {
		return 0, err
	}
	n := 0
	err := s.inbox.File().Drain(func(lines [][]byte) error {
		if len(lines) == 0 {
			return nil
		}
		n = len(lines)
		return s.update(ctx, func(tx *sql.Tx) error {
			for _, l := range lines {
				e, err := jsonlstore.Decode(l)
				if err != nil {
					continue // a torn or foreign line: nothing to keep
				}
				switch e.Type {
				case jsonlstore.TypeDecision:
					err = insert(ctx, tx, *e.Record)
				case jsonlstore.TypeOutcome:
					err = setOutcome(ctx, tx, e.ID, e.Session, e.CallID, *e.Outcome)
					if errors.Is(err, audit.ErrNotFound) {
						err = nil
					}
				case jsonlstore.TypeTurn:
					err = mark(ctx, tx, e.Session, e.Turn, e.At)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
	return n, err
}

// read indexes the inbox and returns the database.
func (s *Store) read(ctx context.Context) (*sql.DB, error) {
	db, err := s.open()
	if err != nil {
		return nil, err
	}
	if _, err := s.Index(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

func scanRecords(rows *sql.Rows) ([]audit.Record, error) {
	defer rows.Close()
	var out []audit.Record
	for rows.Next() {
		var data, ob []byte
		if err := rows.Scan(&data, &ob); err != nil {
			return nil, fmt.Errorf("sqlitestore: %w", err)
		}
		var r audit.Record
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("sqlitestore: a stored record does not decode: %w", err)
		}
		if ob != nil {
			var o audit.Outcome
			if err := json.Unmarshal(ob, &o); err != nil {
				return nil, fmt.Errorf("sqlitestore: a stored outcome does not decode: %w", err)
			}
			r.Outcome = &o
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlitestore: %w", err)
	}
	return out, nil
}

// Query returns the matching records, newest first.
func (s *Store) Query(ctx context.Context, f audit.Filter) ([]audit.Record, error) {
	db, err := s.read(ctx)
	if err != nil {
		return nil, err
	}
	var where []string
	var args []any
	add := func(cond string, a ...any) {
		where = append(where, cond)
		args = append(args, a...)
	}
	for _, c := range []struct{ col, v string }{{"session", f.Session}, {"tool", f.Tool}, {"caller", f.Caller}, {"driver", f.Driver}} {
		if c.v != "" {
			add(c.col+" = ?", c.v)
		}
	}
	if f.NoProbes {
		add("substr(driver, 1, ?) <> ?", len(audit.ProbeDriver), audit.ProbeDriver)
	}
	if len(f.Actions) > 0 {
		ph := make([]string, len(f.Actions))
		for i, a := range f.Actions {
			ph[i] = "?"
			args = append(args, int(a))
		}
		where = append(where, "action IN ("+strings.Join(ph, ",")+")")
	}
	if f.Rule != "" {
		add("id IN (SELECT id FROM rules WHERE rule = ?)", f.Rule)
	}
	if !f.Since.IsZero() {
		add("at >= ?", f.Since.UnixMicro())
	}
	if !f.Until.IsZero() {
		add("at < ?", f.Until.UnixMicro())
	}
	q := `SELECT data, outcome FROM records`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY at DESC, id ASC"
	if f.Limit > 0 {
		q += " LIMIT " + strconv.Itoa(f.Limit)
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: %w", err)
	}
	return scanRecords(rows)
}

// Get returns decision id.
func (s *Store) Get(ctx context.Context, id string) (audit.Record, error) {
	db, err := s.read(ctx)
	if err != nil {
		return audit.Record{}, err
	}
	rows, err := db.QueryContext(ctx, `SELECT data, outcome FROM records WHERE id = ?`, id)
	if err != nil {
		return audit.Record{}, fmt.Errorf("sqlitestore: %w", err)
	}
	rs, err := scanRecords(rows)
	if err != nil {
		return audit.Record{}, err
	}
	if len(rs) == 0 {
		return audit.Record{}, audit.ErrNotFound
	}
	return rs[0], nil
}

// Prune deletes the decisions made before before (their rule rows go with
// them) and the turn marks begun before it but each session's latest.
func (s *Store) Prune(ctx context.Context, before time.Time) (int, error) {
	if _, err := s.read(ctx); err != nil {
		return 0, err
	}
	n := 0
	err := s.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM records WHERE at < ?`, before.UnixMicro())
		if err != nil {
			return fmt.Errorf("sqlitestore: %w", err)
		}
		// A record took its turn when stored: only each session's
		// latest mark is still read.
		if _, err := tx.ExecContext(ctx, `DELETE FROM turns WHERE at < ? AND rowid NOT IN (SELECT MAX(rowid) FROM turns GROUP BY session)`, before.UnixMicro()); err != nil {
			return fmt.Errorf("sqlitestore: %w", err)
		}
		m, _ := res.RowsAffected()
		n = int(m)
		return nil
	})
	return n, err
}

// Close closes the database.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if s.db != nil {
		return s.db.Close()
	}
	return nil
}
