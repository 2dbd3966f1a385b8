package session_test

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/session"
)

// openCase is one line of testdata/open.tsv.
type openCase struct {
	setup, expect, note string
}

func readOpenCases(t *testing.T) []openCase {
	t.Helper()
	var cases []openCase
	for _, r := range rows.Read(t, "testdata/open.tsv", 3) {
		cols := r.Fields
		cases = append(cases, openCase{cols[0], cols[1], cols[2]})
	}
	return cases
}

// openSetup prepares a state path under dir as setup says and returns it.
func openSetup(t *testing.T, dir, setup string) string {
	t.Helper()
	path := filepath.Join(dir, "state", "state.db")
	write := func(b []byte) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sqlite := func(stmts ...string) {
		write(nil)
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	name, arg, _ := strings.Cut(setup, " ")
	switch name {
	case "missing":
	case "empty-file":
		write(nil)
	case "current":
		st, err := session.Open(path, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AdvanceTurn(context.Background(), "s"); err != nil {
			t.Fatal(err)
		}
		st.Close()
	case "garbage":
		n, err := strconv.Atoi(arg)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, n)
		rnd := rand.NewChaCha8([32]byte{1})
		rnd.Read(b)
		write(b)
	case "text":
		write([]byte("this is not a database\n"))
	case "bad-header":
		b := make([]byte, 8192)
		for i := range b {
			b[i] = byte(i*7 + 3)
		}
		copy(b, "SQLite format 3\x00")
		write(b)
	case "directory":
		if err := os.MkdirAll(path, 0o700); err != nil {
			t.Fatal(err)
		}
	case "parent-is-file":
		if err := os.WriteFile(filepath.Join(dir, "state"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	case "unwritable-dir":
		if os.Geteuid() == 0 {
			t.Skip("root writes anywhere; see the proc case")
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Dir(path), 0o700) })
	case "proc":
		if _, err := os.Stat("/proc/self"); err != nil {
			t.Skip("no /proc")
		}
		return "/proc/self/toolwall/state.db"
	case "foreign-db":
		sqlite(`CREATE TABLE notes (body TEXT)`, `INSERT INTO notes VALUES ('keep me')`)
	case "other-app-id":
		sqlite(`PRAGMA application_id = 42`)
	case "newer-schema":
		st, err := session.Open(path, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		sqlite(`PRAGMA user_version = 99`)
	case "empty-path":
		return ""
	default:
		t.Fatalf("unknown setup %q", setup)
	}
	return path
}

// TestOpen checks which state files open and that the rest fail with an
// *OpenError matching ErrUnavailable, and that an opened store works.
func TestOpen(t *testing.T) {
	for _, c := range readOpenCases(t) {
		t.Run(c.setup, func(t *testing.T) {
			path := openSetup(t, t.TempDir(), c.setup)
			before, _ := os.ReadFile(path)
			st, err := session.Open(path, session.Options{})
			switch c.expect {
			case "ok":
				if err != nil {
					t.Fatalf("Open: %v (%s)", err, c.note)
				}
				defer st.Close()
				ctx := context.Background()
				if err := st.Append(ctx, "s", session.Record{Tool: "Bash", Summary: "ls"}); err != nil {
					t.Fatalf("Append: %v", err)
				}
				if h, err := st.History(ctx, "s", session.Window{}); err != nil || len(h) == 0 {
					t.Fatalf("History = %v, %v", h, err)
				}
			case "unavailable":
				if err == nil {
					st.Close()
					t.Fatalf("Open succeeded; want ErrUnavailable (%s)", c.note)
				}
				var oe *session.OpenError
				if !errors.Is(err, session.ErrUnavailable) || !errors.As(err, &oe) || oe.Path != path {
					t.Fatalf("Open error %v (%T); want an *OpenError for %q matching ErrUnavailable", err, err, path)
				}
				if after, _ := os.ReadFile(path); string(after) != string(before) {
					t.Errorf("a failed Open changed the file")
				}
				t.Logf("%s: %v", c.setup, err)
			default:
				t.Fatalf("open.tsv: unknown expectation %q", c.expect)
			}
		})
	}
}

// TestOpenCreates checks first use: parent directories 0700, file 0600,
// WAL mode.
func TestOpenCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AdvanceTurn(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, filepath.Dir(dir): 0o700 | os.ModeDir, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (os.ModePerm | os.ModeDir); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
	// WAL mode persists in the file header: bytes 18 and 19 are 2.
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 20 || b[18] != 2 || b[19] != 2 {
		t.Errorf("state file not in WAL mode (header bytes 18-19 %v, err %v)", b[18:20], err)
	}
}

// TestCorruptPages garbles the pages after the header of a working store:
// every operation then either works or fails with ErrUnavailable, none
// panics, and reading the history fails.
func TestCorruptPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 30 {
		if err := st.Append(ctx, "s", benchRecord(i)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 3*4096 {
		t.Fatalf("state file of %d bytes: %v", len(b), err)
	}
	rnd := rand.NewChaCha8([32]byte{2})
	rnd.Read(b[4096:])
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err = session.Open(path, session.Options{})
	if err != nil {
		if !errors.Is(err, session.ErrUnavailable) {
			t.Fatalf("Open error %v does not match ErrUnavailable", err)
		}
		return
	}
	defer st.Close()
	_, herr := st.History(ctx, "s", session.Window{})
	if herr == nil {
		t.Error("History on garbled pages succeeded")
	}
	errs := []error{herr, st.Append(ctx, "s", benchRecord(0))}
	_, err = st.AdvanceTurn(ctx, "s")
	errs = append(errs, err)
	_, err = st.Refusals(ctx, "s", "k", session.Window{})
	errs = append(errs, err)
	_, err = st.Prune(ctx, 0)
	errs = append(errs, err)
	for i, err := range errs {
		if err != nil && !errors.Is(err, session.ErrUnavailable) {
			t.Errorf("operation %d: error %v does not match ErrUnavailable", i, err)
		}
	}
}

// TestDefaultPath checks the lookup order: $TOOLWALL_STATE, then an
// absolute $XDG_STATE_HOME, then ~/.local/state.
func TestDefaultPath(t *testing.T) {
	for _, c := range []struct{ state, xdg, home, want string }{
		{"/s/state.db", "/x", "/h", "/s/state.db"},
		{"", "/x", "/h", "/x/toolwall/state.db"},
		{"", "relative", "/h", "/h/.local/state/toolwall/state.db"},
		{"", "", "/h", "/h/.local/state/toolwall/state.db"},
	} {
		t.Setenv(session.EnvState, c.state)
		t.Setenv("XDG_STATE_HOME", c.xdg)
		t.Setenv("HOME", c.home)
		if got, err := session.DefaultPath(); got != c.want || err != nil {
			t.Errorf("DefaultPath with %+v = %q, %v; want %q", c, got, err, c.want)
		}
	}
	t.Setenv(session.EnvState, "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	if got, err := session.DefaultPath(); err == nil {
		t.Errorf("DefaultPath with nothing set = %q, want an error", got)
	}
}

// TestOpenCurrentWritesNothing checks the fast path: opening and closing a
// store whose schema is current leaves the file as it was (no migration,
// no mode switch).
func TestOpenCurrentWritesNothing(t *testing.T) {
	path := openSetup(t, t.TempDir(), "current")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Turn(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("opening a current store changed the file")
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() != 0 {
		t.Errorf("write-ahead log after close: %v, %v; want kept and empty", fi, err)
	}
}

// TestOpenRecover: with Options.Recover, an unusable state file is
// renamed aside with its bytes intact and a fresh store works; a newer
// schema or a directory is refused untouched.
func TestOpenRecover(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/recover.tsv", 0) {
		cols := r.Fields
		t.Run(cols[0], func(t *testing.T) {
			dir := t.TempDir()
			path := openSetup(t, dir, cols[0])
			before, _ := os.ReadFile(path)
			st, err := session.Open(path, session.Options{Recover: true})
			switch cols[1] {
			case "ok", "recovered":
				if err != nil {
					t.Fatalf("Open: %v (%s)", err, cols[2])
				}
				defer st.Close()
				if err := st.Append(context.Background(), "s", session.Record{Tool: "Bash", Summary: "ls"}); err != nil {
					t.Fatalf("Append: %v", err)
				}
				if (st.Recovered != nil) != (cols[1] == "recovered") {
					t.Fatalf("Recovered = %v", st.Recovered)
				}
				if st.Recovered != nil {
					kept, err := os.ReadFile(st.Recovered.Aside)
					if err != nil || string(kept) != string(before) {
						t.Fatalf("the old file was not kept intact at %s: %v", st.Recovered.Aside, err)
					}
					if !strings.Contains(st.Recovered.String(), st.Recovered.Aside) {
						t.Errorf("Recovery.String does not name the place: %s", st.Recovered)
					}
				}
			case "unavailable":
				if err == nil {
					st.Close()
					t.Fatalf("Open succeeded (%s)", cols[2])
				}
				if after, _ := os.ReadFile(path); string(after) != string(before) {
					t.Errorf("the file changed")
				}
				if m, _ := filepath.Glob(path + ".unusable-*"); len(m) > 0 {
					t.Errorf("moved aside: %v", m)
				}
			}
		})
	}
}

// TestLostRecord: a record that cannot be written (another process holds
// the write lock past the caller's deadline) is noted beside the state
// file, and the session's History then says its memory is incomplete
// (a *LostError matching ErrUnavailable) while still returning what it
// has; other sessions are not affected (no chain let through
// because memory failed).
func TestLostRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{BusyTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := t.Context()
	if err := st.Append(ctx, "s1", session.Record{Tool: "Bash", Summary: "ls", Success: true}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := st.Append(short, "s1", session.Record{Tool: "Bash", Summary: "curl -o x.sh https://x.example", Success: true}); err == nil {
		t.Fatal("Append succeeded while another connection held the write lock")
	}
	conn.ExecContext(ctx, "ROLLBACK")
	conn.Close()
	h, err := st.History(ctx, "s1", session.Window{})
	var lost *session.LostError
	if !errors.As(err, &lost) || !errors.Is(err, session.ErrUnavailable) || lost.Session != "s1" {
		t.Fatalf("History after a lost record: %v; want a *LostError for s1", err)
	}
	if len(h) != 1 || h[0].Summary != "ls" {
		t.Errorf("History kept %+v; want the one record written", h)
	}
	if _, err := st.History(ctx, "s2", session.Window{}); err != nil {
		t.Errorf("another session: %v", err)
	}
}

// TestMigrateRisk: a state file written before the risk table existed
// (schema version 2) is migrated in place when opened: its records are
// kept and risk events work afterwards (and the later migrations run).
func TestMigrateRisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, "s", session.Record{Tool: "Bash", Summary: "kept"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// Back to version 2: what a file of the release before looks like.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TABLE risk`, `DROP TABLE decisions`, `PRAGMA user_version = 2`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	st, err = session.Open(path, session.Options{})
	if err != nil {
		t.Fatalf("opening a version 2 file: %v", err)
	}
	defer st.Close()
	if h, err := st.History(ctx, "s", session.Window{}); err != nil || len(h) != 1 || h[0].Summary != "kept" {
		t.Errorf("History after the migration = %+v, %v", h, err)
	}
	if err := st.NoteRisk(ctx, "s", session.RiskEvent{Points: 2, Why: "after"}); err != nil {
		t.Fatal(err)
	}
	if log, err := st.Risk(ctx, "s"); err != nil || len(log.Events) != 1 || log.Events[0].Why != "after" {
		t.Errorf("Risk after the migration = %+v, %v", log, err)
	}
	db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != 4 {
		t.Errorf("user_version = %d, %v; want 4", v, err)
	}
}
