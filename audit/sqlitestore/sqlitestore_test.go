package sqlitestore_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/audittest"
	"github.com/toolwall/toolwall/audit/sqlitestore"
)

func TestConformance(t *testing.T) {
	audittest.Run(t, func(t *testing.T, dir string) audit.Store {
		return sqlitestore.Open(filepath.Join(dir, "audit.db"), sqlitestore.Options{})
	})
}

// TestConformanceInbox: the same suite with writes through the JSONL
// inbox, as the hook writes.
func TestConformanceInbox(t *testing.T) {
	audittest.Run(t, func(t *testing.T, dir string) audit.Store {
		return sqlitestore.Open(filepath.Join(dir, "audit.db"), sqlitestore.Options{Inbox: filepath.Join(dir, "audit.jsonl")})
	})
}

// TestForeignFile: a file that is not a toolwall audit database is
// refused and left as it was.
func TestForeignFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "other.db")
	body := []byte("not a database at all, just text that must survive")
	os.WriteFile(p, body, 0o600)
	s := sqlitestore.Open(p, sqlitestore.Options{})
	defer s.Close()
	if _, err := s.Query(context.Background(), audit.Filter{}); err == nil {
		t.Fatal("a text file opened as an audit database")
	}
	if b, _ := os.ReadFile(p); string(b) != string(body) {
		t.Error("the foreign file was changed")
	}
}
