package postgres_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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
