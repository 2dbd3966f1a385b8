package session_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/session"
)

// resetFault makes fault to the state file at path, closed.
func resetFault(t *testing.T, path, fault string) {
	t.Helper()
	rm := func(ps ...string) {
		for _, p := range ps {
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	sqlExec := func(q string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	switch fault {
	case "none":
	case "truncate":
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
	case "remove":
		rm(path, path+"-wal", path+"-shm")
	case "remove-dir":
		rm(filepath.Dir(path))
	case "other-state":
		other := filepath.Join(t.TempDir(), "other.db")
		st, err := session.Open(other, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		data, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		rm(path+"-wal", path+"-shm")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	case "garbage":
		rm(path+"-wal", path+"-shm")
		if err := os.WriteFile(path, bytes.Repeat([]byte("garbage!"), 1024), 0o600); err != nil {
			t.Fatal(err)
		}
	case "foreign":
		rm(path, path+"-wal", path+"-shm")
		sqlExec(`CREATE TABLE photos (id INTEGER PRIMARY KEY)`)
	case "no-mirrors":
		for _, m := range session.SideFiles(path) {
			if strings.HasSuffix(m, "-id") {
				rm(m)
			}
		}
	case "upgrade":
		sqlExec(`DELETE FROM meta WHERE k = 'id'`)
		for _, m := range session.SideFiles(path) {
			if strings.HasSuffix(m, "-id") {
				rm(m)
			}
		}
	default:
		t.Fatalf("unknown fault %q", fault)
	}
}

// TestReset: after each fault of testdata/reset.tsv the next open notes
// a reset or not; after one, a session's History is a *LostError (Reset)
// until it has lived a window of turns in the new file, while what the
// new file holds is still returned.
func TestReset(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/reset.tsv", 3) {
		cols := r.Fields
		fault, want := cols[0], cols[1] == "yes"
		t.Run(fault, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "state", "state.db")
			st, err := session.Open(path, session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Append(ctx, "s1", session.Record{Tool: "Bash", Summary: "curl -o x.sh"}); err != nil {
				t.Fatal(err)
			}
			st.Close()
			resetFault(t, path, fault)
			st, err = session.Open(path, session.Options{Recover: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := st.Append(ctx, "s2", session.Record{Tool: "Bash", Summary: "ls"}); err != nil {
				t.Fatal(err)
			}
			h, err := st.History(ctx, "s1", session.Window{})
			var lost *session.LostError
			got := errors.As(err, &lost) && lost.Reset
			if got != want {
				t.Fatalf("History of s1 after %s: %v; want a reset: %v", fault, err, want)
			}
			if !want {
				if err != nil || len(h) != 1 {
					t.Errorf("History of s1 = %v, %v; want its record", h, err)
				}
				return
			}
			if h, err := st.History(ctx, "s2", session.Window{}); !errors.As(err, &lost) || len(h) != 1 {
				t.Errorf("History of s2, begun after the reset: %v, %v; want its record and the reset", h, err)
			}
			for range session.DefaultTurns {
				if _, err := st.AdvanceTurn(ctx, "s1"); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := st.History(ctx, "s1", session.Window{}); err != nil {
				t.Errorf("History of s1 after a window of turns in the new file: %v", err)
			}
			// Opening again notes nothing new: the mirrors name the new file.
			st2, err := session.Open(path, session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st2.Close()
			if _, err := st2.History(ctx, "s1", session.Window{}); err != nil {
				t.Errorf("History of s1 on the next open: %v", err)
			}
		})
	}
}

// TestLostWithoutSpace: when the lost-records file cannot be written,
// the spare made at open is renamed into the session's marker (a rename
// needs no free space), and History reports the hole.
func TestLostWithoutSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A directory where the lost-records file goes: appending fails.
	if err := os.Mkdir(path+"-lost", 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-spare"); err != nil {
		t.Fatalf("no spare made at open: %v", err)
	}
	if !session.NoteLost(path, "s1") {
		t.Fatal("NoteLost left no trace")
	}
	if m, _ := filepath.Glob(path + "-lost-*"); len(m) != 1 {
		t.Fatalf("markers %v; want one", m)
	}
	var lost *session.LostError
	if _, err := st.History(context.Background(), "s1", session.Window{}); !errors.As(err, &lost) || lost.Reset {
		t.Errorf("History after a lost record: %v; want a *LostError", err)
	}
	if _, err := st.History(context.Background(), "s2", session.Window{}); err != nil {
		t.Errorf("another session: %v", err)
	}
}

// TestVerify: a store kept open finds out that its file was replaced in
// place (truncated), so the process holding it opens the file again.
func TestVerify(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if err := st.Verify(ctx); err != nil {
		t.Fatalf("Verify of an unchanged file: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other.db")
	o, err := session.Open(other, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o.Close()
	data, err := os.ReadFile(other + "-id")
	if err != nil {
		t.Fatal(err)
	}
	// Another file's identity in the mirror: as when another file took
	// its place and was opened by another process.
	if err := os.WriteFile(path+"-id", data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := st.Verify(ctx); !errors.Is(err, session.ErrUnavailable) {
		t.Errorf("Verify after the file's identity changed: %v", err)
	}
}
