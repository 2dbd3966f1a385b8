package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
	"github.com/toolwall/toolwall/session/sessiontest"
)

// TestConformance runs the session.Store conformance suite, each case on
// a store in a schema of its own.
func TestConformance(t *testing.T) {
	dsn := postgrestest.DSN(t)
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	sessiontest.Run(t, func(t *testing.T, opts session.Options) session.Store {
		st, err := postgres.New(context.Background(), pool, postgres.Options{Session: opts, Schema: postgrestest.Schema(t, dsn)})
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// TestSharedAcrossStores: two stores on one schema (two replicas) see one
// memory, and opening a migrated schema again changes nothing.
func TestSharedAcrossStores(t *testing.T) {
	dsn := postgrestest.DSN(t)
	ctx := context.Background()
	schema := postgrestest.Schema(t, dsn)
	a, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Stage(ctx, "s", "t1", session.Record{Tool: "Bash", Summary: "curl -o x.sh"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.Commit(ctx, "s", "t1", true); !ok || err != nil {
		t.Fatalf("Commit on the other store = %v, %v", ok, err)
	}
	h, err := a.History(ctx, "s", session.Window{})
	if err != nil || len(h) != 1 || h[0].Summary != "curl -o x.sh" || !h[0].Success {
		t.Errorf("History = %+v, %v", h, err)
	}
}

// TestUnavailable: a database that cannot be reached is ErrUnavailable.
func TestUnavailable(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://nobody@127.0.0.1:1/none?connect_timeout=2", postgres.Options{})
	if !errors.Is(err, session.ErrUnavailable) {
		t.Errorf("Open of an unreachable database: %v, want ErrUnavailable", err)
	}
}

// TestMigrateRisk: a schema written before the risk table existed
// (version 1) is migrated when a store opens it: its records are kept
// and risk events work afterwards.
func TestMigrateRisk(t *testing.T) {
	dsn := postgrestest.DSN(t)
	ctx := context.Background()
	schema := postgrestest.Schema(t, dsn)
	a, err := postgres.Open(ctx, dsn, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(ctx, "s", session.Record{Tool: "Bash", Summary: "kept"}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	q := pgx.Identifier{schema}.Sanitize()
	for _, stmt := range []string{`DROP TABLE ` + q + `.risk`, `UPDATE ` + q + `.meta SET v = 1 WHERE k = 'schema'`} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	b, err := postgres.New(ctx, pool, postgres.Options{Schema: schema})
	if err != nil {
		t.Fatalf("opening a version 1 schema: %v", err)
	}
	defer b.Close()
	if h, err := b.History(ctx, "s", session.Window{}); err != nil || len(h) != 1 || h[0].Summary != "kept" {
		t.Errorf("History after the migration = %+v, %v", h, err)
	}
	if err := b.NoteRisk(ctx, "s", session.RiskEvent{Points: 2, Why: "after"}); err != nil {
		t.Fatal(err)
	}
	if log, err := b.Risk(ctx, "s"); err != nil || len(log.Events) != 1 || log.Events[0].Why != "after" {
		t.Errorf("Risk after the migration = %+v, %v", log, err)
	}
	var v int
	if err := pool.QueryRow(ctx, `SELECT v FROM `+q+`.meta WHERE k = 'schema'`).Scan(&v); err != nil || v != 2 {
		t.Errorf("schema version = %d, %v; want 2", v, err)
	}
}

// TestBatchMatchesSingle: StageMany, CommitMany and Histories leave and
// read the same memory as Stage, Commit and History called one by one in
// the same order (a repeated key, a key never staged, records with and
// without effects, invalid UTF-8), each on a schema of its own.
func TestBatchMatchesSingle(t *testing.T) {
	dsn := postgrestest.DSN(t)
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	open := func() *postgres.Store {
		st, err := postgres.Open(ctx, dsn, postgres.Options{Schema: postgrestest.Schema(t, dsn), Session: session.Options{Calls: 3, Now: func() time.Time { return at }}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	batch, single := open(), open()
	rec := func(summary string, effects ...toolwall.Effect) session.Record {
		return session.Record{Tool: "Bash", Summary: summary, Input: json.RawMessage(`{"command":"` + summary + `"}`), At: at, Effects: effects, Rules: []string{"r." + summary}}
	}
	dl := toolwall.Effect{Tag: toolwall.TagDownloadFile, Path: "/w/x.sh", Detail: "curl"}
	run := toolwall.Effect{Tag: toolwall.TagExecLocal, Path: "/w/x.sh"}
	ids := []string{"s1", "s2", "s1", "s1", "s3", "s\xff"}
	keys := []string{"k1", "k1", "k2", "k1", "k9", "k1"}
	recs := []session.Record{rec("one", dl), rec("two"), rec("three", dl, run), rec("one again", run), rec("nine"), rec("bytes\xfe")}
	if err := batch.StageMany(ctx, ids, keys, recs); err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		if err := single.Stage(ctx, ids[i], keys[i], recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	cids := []string{"s1", "s2", "s1", "s4", "s1", "s\xff", "s1"}
	ckeys := []string{"k1", "k1", "k2", "k1", "k1", "k1", "k0"}
	ok := []bool{true, false, true, true, true, true, true}
	found, err := batch.CommitMany(ctx, cids, ckeys, ok)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cids {
		want, err := single.Commit(ctx, cids[i], ckeys[i], ok[i])
		if err != nil {
			t.Fatal(err)
		}
		if found[i] != want {
			t.Errorf("CommitMany %s/%s = %v, Commit = %v", cids[i], ckeys[i], found[i], want)
		}
	}
	// A second round fills s1 past its cap of 3 records.
	more := []string{"s1", "s1", "s1"}
	mkeys := []string{"m1", "m2", "m3"}
	mrecs := []session.Record{rec("four", dl), rec("five"), rec("six", run)}
	if err := batch.StageMany(ctx, more, mkeys, mrecs); err != nil {
		t.Fatal(err)
	}
	for i := range more {
		if err := single.Stage(ctx, more[i], mkeys[i], mrecs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := batch.CommitMany(ctx, more, mkeys, []bool{true, true, false}); err != nil {
		t.Fatal(err)
	}
	for i := range more {
		if _, err := single.Commit(ctx, more[i], mkeys[i], i < 2); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"s1", "s2", "s3", "s4", "s\xff"}
	hs, err := batch.Histories(ctx, all, session.Window{})
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range all {
		want, err := single.History(ctx, id, session.Window{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(hs[i])
		exp, _ := json.Marshal(want)
		if string(got) != string(exp) {
			t.Errorf("session %q: Histories = %s\nHistory = %s", id, got, exp)
		}
		if one, err := batch.History(ctx, id, session.Window{}); err != nil || len(one) != len(hs[i]) {
			t.Errorf("session %q: History of the batch store = %d records, %v; Histories %d", id, len(one), err, len(hs[i]))
		}
	}
	if len(hs[0]) != 3 || hs[0][0].Summary != "four" || hs[0][2].Summary != "six" || hs[0][2].Success {
		t.Errorf("s1's history = %+v, want the last 3 of: one again, three, four, five, six (failed)", hs[0])
	}
	if _, err := batch.CommitMany(ctx, []string{""}, []string{"k"}, []bool{true}); !errors.Is(err, session.ErrInvalid) {
		t.Errorf("CommitMany with an empty session id: %v", err)
	}
}
