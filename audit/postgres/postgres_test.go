package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/audittest"
	"github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/session"
	sessionpg "github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// open returns a store on schema with opts, closed when t ends.
func open(t *testing.T, dsn, schema string, opts postgres.Options) *postgres.Store {
	t.Helper()
	opts.Schema = schema
	st, err := postgres.Open(context.Background(), dsn, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// opener opens the scripts' stores: each case directory in a schema of
// its own (the same schema again after a reopen), on a clock stopped at
// the scripts' Epoch.
func opener(dsn string) audittest.Opener {
	var schemas sync.Map // case directory → schema
	return func(t *testing.T, dir string) audit.Store {
		schema, ok := schemas.Load(dir)
		if !ok {
			schema = postgrestest.Schema(t, dsn)
			schemas.Store(dir, schema)
		}
		return open(t, dsn, schema.(string), postgres.Options{Now: func() time.Time { return audittest.Epoch }})
	}
}

// TestConformance runs the audit stores' suite on PostgreSQL.
func TestConformance(t *testing.T) {
	audittest.Run(t, opener(postgrestest.DSN(t)))
}

// TestHeld runs this store's own scripts (testdata/*.txt): outcomes that
// arrive before their record.
func TestHeld(t *testing.T) {
	audittest.RunScripts(t, os.DirFS("testdata"), opener(postgrestest.DSN(t)))
}

// TestReplicas: two stores on one schema, as two server replicas. An
// outcome sent to B attaches to the decision A recorded; one sent to B
// before A wrote the record attaches when A writes it; B reads A's turn
// marks; and records and outcomes written at the same moment on the two
// never miss each other, whichever commits first.
func TestReplicas(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	a, b := open(t, dsn, schema, postgres.Options{}), open(t, dsn, schema, postgres.Options{})
	ctx := context.Background()
	exit := func(n int) audit.Outcome { return audit.Outcome{Success: n == 0, ExitCode: &n} }
	rec := func(id string) audit.Record {
		return audit.Record{ID: id, At: audittest.Epoch, Driver: "server", Tool: "Bash", Session: "t/s", Input: json.RawMessage(`{"command":"ls"}`)}
	}

	if err := a.Turn(ctx, "t/s", 3, audittest.Epoch); err != nil {
		t.Fatal(err)
	}
	if err := a.Record(ctx, rec("d1")); err != nil {
		t.Fatal(err)
	}
	if err := b.Outcome(ctx, "d1", exit(0)); err != nil {
		t.Fatalf("the outcome on B of A's decision: %v", err)
	}
	err := b.Outcome(ctx, "d2", exit(7))
	if !errors.Is(err, postgres.ErrHeld) || !errors.Is(err, audit.ErrNotFound) {
		t.Fatalf("an outcome before its record: %v, want ErrHeld and audit.ErrNotFound", err)
	}
	if err := a.Record(ctx, rec("d2")); err != nil {
		t.Fatal(err)
	}
	if err := b.Record(ctx, rec("d3")); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"d1": 0, "d2": 7} {
		for name, st := range map[string]*postgres.Store{"A": a, "B": b} {
			r, err := st.Get(ctx, id)
			if err != nil || r.Outcome == nil || r.Outcome.ExitCode == nil || *r.Outcome.ExitCode != want || r.Turn != 3 {
				t.Errorf("%s read from %s: %+v %v, want exit %d in turn 3", id, name, r, err, want)
			}
		}
	}
	if r, err := a.Get(ctx, "d3"); err != nil || r.Turn != 3 {
		t.Errorf("B's record read from A: %+v %v, want turn 3 (A's mark)", r, err)
	}

	// Records on A and their outcomes on B at the same moment.
	const n = 200
	var wg sync.WaitGroup
	var held atomic.Int32
	for i := range n {
		id := fmt.Sprintf("race%d", i)
		wg.Go(func() {
			if err := a.Record(ctx, rec(id)); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			err := b.Outcome(ctx, id, exit(i%5))
			switch {
			case errors.Is(err, postgres.ErrHeld):
				held.Add(1)
			case err != nil:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	t.Logf("%d of %d outcomes came before their record", held.Load(), n)
	rs, err := b.Query(ctx, audit.Filter{Session: "t/s"})
	if err != nil {
		t.Fatal(err)
	}
	lost := 0
	for _, r := range rs {
		if r.Outcome == nil && r.ID != "d3" {
			lost++
		}
	}
	if len(rs) != n+3 || lost > 0 {
		t.Errorf("%d records (want %d), %d without their outcome", len(rs), n+3, lost)
	}
}

// TestRecordMany: a batch is one statement with Record's meaning: the
// first of a repeated id wins, a stored id is ignored, turn marks and
// held outcomes apply; a record without an id fails the whole batch.
func TestRecordMany(t *testing.T) {
	dsn := postgrestest.DSN(t)
	st := open(t, dsn, postgrestest.Schema(t, dsn), postgres.Options{})
	ctx := context.Background()
	if err := st.Turn(ctx, "s", 2, audittest.Epoch); err != nil {
		t.Fatal(err)
	}
	if err := st.Record(ctx, audit.Record{ID: "old", At: audittest.Epoch, Verdict: toolwall.Verdict{Action: toolwall.Warn}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Outcome(ctx, "held", audit.Outcome{Success: true}); !errors.Is(err, postgres.ErrHeld) {
		t.Fatalf("held: %v", err)
	}
	var rs []audit.Record
	for i := range 50 {
		r := audit.Record{ID: fmt.Sprintf("r%02d", i), At: audittest.Epoch.Add(time.Duration(i) * time.Second), Session: "s", Tool: "Bash"}
		if i%3 == 0 {
			r.Verdict = toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "rm.dangerous-target"}, {Rule: fmt.Sprintf("x.r%d", i)}}}
		}
		rs = append(rs, r)
	}
	rs = append(rs,
		audit.Record{ID: "r00", At: audittest.Epoch, Verdict: toolwall.Verdict{Action: toolwall.Allow}}, // repeated: the first wins
		audit.Record{ID: "old", At: audittest.Epoch, Verdict: toolwall.Verdict{Action: toolwall.Deny}},  // stored: ignored
		audit.Record{ID: "held", At: audittest.Epoch, Session: "s", Turn: 9})
	if err := st.RecordMany(ctx, append(rs[:3:3], audit.Record{At: audittest.Epoch})); err == nil {
		t.Fatal("a batch with a record without an id was written")
	}
	if got, _ := st.Query(ctx, audit.Filter{Session: "s"}); len(got) != 0 {
		t.Fatalf("a refused batch wrote %d records", len(got))
	}
	if err := st.RecordMany(ctx, rs); err != nil {
		t.Fatal(err)
	}
	got, err := st.Query(ctx, audit.Filter{Session: "s"})
	if err != nil || len(got) != 51 {
		t.Fatalf("%d records of session s, %v; want 51", len(got), err)
	}
	for _, r := range got {
		switch {
		case r.ID == "held" && (r.Turn != 9 || r.Outcome == nil):
			t.Errorf("held: %+v, want turn 9 with its outcome", r)
		case r.ID != "held" && r.Turn != 2:
			t.Errorf("%s: turn %d, want the mark's 2", r.ID, r.Turn)
		}
	}
	if r, _ := st.Get(ctx, "r00"); r.Verdict.Action != toolwall.Deny {
		t.Errorf("r00: %s, want the first record's deny", r.Verdict.Action)
	}
	if r, _ := st.Get(ctx, "old"); r.Verdict.Action != toolwall.Warn {
		t.Errorf("old: %s, want the stored warn", r.Verdict.Action)
	}
	if denied, _ := st.Query(ctx, audit.Filter{Rule: "rm.dangerous-target"}); len(denied) != 17 {
		t.Errorf("%d records with rm.dangerous-target, want 17", len(denied))
	}
	if one, _ := st.Query(ctx, audit.Filter{Rule: "x.r48"}); len(one) != 1 || one[0].ID != "r48" {
		t.Errorf("rule x.r48: %v, want r48 alone", one)
	}
	if err := st.RecordMany(ctx, nil); err != nil {
		t.Errorf("an empty batch: %v", err)
	}
}

// TestPrunesItself: with a retention the store prunes on a write, at most
// once per PruneEvery in a process.
func TestPrunesItself(t *testing.T) {
	dsn := postgrestest.DSN(t)
	now := audittest.Epoch
	st := open(t, dsn, postgrestest.Schema(t, dsn), postgres.Options{Retention: 2 * time.Hour, PruneEvery: time.Hour, Now: func() time.Time { return now }})
	ctx := context.Background()
	write := func(id string, at time.Time) {
		t.Helper()
		if err := st.Record(ctx, audit.Record{ID: id, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	count := func() int {
		t.Helper()
		rs, err := st.Query(ctx, audit.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	write("a", now.Add(-3*time.Hour)) // prunes first (nothing yet), next at +1h
	write("b", now)
	if n := count(); n != 2 {
		t.Fatalf("%d records, want 2 (no prune within the hour)", n)
	}
	now = now.Add(time.Hour)
	write("c", now) // prunes a
	if n := count(); n != 2 {
		t.Errorf("%d records after an hour, want 2 (a pruned)", n)
	}
	if _, err := st.Get(ctx, "a"); !errors.Is(err, audit.ErrNotFound) {
		t.Errorf("a after the prune: %v", err)
	}
}

// TestBesideSessions: the audit log, the session memory and the
// approvals' migrations share one schema and one pool, replicas starting
// together migrate it in turn, and closing the audit store leaves the
// session store's pool open.
func TestBesideSessions(t *testing.T) {
	dsn := postgrestest.DSN(t)
	schema := postgrestest.Schema(t, dsn)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			var err error
			var c interface{ Close() error }
			if i%2 == 0 {
				c, err = postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
			} else {
				c, err = sessionpg.Open(ctx, dsn, sessionpg.Options{Schema: schema})
			}
			if err != nil {
				t.Error(err)
				return
			}
			c.Close()
		})
	}
	wg.Wait()
	ss, err := sessionpg.Open(ctx, dsn, sessionpg.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	au, err := postgres.New(ctx, ss.Pool(), postgres.Options{Schema: ss.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	if err := au.Record(ctx, audit.Record{ID: "x", At: audittest.Epoch, Session: "t/s"}); err != nil {
		t.Fatal(err)
	}
	au.Close()
	if err := au.Record(ctx, audit.Record{ID: "y"}); !errors.Is(err, audit.ErrClosed) {
		t.Errorf("a closed store: %v, want audit.ErrClosed", err)
	}
	if err := ss.Append(ctx, "t/s", session.Record{Tool: "Bash", Summary: "ls", Success: true}); err != nil {
		t.Errorf("the session store after the audit store closed: %v", err)
	}
}

// FuzzRoundTrip: any decision id, session, call id, tool and caller (NUL,
// invalid UTF-8: a client sends them) is stored, found by id and by its
// filters, and comes back as its JSON encoding reads.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range [][5]string{
		{"0123456789abcdef0123456789abcdef", "t/s1", "toolu_1", "Bash", ""},
		{"id\x00nul", "s\x00", "c\x00", "T\x00", "sub\x00agent"},
		{"\xff\xfe", "\xc3\x28", "\xa0\xa1", "mcp:fs/write_file", "\xed\xa0\x80"},
		{"'; DROP TABLE audit_records; --", "$1", "%", "_", "\\"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	dsn := postgrestest.DSN(f)
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: postgrestest.Schema(f, dsn)})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, id, sess, callID, tool, caller string) {
		// A stored id is ignored: each input gets one of its own.
		id = strconv.FormatInt(n.Add(1), 10) + "/" + id
		ctx := context.Background()
		in := audit.Record{ID: id, At: audittest.Epoch, Driver: "server", Session: sess, CallID: callID, Tool: tool, Caller: caller, Turn: 1}
		if err := st.Record(ctx, in); err != nil {
			t.Fatal(err)
		}
		exit := 4
		if err := st.Outcome(ctx, id, audit.Outcome{ExitCode: &exit}); err != nil {
			t.Fatal(err)
		}
		var want audit.Record
		b, _ := json.Marshal(in)
		json.Unmarshal(b, &want)
		want.Outcome = &audit.Outcome{ExitCode: &exit}
		got, err := st.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got.At = want.At
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
		rs, err := st.Query(ctx, audit.Filter{Session: sess, Tool: tool, Caller: caller, Driver: "server"})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, r := range rs {
			found = found || r.ID == want.ID
		}
		if !found {
			t.Errorf("%q not found by its session, tool, caller and driver", id)
		}
	})
}

// TestOutcomeMany: outcomes in one statement, with Outcome's meaning:
// the last of a repeated id wins, the ids no record has are returned in
// order and held until their records come.
func TestOutcomeMany(t *testing.T) {
	dsn := postgrestest.DSN(t)
	st := open(t, dsn, postgrestest.Schema(t, dsn), postgres.Options{})
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if err := st.Record(ctx, audit.Record{ID: id, At: audittest.Epoch}); err != nil {
			t.Fatal(err)
		}
	}
	exit := func(n int) audit.Outcome { return audit.Outcome{ExitCode: &n} }
	held, err := st.OutcomeMany(ctx, []string{"z", "a", "y", "a", "b", "z"}, []audit.Outcome{exit(1), exit(2), exit(3), exit(4), exit(5), exit(6)})
	if err != nil || !reflect.DeepEqual(held, []string{"y", "z"}) {
		t.Fatalf("held %v, %v; want [y z]", held, err)
	}
	if err := st.RecordMany(ctx, []audit.Record{{ID: "y", At: audittest.Epoch}, {ID: "z", At: audittest.Epoch}}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"a": 4, "b": 5, "y": 3, "z": 6} {
		if r, err := st.Get(ctx, id); err != nil || r.Outcome == nil || *r.Outcome.ExitCode != want {
			t.Errorf("%s: %+v %v, want exit %d", id, r.Outcome, err, want)
		}
	}
	if _, err := st.OutcomeMany(ctx, []string{"a"}, nil); err == nil {
		t.Error("one id and no outcome accepted")
	}
	if held, err := st.OutcomeMany(ctx, nil, nil); err != nil || held != nil {
		t.Errorf("nothing: %v %v", held, err)
	}
}

// TestLongID: an id longer than MaxID is refused as a record, and its
// outcome is not found and not held, alone or in a batch whose other
// outcomes attach.
func TestLongID(t *testing.T) {
	dsn := postgrestest.DSN(t)
	st := open(t, dsn, postgrestest.Schema(t, dsn), postgres.Options{})
	ctx := context.Background()
	long := strings.Repeat("x", postgres.MaxID+1)
	if err := st.Record(ctx, audit.Record{ID: long, At: audittest.Epoch}); err == nil {
		t.Error("a record with an id of MaxID+1 bytes was written")
	}
	if err := st.Record(ctx, audit.Record{ID: long[1:], At: audittest.Epoch}); err != nil {
		t.Errorf("a record with an id of MaxID bytes: %v", err)
	}
	err := st.Outcome(ctx, strings.Repeat("y", 3000), audit.Outcome{Success: true})
	if !errors.Is(err, audit.ErrNotFound) || errors.Is(err, postgres.ErrHeld) {
		t.Errorf("the outcome of a 3000-byte id: %v, want not found and not held", err)
	}
	held, err := st.OutcomeMany(ctx, []string{long, long[1:]}, []audit.Outcome{{}, {Success: true}})
	if err != nil || len(held) != 1 || held[0] != long {
		t.Errorf("a batch with a long id: %d held, %v", len(held), err)
	}
	if r, err := st.Get(ctx, long[1:]); err != nil || r.Outcome == nil || !r.Outcome.Success {
		t.Errorf("the batch's other outcome: %+v %v", r, err)
	}
}
