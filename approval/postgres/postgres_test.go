package postgres_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/approval/approvaltest"
	"github.com/toolwall/toolwall/approval/postgres"
	"github.com/toolwall/toolwall/session"
	sessionpg "github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// open returns a store on schema, closed when t ends; it prunes only
// when told to (the scripts count what Prune drops).
func open(t *testing.T, dsn, schema string, opts approval.Options) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{Approval: opts, Schema: schema, PruneEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestConformance runs the approvals suite on PostgreSQL, each case in a
// schema of its own.
func TestConformance(t *testing.T) {
	dsn := postgrestest.DSN(t)
	approvaltest.Run(t, func(t *testing.T, opts approval.Options) approval.Keeper {
		return open(t, dsn, postgrestest.Schema(t, dsn), opts)
	})
}

// TestApproveOnce: replicas approving the same ask at the same moment
// grant it once; the others hear it is not pending.
func TestApproveOnce(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	a, b := open(t, dsn, schema, approval.Options{}), open(t, dsn, schema, approval.Options{})
	ctx := context.Background()
	call := toolwall.NewBashCall("terraform destroy")
	call.Session, call.Cwd = "t/s", "/w"
	if _, err := a.Check(ctx, "d1", call, toolwall.Verdict{Action: toolwall.Ask}, false); err != nil {
		t.Fatal(err)
	}
	if p, err := b.Pending(ctx, "d1"); err != nil || p.Session != "t/s" {
		t.Fatalf("pending on the other replica: %+v %v", p, err)
	}
	var granted, refused atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		st := []*postgres.Store{a, b}[i%2]
		wg.Go(func() {
			_, err := st.Approve(ctx, "d1", "test")
			switch {
			case err == nil:
				granted.Add(1)
			case errors.Is(err, approval.ErrNotPending):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if granted.Load() != 1 || refused.Load() != 15 {
		t.Errorf("%d grants, %d refusals; want 1 and 15", granted.Load(), refused.Load())
	}
	if gs, err := a.Grants(ctx); err != nil || len(gs) != 1 {
		t.Errorf("grants %+v %v", gs, err)
	}
}

// TestPrunesItself: Check prunes expired grants and old entries by
// itself, at most once per PruneEvery.
func TestPrunesItself(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: schema, PruneEvery: time.Hour,
		Approval: approval.Options{TTL: time.Minute, Retention: 2 * time.Hour, Now: clock}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	ask := func(id, cmd string) {
		t.Helper()
		call := toolwall.NewBashCall(cmd)
		call.Session = "t/s"
		if _, err := st.Check(ctx, id, call, toolwall.Verdict{Action: toolwall.Ask}, false); err != nil {
			t.Fatal(err)
		}
	}
	ask("d1", "terraform destroy") // prunes (nothing yet), next at +1h
	if _, err := st.Approve(ctx, "d1", "test"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(30 * time.Minute)
	ask("d2", "git reset --hard") // within the hour: no prune
	if n, err := st.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("prune after the grant expired: %d %v, want 1 (the grant; its pending entry is within the retention)", n, err)
	}
	now = now.Add(3 * time.Hour)
	ask("d3", "rm -rf build") // prunes d1's pending entry and d2's
	if n, err := st.Prune(ctx); err != nil || n != 0 {
		t.Errorf("prune after Check pruned: %d %v, want 0", n, err)
	}
}

// TestBesideSessions: the approvals and the session memory share one
// schema and one pool, whichever is created first, and replicas starting
// together migrate it in turn.
func TestBesideSessions(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			if i%2 == 0 {
				st, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
				if err != nil {
					t.Error(err)
					return
				}
				st.Close()
				return
			}
			st, err := sessionpg.Open(ctx, dsn, sessionpg.Options{Schema: schema})
			if err != nil {
				t.Error(err)
				return
			}
			st.Close()
		})
	}
	wg.Wait()
	ss, err := sessionpg.Open(ctx, dsn, sessionpg.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	ap, err := postgres.New(ctx, ss.Pool(), postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	ap.Close() // leaves the session store's pool open
	if err := ss.Append(ctx, "t/s", session.Record{Tool: "Bash", Summary: "ls", Success: true}); err != nil {
		t.Errorf("the session store after the approvals store closed: %v", err)
	}
}
