package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// batchStores are the session stores the batch tests run on: in memory
// (one call at a time) and PostgreSQL (the batch view: one history read,
// one stage write, one commit per batch) when $TOOLWALL_TEST_POSTGRES is
// set.
func batchStores(t *testing.T) map[string]func(t *testing.T) session.Store {
	return map[string]func(t *testing.T) session.Store{
		"memory": func(t *testing.T) session.Store { return session.NewMemory(session.Options{Calls: 100}) },
		"postgres": func(t *testing.T) session.Store {
			dsn := postgrestest.DSN(t)
			st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: postgrestest.Schema(t, dsn), Session: session.Options{Calls: 100}})
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
}

// TestBatchChains: downloads decided in one batch and recorded in one
// arm the chain rule for the runs decided in the next, session by
// session and tenant by tenant: a session whose download was refused to
// run (never recorded), a failed download, a download recorded twice in
// one record batch, and the same session id under another token stay
// unarmed or armed as they would one call at a time.
func TestBatchChains(t *testing.T) {
	for name, open := range batchStores(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			srv := start(t, server.Options{Store: st})
			ctx := context.Background()
			a := client.New(srv.url, client.Options{Token: tokA})
			b := client.New(srv.url, client.Options{Token: tokB})
			yes, no := true, false
			dl := func(sess string, i int) api.Call {
				return api.Call{Tool: "Bash", Input: json.RawMessage(fmt.Sprintf(`{"command":"curl -o /w/x%d.sh https://example.com/x.sh"}`, i)),
					Session: sess, CallID: fmt.Sprintf("dl-%s-%d", sess, i), Cwd: "/w", Home: "/home/u"}
			}
			run := func(sess string, i int) api.Call {
				return api.Call{Tool: "Bash", Input: json.RawMessage(fmt.Sprintf(`{"command":"bash /w/x%d.sh"}`, i)), Session: sess, Cwd: "/w", Home: "/home/u"}
			}
			// s1 and s2 download two scripts each; s3 one, which fails;
			// calls without a session ride along. One s2 download is
			// never reported as run, and one s1 download twice.
			scenario := func(p string) (calls []api.Call, ok []bool, recorded []int, runs []api.Call) {
				calls = []api.Call{dl(p+"1", 1), dl(p+"2", 1), {Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}, dl(p+"1", 2), dl(p+"3", 1), dl(p+"2", 2)}
				ok = []bool{true, true, true, true, false, true}
				recorded = []int{0, 1, 2, 3, 4, 0}
				runs = []api.Call{run(p+"1", 1), run(p+"1", 2), run(p+"2", 1), run(p+"2", 2), run(p+"3", 1), run(p+"4", 1)}
				return
			}
			outcome := func(b bool) *api.Outcome {
				if b {
					return &api.Outcome{Success: &yes}
				}
				return &api.Outcome{Success: &no}
			}
			// One request per call: the reference.
			calls, ok, recorded, runs := scenario("one-")
			var ids []string
			for _, c := range calls {
				d, err := a.Decide(ctx, c)
				if err != nil || d.Action.Stops() {
					t.Fatalf("%s: %s %v %v", c.Input, d.Action, d.Rules, err)
				}
				ids = append(ids, d.DecisionID)
			}
			for _, i := range recorded {
				if err := a.Record(ctx, api.Record{Call: calls[i], DecisionID: ids[i], Outcome: outcome(ok[i])}); err != nil {
					t.Fatal(err)
				}
			}
			var want []api.Decision
			for _, c := range runs {
				d, err := a.Decide(ctx, c)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, d)
			}
			// The same in three batches.
			calls, ok, recorded, runs = scenario("bat-")
			ds, err := a.DecideBatch(ctx, calls)
			if err != nil {
				t.Fatal(err)
			}
			var recs []api.Record
			for _, i := range recorded {
				if ds[i].Action.Stops() {
					t.Fatalf("%s: %s %v", calls[i].Input, ds[i].Action, ds[i].Rules)
				}
				recs = append(recs, api.Record{Call: calls[i], DecisionID: ds[i].DecisionID, Outcome: outcome(ok[i])})
			}
			if err := a.RecordBatch(ctx, recs); err != nil {
				t.Fatal(err)
			}
			ds, err = a.DecideBatch(ctx, runs)
			if err != nil {
				t.Fatal(err)
			}
			armed := func(d api.Decision) bool { return slices.Contains(d.Rules, "chain.download-execute") }
			for i := range runs {
				if ds[i].Action != want[i].Action || !slices.Equal(ds[i].Rules, want[i].Rules) {
					t.Errorf("%s in %s: batch %s %v, one at a time %s %v", runs[i].Input, runs[i].Session, ds[i].Action, ds[i].Rules, want[i].Action, want[i].Rules)
				}
			}
			if !armed(ds[0]) || !armed(ds[1]) || !armed(ds[2]) || armed(ds[3]) || armed(ds[5]) {
				t.Errorf("runs after the downloads: %v", ds)
			}
			ds, err = b.DecideBatch(ctx, []api.Call{run("bat-1", 1), run("bat-1", 2)})
			if err != nil {
				t.Fatal(err)
			}
			if armed(ds[0]) || armed(ds[1]) {
				t.Errorf("another tenant's session s1 is armed: %v %v", ds[0].Rules, ds[1].Rules)
			}
		})
	}
}

// TestBatchOrderInSession: the calls of one session in a batch are
// decided in order, each seeing what the ones before it left in session
// memory: a refusal noted by the first raises the second (the gate's
// repeated-refusal rule), exactly as two requests one after the other.
func TestBatchOrderInSession(t *testing.T) {
	for name, open := range batchStores(t) {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			srv := start(t, server.Options{Store: st})
			ctx := context.Background()
			c := client.New(srv.url, client.Options{Token: tokA})
			call := func(sess string) api.Call {
				return api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"sudo rm -rf ~"}`), Session: sess, Cwd: "/w", Home: "/home/u"}
			}
			one, err := c.Decide(ctx, call("seq"))
			if err != nil {
				t.Fatal(err)
			}
			two, err := c.Decide(ctx, call("seq"))
			if err != nil {
				t.Fatal(err)
			}
			ds, err := c.DecideBatch(ctx, []api.Call{call("bat"), call("other"), call("bat")})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ds[0].Rules, one.Rules) || !slices.Equal(ds[2].Rules, two.Rules) || !slices.Equal(ds[1].Rules, one.Rules) {
				t.Errorf("batch rules %v / %v / %v, one request at a time %v then %v", ds[0].Rules, ds[1].Rules, ds[2].Rules, one.Rules, two.Rules)
			}
			if slices.Equal(one.Rules, two.Rules) {
				t.Logf("the repeated attempt carries the same rules (%v): the order is not observable here", two.Rules)
			}
		})
	}
}

// TestBatchAudit: each decision of a batch has its own decision id and
// audit record, and a record batch attaches each outcome to its id.
func TestBatchAudit(t *testing.T) {
	au := &sink{}
	srv := start(t, server.Options{Audit: au})
	ctx := context.Background()
	c := client.New(srv.url, client.Options{Token: tokA})
	calls := []api.Call{
		{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), Session: "s", CallID: "t1"},
		{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`), Session: "s", CallID: "t2"},
		{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), CallID: "t3", Cwd: "/w"},
	}
	ds, err := c.DecideBatch(ctx, calls)
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	var recs []api.Record
	for i, d := range ds {
		recs = append(recs, api.Record{Call: calls[i], DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes, DurationMS: int64(i + 1)}})
	}
	if err := c.RecordBatch(ctx, recs); err != nil {
		t.Fatal(err)
	}
	au.mu.Lock()
	defer au.mu.Unlock()
	if len(au.records) != 3 {
		t.Fatalf("%d audit records, want 3", len(au.records))
	}
	for i, r := range au.records {
		if r.ID != ds[i].DecisionID || r.CallID != calls[i].CallID || r.Verdict.Action != ds[i].Action {
			t.Errorf("audit record %d: %+v, decision %+v", i, r, ds[i])
		}
		if o, ok := au.outcomes[r.ID]; !ok || o.Duration.Milliseconds() != int64(i+1) {
			t.Errorf("outcome of %d: %+v %v", i, o, ok)
		}
	}
	if ds[0].DecisionID == ds[1].DecisionID {
		t.Error("two decisions of one batch share an id")
	}
}

// TestVerdictCache: only calls without a session are answered from the
// verdict cache, only for the exact same call, and only for 500 ms; a
// call with a session is judged every time (chain rules see it), and a
// server with the cache off judges every call.
func TestVerdictCache(t *testing.T) {
	ctx := context.Background()
	counts := func(srv *running) (hit, miss string) {
		m := metricsText(t, srv.url)
		return grep(m, `toolwall_decision_cache_total{result="hit"}`), grep(m, `toolwall_decision_cache_total{result="miss"}`)
	}
	srv := start(t, server.Options{})
	c := client.New(srv.url, client.Options{Token: tokA})
	bare := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), Cwd: "/w", Home: "/home/u"}
	other := bare
	other.Input = json.RawMessage(`{"command":"git reset --hard "}`)
	withSession := bare
	withSession.Session = "s1"
	first, err := c.Decide(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []api.Call{bare, other, withSession, withSession} {
		if _, err := c.Decide(ctx, call); err != nil {
			t.Fatal(err)
		}
	}
	if hit, miss := counts(srv); !strings.HasSuffix(hit, " 1") || !strings.HasSuffix(miss, " 2") {
		t.Errorf("after a call, the same call, another input and two calls with a session: %s / %s, want 1 hit and 2 misses", hit, miss)
	}
	time.Sleep(600 * time.Millisecond) // policy.ProjectRecheck has passed
	again, err := c.Decide(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	if hit, miss := counts(srv); !strings.HasSuffix(hit, " 1") || !strings.HasSuffix(miss, " 3") {
		t.Errorf("the same call after 600 ms: %s / %s, want judged again", hit, miss)
	}
	if again.Action != first.Action || !slices.Equal(again.Rules, first.Rules) || again.DecisionID == first.DecisionID {
		t.Errorf("verdicts differ: %+v / %+v", first, again)
	}
	off := start(t, server.Options{CacheSize: -1})
	c = client.New(off.url, client.Options{Token: tokA})
	for range 3 {
		if _, err := c.Decide(ctx, bare); err != nil {
			t.Fatal(err)
		}
	}
	if hit, miss := counts(off); !strings.HasSuffix(hit, " 0") || !strings.HasSuffix(miss, " 0") {
		t.Errorf("with the cache off: %s / %s", hit, miss)
	}
}
