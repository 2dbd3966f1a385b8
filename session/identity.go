package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A state file can be lost while sessions still count on it: moved aside
// as unusable, truncated, removed with its directory, replaced by another
// file, its symbolic link pointed elsewhere. Whatever replaces it starts
// empty, and a chain whose first step was in the old file would pass
// unseen. So each state file carries an identity (a random number in its
// meta table) mirrored in small files outside the database: one beside it
// ("<path>-id") and one beside its directory (see mirrorPaths), which
// survives the directory's removal. When Open finds a database whose
// identity is not the one mirrored, or a fresh database where a mirror
// names one, or it moved an unusable file aside, it notes a reset in the
// new database (meta "reset"): from then on, within the retention, a
// session that has not lived [Window.Turns] user turns in the new file
// may have had steps in the old one, and its History fails with a
// [*LostError] (Reset set), so that the calls that would complete a chain
// are asked about.

// idSuffix names the identity mirror beside the state file.
const idSuffix = "-id"

// spareSuffix names the empty file made ahead of time beside the state
// file, which lost renames into a lost marker when nothing can be written
// (a full disk).
const spareSuffix = "-spare"

// markerInfix names a session's lost marker: "<path>-lost-<hash of id>".
const markerInfix = "-lost-"

// mirrorPaths returns where the identity of the state file at path (an
// absolute path) is mirrored: beside it, and beside its directory (a
// dot file named after the directory and the file) unless the directory
// is the root.
func mirrorPaths(path string) []string {
	out := []string{path + idSuffix}
	dir := filepath.Dir(path)
	if parent := filepath.Dir(dir); parent != dir {
		out = append(out, filepath.Join(parent, "."+filepath.Base(dir)+"."+filepath.Base(path)+idSuffix))
	}
	return out
}

// SideFiles lists the files toolwall keeps for the state file at path (an
// absolute path) besides the database itself: its write-ahead log and
// shared memory, the lost-records file, the spare made ahead of time for
// a lost marker, and the identity mirrors. Lost markers
// ("<path>-lost-<hash>") are made when needed and not listed.
func SideFiles(path string) []string {
	return append([]string{path + "-wal", path + "-shm", path + lostSuffix, path + spareSuffix}, mirrorPaths(path)...)
}

// readMirror returns the identity a mirror holds (0 when it is missing or
// unreadable).
func readMirror(p string) int64 {
	b, err := os.ReadFile(p)
	if err != nil || len(b) > 64 {
		return 0
	}
	id, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

// writeMirror writes id to the mirror p through a temporary file and a
// rename, so a reader sees the old identity or the new one. Failures are
// ignored: a mirror is a check, and a missing one is not a loss.
func writeMirror(p string, id int64) {
	tmp := p + ".tmp" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := os.WriteFile(tmp, []byte(strconv.FormatInt(id, 10)+"\n"), 0o600); err != nil {
		os.Remove(tmp)
		return
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
	}
}

// newID returns a random positive identity.
func newID() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := int64(binary.BigEndian.Uint64(b[:]) >> 1)
	if id == 0 {
		id = 1
	}
	return id
}

// identify checks the opened file's identity against its mirrors, gives
// a file without one an identity, notes a reset when the file is not the
// one the mirrors name (or recovered says Open replaced it), and brings
// the mirrors up to date. Only a file that needs a change is written to.
func (s *SQLite) identify(recovered bool) error {
	mirrors := mirrorPaths(s.path)
	seen := make([]int64, len(mirrors))
	for i, m := range mirrors {
		seen[i] = readMirror(m)
	}
	differs := func(id int64) bool {
		for _, m := range seen {
			if m != 0 && m != id {
				return true
			}
		}
		return false
	}
	var id int64
	err := s.db.QueryRow(`SELECT v FROM meta WHERE k = 'id'`).Scan(&id)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err == nil && !recovered && !differs(id) {
		s.id = id
		for i, m := range mirrors {
			if seen[i] == 0 {
				writeMirror(m, id)
			}
		}
		return nil
	}
	ctx := context.Background()
	err = s.update(ctx, "identify", false, func(tx *sql.Tx, now int64) error {
		reset := recovered
		err := tx.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'id'`).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n); err != nil {
				return err
			}
			// A file with sessions but no identity was written before
			// files had one: it is the same file, given its identity now.
			if n == 0 && differs(0) {
				reset = true
			}
			id = newID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES('id', ?)`, id); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			if differs(id) {
				reset = true
			}
		}
		if !reset {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO meta(k, v) VALUES('reset', ?)
			ON CONFLICT(k) DO UPDATE SET v = excluded.v`, now)
		return err
	})
	if err != nil {
		return err
	}
	s.id = id
	for i, m := range mirrors {
		if seen[i] != id {
			writeMirror(m, id)
		}
	}
	return nil
}

// Verify checks that the file at the store's path is still the database
// the store opened (the same identity): a process that keeps a store
// open across calls asks before each, and opens the file again when it
// was replaced, truncated or removed (Open then notes the reset). It
// fails with an error matching [ErrUnavailable] otherwise.
func (s *SQLite) Verify(ctx context.Context) error {
	if s.closed.Load() {
		return ErrClosed
	}
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'id'`).Scan(&id); err != nil {
		return s.fail("verify", err)
	}
	if id != s.id {
		return s.fail("verify", errors.New("the state file was replaced"))
	}
	for _, m := range mirrorPaths(s.path) {
		if got := readMirror(m); got != 0 && got != id {
			return s.fail("verify", errors.New("the state file's identity changed"))
		}
	}
	return nil
}

// resetAt returns when a reset was last noted in the file, within the
// retention (zero when none), and the session's turn in this file.
func (s *SQLite) resetAt(ctx context.Context, id string) (time.Time, int, error) {
	var (
		reset sql.NullInt64
		turn  int
	)
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT v FROM meta WHERE k = 'reset'),
		IFNULL((SELECT turn FROM sessions WHERE id = ?), 0)`, id).Scan(&reset, &turn)
	if err != nil || !reset.Valid {
		return time.Time{}, turn, err
	}
	at := time.UnixMicro(reset.Int64)
	if s.opts.Now().Sub(at) > s.opts.Retention {
		return time.Time{}, turn, nil
	}
	return at, turn, nil
}

// markerPath is the lost marker of session id beside the state file at
// path.
func markerPath(path, id string) string {
	h := sha256.Sum256([]byte(id))
	return path + markerInfix + hex.EncodeToString(h[:12])
}

// makeSpare makes sure the spare beside the state file exists (an empty
// file, made while the disk still has room).
func makeSpare(path string) {
	f, err := os.OpenFile(path+spareSuffix, os.O_WRONLY|os.O_CREATE, 0o600)
	if err == nil {
		f.Close()
	}
}

// NoteLost notes that a record of session id could not be written to
// the state file at path, so that later calls of the session know their
// memory has a hole (History then fails with a [*LostError]): a line
// appended to "<path>-lost"; when that cannot be written (a full disk),
// the spare made when the store was opened is renamed to the session's
// marker, and failing that an empty marker is created. Renames and
// empty files need no free space. It reports whether any trace was left.
// Stores call it themselves; a caller whose store could not even be
// opened calls it with the path it tried.
func NoteLost(path, id string) bool {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	now := time.Now()
	if f, err := os.OpenFile(path+lostSuffix, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
		line := strconv.FormatInt(now.UnixMicro(), 10) + " " + strconv.Quote(id) + "\n"
		_, werr := f.WriteString(line)
		cerr := f.Close()
		if werr == nil && cerr == nil {
			return true
		}
	}
	marker := markerPath(path, id)
	if err := os.Rename(path+spareSuffix, marker); err != nil {
		f, err := os.OpenFile(marker, os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return false
		}
		f.Close()
	}
	_ = os.Chtimes(marker, now, now)
	makeSpare(path) // for the next loss, if there is room now
	return true
}

// markerAt returns when session id's lost marker was made (zero when
// there is none).
func markerAt(path, id string) time.Time {
	st, err := os.Stat(markerPath(path, id))
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}
