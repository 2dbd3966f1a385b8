package sessiontest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/session"
)

// Broken stores, each wrong in one way the scripts must notice.
type (
	reversed   struct{ session.Store } // History newest first
	uncapped   struct{ session.Store } // History ignores Window.Calls
	turnBefore struct{ session.Store } // AdvanceTurn returns the old turn
	noPrune    struct{ session.Store } // Prune does nothing
	keyFold    struct{ session.Store } // refusal keys case-folded
	riskAdds   struct{ session.Store } // NoteRisk drops Set: a level set is added
	riskAll    struct{ session.Store } // Risk returns an event past the cap
)

func (s reversed) History(ctx context.Context, id string, w session.Window) ([]session.Record, error) {
	h, err := s.Store.History(ctx, id, w)
	slices.Reverse(h)
	return h, err
}

func (s uncapped) History(ctx context.Context, id string, w session.Window) ([]session.Record, error) {
	w.Calls = 1 << 20
	return s.Store.History(ctx, id, w)
}

func (s turnBefore) AdvanceTurn(ctx context.Context, id string) (int, error) {
	n, err := s.Store.AdvanceTurn(ctx, id)
	return n - 1, err
}

func (noPrune) Prune(context.Context, time.Duration) (int, error) { return 0, nil }

func (s keyFold) NoteRefusal(ctx context.Context, id, key string) (int, error) {
	return s.Store.NoteRefusal(ctx, id, strings.ToLower(key))
}

func (s keyFold) Refusals(ctx context.Context, id, key string, w session.Window) (int, error) {
	return s.Store.Refusals(ctx, id, strings.ToLower(key), w)
}

func (s riskAdds) NoteRisk(ctx context.Context, id string, e session.RiskEvent) error {
	e.Set = false
	return s.Store.NoteRisk(ctx, id, e)
}

func (s riskAll) Risk(ctx context.Context, id string) (session.RiskLog, error) {
	log, err := s.Store.Risk(ctx, id)
	if err != nil || len(log.Events) < session.DefaultRiskEvents {
		return log, err
	}
	return session.RiskLog{Turn: log.Turn, Events: append([]session.RiskEvent{{Points: 1, Why: "e1"}}, log.Events...)}, nil
}

// TestScriptsCatchBrokenStores runs every script case against each broken
// store: some case must report a mismatch, else the suite cannot fail.
// The correct memory store must pass them all.
func TestScriptsCatchBrokenStores(t *testing.T) {
	var cases []*scriptCase
	files, _ := scripts.ReadDir("testdata")
	for _, f := range files {
		data, err := scripts.ReadFile("testdata/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		cs, err := parse(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f.Name(), err)
		}
		cases = append(cases, cs...)
	}
	for name, wrap := range map[string]func(session.Store) session.Store{
		"correct":     func(s session.Store) session.Store { return s },
		"reversed":    func(s session.Store) session.Store { return reversed{s} },
		"uncapped":    func(s session.Store) session.Store { return uncapped{s} },
		"turn-before": func(s session.Store) session.Store { return turnBefore{s} },
		"no-prune":    func(s session.Store) session.Store { return noPrune{s} },
		"key-fold":    func(s session.Store) session.Store { return keyFold{s} },
		"risk-adds":   func(s session.Store) session.Store { return riskAdds{s} },
		"risk-all":    func(s session.Store) session.Store { return riskAll{s} },
	} {
		var problems []string
		for _, c := range cases {
			problems = append(problems, c.run(func(o session.Options) session.Store { return wrap(session.NewMemory(o)) })...)
		}
		if name == "correct" && len(problems) > 0 {
			t.Errorf("the memory store fails the scripts: %v", problems)
		}
		if name != "correct" && len(problems) == 0 {
			t.Errorf("no script notices the %s store", name)
		}
	}
}

// TestSplit checks the script word splitter.
func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`history s => a@0 b@1`:   {"history", "s", "=>", "a@0", "b@1"},
		`turn "" => err:invalid`: {"turn", "", "=>", "err:invalid"},
		`x "a b"@1 "\xff"`:       {"x", "a b@1", "\xff"},
	} {
		got, err := split(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := split(`x "unterminated`); err == nil {
		t.Error("split accepted an unterminated quote")
	}
}
