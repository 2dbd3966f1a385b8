package session_test

import (
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/sessiontest"
)

func TestMemoryConformance(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, opts session.Options) session.Store {
		return session.NewMemory(opts)
	})
}

func TestSQLiteConformance(t *testing.T) {
	sessiontest.Run(t, func(t *testing.T, opts session.Options) session.Store {
		st, err := session.Open(filepath.Join(t.TempDir(), "state.db"), opts)
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}
