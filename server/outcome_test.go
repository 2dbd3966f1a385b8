package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/sqlitestore"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

// logBuffer is a log destination tests read while the server writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestAuditOutcomeElsewhere: two servers, each with an audit log of its
// own (SQLite, written directly). A decision made on A and recorded
// through B is answered 200 (the call is in session memory), and B says
// its audit log does not hold the decision: a warning naming it and
// toolwall_audit_outcomes_unmatched_total. Recorded through A, the
// outcome attaches and nothing is counted.
func TestAuditOutcomeElsewhere(t *testing.T) {
	open := func(name string) (*running, *sqlitestore.Store, *logBuffer) {
		st := sqlitestore.Open(filepath.Join(t.TempDir(), name+".db"), sqlitestore.Options{})
		t.Cleanup(func() { st.Close() })
		logs := &logBuffer{}
		return start(t, server.Options{Audit: st, Logger: slog.New(slog.NewTextHandler(logs, nil))}), st, logs
	}
	a, auditA, logsA := open("a")
	b, _, logsB := open("b")
	ctx := context.Background()
	call := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), Session: "s", CallID: "toolu_1"}
	d, err := client.New(a.url, client.Options{Token: tokA}).Decide(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	rec := api.Record{Call: call, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}}
	if err := client.New(b.url, client.Options{Token: tokA}).Record(ctx, rec); err != nil {
		t.Fatalf("record through B: %v", err)
	}
	if l := logsB.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "audit log does not hold") || !strings.Contains(l, d.DecisionID) {
		t.Errorf("B's log does not warn of the unmatched outcome of %s:\n%s", d.DecisionID, l)
	}
	if m := metricsText(t, b.url); !strings.Contains(m, "toolwall_audit_outcomes_unmatched_total 1") || !strings.Contains(m, "toolwall_audit_errors_total 0") {
		t.Errorf("B's metrics:\n%s", grep(m, "toolwall_audit"))
	}
	if r, err := auditA.Get(ctx, d.DecisionID); err != nil || r.Outcome != nil {
		t.Fatalf("A's record before the outcome reached A: %+v %v", r, err)
	}

	if err := client.New(a.url, client.Options{Token: tokA}).Record(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if r, err := auditA.Get(ctx, d.DecisionID); err != nil || r.Outcome == nil || !r.Outcome.Success {
		t.Errorf("A's record after the outcome reached A: %+v %v", r, err)
	}
	if m := metricsText(t, a.url); !strings.Contains(m, "toolwall_audit_outcomes_unmatched_total 0") {
		t.Errorf("A's metrics:\n%s", grep(m, "toolwall_audit"))
	}
	if strings.Contains(logsA.String(), "level=WARN") {
		t.Errorf("A warned:\n%s", logsA.String())
	}
}

// holdSink keeps records and outcomes; Outcome waits for hold to close,
// then fails as a store does when its context is done.
type holdSink struct {
	hold     chan struct{}
	mu       sync.Mutex
	outcomes map[string]audit.Outcome
}

func (s *holdSink) Record(context.Context, audit.Record) error { return nil }

func (s *holdSink) Outcome(ctx context.Context, id string, o audit.Outcome) error {
	<-s.hold
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outcomes[id] = o
	return nil
}

// TestOutcomeClientGone: an outcome whose client hangs up before the
// audit write is still attached, as a decision's record is
// (TestAuditClientGone).
func TestOutcomeClientGone(t *testing.T) {
	au := &holdSink{hold: make(chan struct{}), outcomes: map[string]audit.Outcome{}}
	srv := start(t, server.Options{Audit: au})
	c := client.New(srv.url, client.Options{Token: tokA})
	call := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), Session: "s", CallID: "t1"}
	d, err := c.Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		yes := true
		c.Record(ctx, api.Record{Call: call, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
	}()
	time.Sleep(100 * time.Millisecond) // the call is recorded; its outcome's write waits
	cancel()
	<-done
	time.Sleep(100 * time.Millisecond) // the server sees the connection close
	close(au.hold)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		au.mu.Lock()
		_, ok := au.outcomes[d.DecisionID]
		au.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the outcome of a client that hung up was not attached")
}
