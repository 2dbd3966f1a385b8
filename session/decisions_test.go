package session_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/session"
)

// TestDecisions: the first decision under a key stands, in the session
// it was made in, across handles on the same file; only the last
// DefaultDecisions keys are kept.
func TestDecisions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	open := map[string]func(t *testing.T) session.Store{
		"memory": func(*testing.T) session.Store { return session.NewMemory(session.Options{}) },
		"sqlite": func(t *testing.T) session.Store {
			st, err := session.Open(path, session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		"lazy": func(*testing.T) session.Store {
			return session.NewLazy(func() (session.Store, error) { return session.NewMemory(session.Options{}), nil })
		},
	}
	for name, open := range open {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			ds := st.(session.Decisions)
			if _, ok, err := ds.Decided(ctx, "s", "k"); ok || err != nil {
				t.Fatalf("Decided before any: %v %v", ok, err)
			}
			if d, earlier, err := ds.Decide(ctx, "s", "k", []byte("deny")); string(d) != "deny" || earlier || err != nil {
				t.Fatalf("first Decide = %q %v %v", d, earlier, err)
			}
			if d, earlier, err := ds.Decide(ctx, "s", "k", []byte("allow")); string(d) != "deny" || !earlier || err != nil {
				t.Fatalf("second Decide = %q %v %v, want the first to stand", d, earlier, err)
			}
			if d, ok, err := ds.Decided(ctx, "s", "k"); string(d) != "deny" || !ok || err != nil {
				t.Fatalf("Decided = %q %v %v", d, ok, err)
			}
			if _, ok, _ := ds.Decided(ctx, "other", "k"); ok {
				t.Error("a decision seen in another session")
			}
			if _, _, err := ds.Decide(ctx, "s", "", nil); err == nil {
				t.Error("an empty key accepted")
			}
			for i := range session.DefaultDecisions {
				if _, _, err := ds.Decide(ctx, "s", fmt.Sprint("n", i), []byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			if _, ok, _ := ds.Decided(ctx, "s", "k"); ok {
				t.Error("the oldest decision kept past the bound")
			}
		})
	}
	// Another handle on the same file sees the decision.
	a, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := session.Open(path, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, _, err := a.Decide(ctx, "s2", "k", []byte("ask")); err != nil {
		t.Fatal(err)
	}
	if d, ok, err := b.Decided(ctx, "s2", "k"); string(d) != "ask" || !ok || err != nil {
		t.Errorf("the other handle reads %q %v %v", d, ok, err)
	}
}
