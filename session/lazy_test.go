package session_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/sessiontest"
)

// TestLazyConformance runs the store conformance suite on Lazy over both
// stores.
func TestLazyConformance(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		sessiontest.Run(t, func(_ *testing.T, opts session.Options) session.Store {
			return session.NewLazy(func() (session.Store, error) { return session.NewMemory(opts), nil })
		})
	})
	t.Run("sqlite", func(t *testing.T) {
		sessiontest.Run(t, func(t *testing.T, opts session.Options) session.Store {
			path := filepath.Join(t.TempDir(), "state.db")
			return session.NewLazy(func() (session.Store, error) { return session.Open(path, opts) })
		})
	})
}

func TestLazyOpensOnFirstUse(t *testing.T) {
	ctx := context.Background()
	opens := 0
	l := session.NewLazy(func() (session.Store, error) {
		opens++
		return session.NewMemory(session.Options{}), nil
	})
	if l.Opened() || opens != 0 {
		t.Fatal("opened before use")
	}
	if _, err := l.Turn(ctx, "s"); err != nil || !l.Opened() {
		t.Fatalf("Turn: %v, opened %v", err, l.Opened())
	}
	l.History(ctx, "s", session.Window{})
	if opens != 1 {
		t.Errorf("opened %d times", opens)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Turn(ctx, "s"); !errors.Is(err, session.ErrClosed) {
		t.Errorf("after Close: %v", err)
	}

	boom := errors.New("disk on fire")
	bad := session.NewLazy(func() (session.Store, error) { return nil, boom })
	if err := bad.Append(ctx, "s", session.Record{Tool: "Bash"}); !errors.Is(err, boom) {
		t.Errorf("open error not returned: %v", err)
	}
	if err := bad.Close(); err != nil {
		t.Errorf("Close of a failed lazy store: %v", err)
	}
	never := session.NewLazy(func() (session.Store, error) { t.Fatal("opened by Close"); return nil, nil })
	if err := never.Close(); err != nil || never.Opened() {
		t.Errorf("Close of unopened: %v %v", err, never.Opened())
	}
}

// TestLazyReset: Reset closes what was opened and opens again on the
// next use; a failed open is tried again; a closed Lazy stays closed.
func TestLazyReset(t *testing.T) {
	ctx := context.Background()
	var opened []*session.Memory
	fail := true
	l := session.NewLazy(func() (session.Store, error) {
		if fail {
			return nil, errors.New("not yet")
		}
		m := session.NewMemory(session.Options{})
		opened = append(opened, m)
		return m, nil
	})
	if _, err := l.Turn(ctx, "s"); err == nil {
		t.Fatal("want the open error")
	}
	fail = false
	if _, err := l.Turn(ctx, "s"); err == nil {
		t.Fatal("a failed open was retried without Reset")
	}
	for i := range 2 {
		if err := l.Reset(); err != nil {
			t.Fatal(err)
		}
		if l.Opened() {
			t.Fatal("Reset left it opened")
		}
		if _, err := l.AdvanceTurn(ctx, "s"); err != nil {
			t.Fatalf("after Reset %d: %v", i, err)
		}
	}
	if len(opened) != 2 {
		t.Fatalf("opened %d stores, want 2", len(opened))
	}
	if _, err := opened[0].Turn(ctx, "s"); !errors.Is(err, session.ErrClosed) {
		t.Errorf("the store opened before Reset is not closed: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Reset(); !errors.Is(err, session.ErrClosed) {
		t.Errorf("Reset after Close: %v", err)
	}
}
