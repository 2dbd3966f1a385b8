package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// benchRecord is a typical executed Bash call.
func benchRecord(i int) session.Record {
	cmd := fmt.Sprintf("curl -fsSL https://example.com/install-%d.sh -o /tmp/install.sh", i)
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return session.Record{
		Tool: toolwall.ToolBash, Summary: cmd, Input: in, Success: true,
		Effects: []toolwall.Effect{{Tag: toolwall.TagDownloadFile, Path: "/tmp/install.sh"}},
		Rules:   []string{"unixshield.curl"},
	}
}

// fill appends n records to session id.
func fill(b testing.TB, st session.Store, id string, n int) {
	for i := range n {
		if err := st.Append(context.Background(), id, benchRecord(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenAppendHistory is what one hook process does: open the
// state file, read the history of a session holding 20 records, append
// one, close.
func BenchmarkOpenAppendHistory(b *testing.B) {
	path := filepath.Join(b.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	fill(b, st, "s", session.DefaultCalls)
	st.Close()
	ctx := context.Background()
	rec := benchRecord(99)
	b.ReportAllocs()
	for b.Loop() {
		st, err := session.Open(path, session.Options{})
		if err != nil {
			b.Fatal(err)
		}
		h, err := st.History(ctx, "s", session.DefaultWindow())
		if err != nil || len(h) != session.DefaultCalls {
			b.Fatalf("History: %d records, %v", len(h), err)
		}
		if err := st.Append(ctx, "s", rec); err != nil {
			b.Fatal(err)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenHistory is the PreToolUse hook's read path: open, read a
// 20-record history and the refusal count, close.
func BenchmarkOpenHistory(b *testing.B) {
	path := filepath.Join(b.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	fill(b, st, "s", session.DefaultCalls)
	st.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		st, err := session.Open(path, session.Options{})
		if err != nil {
			b.Fatal(err)
		}
		h, err := st.History(ctx, "s", session.DefaultWindow())
		if err != nil || len(h) != session.DefaultCalls {
			b.Fatalf("History: %d records, %v", len(h), err)
		}
		if _, err := st.Refusals(ctx, "s", "rm.root /", session.DefaultWindow()); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// BenchmarkOpenClose is the fixed cost of opening the state file.
func BenchmarkOpenClose(b *testing.B) {
	path := filepath.Join(b.TempDir(), "state.db")
	st, err := session.Open(path, session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	for b.Loop() {
		st, err := session.Open(path, session.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Turn(context.Background(), "s"); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// benchAppendHistory reads a 20-record history and appends, on an open
// store: the server's per-call cost.
func benchAppendHistory(b *testing.B, st session.Store) {
	defer st.Close()
	fill(b, st, "s", session.DefaultCalls)
	ctx := context.Background()
	rec := benchRecord(99)
	b.ReportAllocs()
	for b.Loop() {
		h, err := st.History(ctx, "s", session.DefaultWindow())
		if err != nil || len(h) != session.DefaultCalls {
			b.Fatalf("History: %d records, %v", len(h), err)
		}
		if err := st.Append(ctx, "s", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLiteAppendHistory(b *testing.B) {
	st, err := session.Open(filepath.Join(b.TempDir(), "state.db"), session.Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchAppendHistory(b, st)
}

func BenchmarkMemoryAppendHistory(b *testing.B) {
	benchAppendHistory(b, session.NewMemory(session.Options{}))
}
