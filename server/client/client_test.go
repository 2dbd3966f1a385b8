package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

// replica answers every request with code (and a decision when 200),
// counting requests.
func replica(t *testing.T, code int) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.Header.Get("Authorization") != "Bearer tok" {
			code = http.StatusUnauthorized
		}
		w.WriteHeader(code)
		if code == http.StatusOK {
			json.NewEncoder(w).Encode(map[string]any{"schema": api.Schema, "decision_id": "d", "action": "allow", "session": "s", "turn": 2, "recorded": true})
			return
		}
		json.NewEncoder(w).Encode(api.Error{Schema: api.Schema, Error: api.ErrorDetail{Code: "x", Message: "no"}})
	}))
	t.Cleanup(s.Close)
	return s, &n
}

// TestFailover: an unreachable replica or a 503 sends the request to the
// next; other errors do not; Turn moves on only when the request was
// never sent.
func TestFailover(t *testing.T) {
	ctx := context.Background()
	down := httptest.NewServer(nil)
	down.Close() // nothing listens there any more
	busy, nBusy := replica(t, http.StatusServiceUnavailable)
	ok, nOK := replica(t, http.StatusOK)
	bad, _ := replica(t, http.StatusBadRequest)

	c := client.New(down.URL, client.Options{Token: "tok", Replicas: []string{busy.URL, ok.URL}})
	if d, err := c.Decide(ctx, api.Call{Tool: "Bash"}); err != nil || d.Action.String() != "allow" {
		t.Fatalf("Decide = %+v, %v", d, err)
	}
	if nBusy.Load() != 1 || nOK.Load() != 1 {
		t.Errorf("requests: busy %d, ok %d", nBusy.Load(), nOK.Load())
	}
	if err := c.Record(ctx, api.Record{Call: api.Call{Tool: "Bash"}}); err != nil || nOK.Load() != 2 || nBusy.Load() != 1 {
		t.Errorf("the client did not stay on the replica that answered: %v, busy %d", err, nBusy.Load())
	}

	c = client.New(bad.URL, client.Options{Token: "tok", Replicas: []string{ok.URL}})
	var se *client.StatusError
	d, err := c.Decide(ctx, api.Call{Tool: "Bash"})
	if !errors.As(err, &se) || se.Code != http.StatusBadRequest || d.Action.String() != "deny" || d.Rules[0] != "gate.internal-error" {
		t.Errorf("a 400 must not fail over, and Decide must fail closed: %+v %v", d, err)
	}

	c = client.New(busy.URL, client.Options{Token: "tok", Replicas: []string{ok.URL}})
	before := nOK.Load()
	if _, err := c.Turn(ctx, "s"); err == nil || nOK.Load() != before {
		t.Errorf("Turn retried after a 503 (the turn may have advanced): %v", err)
	}
	c = client.New(down.URL, client.Options{Token: "tok", Replicas: []string{ok.URL}})
	if n, err := c.Turn(ctx, "s"); err != nil || n != 2 {
		t.Errorf("Turn past an unreachable replica = %d, %v", n, err)
	}
}

// TestBatchFailsClosed: a batch the server cannot answer comes back as a
// deny for every call, and a server that answers with the wrong number of
// decisions is an error, never a partial list.
func TestBatchFailsClosed(t *testing.T) {
	ctx := context.Background()
	bad, _ := replica(t, http.StatusBadRequest)
	calls := []api.Call{{Tool: "Bash"}, {Tool: "Write"}}
	ds, err := client.New(bad.URL, client.Options{Token: "tok"}).DecideBatch(ctx, calls)
	if err == nil || len(ds) != 2 || ds[0].Action.String() != "deny" || ds[1].Action.String() != "deny" || ds[1].Rules[0] != "gate.internal-error" {
		t.Errorf("DecideBatch on a 400: %+v, %v", ds, err)
	}
	short := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(api.Decisions{Schema: api.Schema, Decisions: []api.Decision{{DecisionID: "d"}}})
	}))
	defer short.Close()
	ds, err = client.New(short.URL, client.Options{}).DecideBatch(ctx, calls)
	if err == nil || len(ds) != 2 || ds[0].Action.String() != "deny" {
		t.Errorf("DecideBatch with one decision for two calls: %+v, %v", ds, err)
	}
}

// TestBusyIsDeny: a server that turns a request away (503 with
// Retry-After) gives a deny, with the wait it asked for in the error.
func TestBusyIsDeny(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(api.Error{Schema: api.Schema, Error: api.ErrorDetail{Code: "busy", Message: "toolwall is busy"}})
	}))
	defer s.Close()
	d, err := client.New(s.URL, client.Options{}).Decide(context.Background(), api.Call{Tool: "Bash"})
	var se *client.StatusError
	if !errors.As(err, &se) || se.Code != http.StatusServiceUnavailable || se.RetryAfter != time.Second || d.Action.String() != "deny" {
		t.Errorf("Decide on a busy server: %+v, %v", d, err)
	}
}
