package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/audit"
	auditpg "github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/auditlist"
	"github.com/toolwall/toolwall/session/postgres"
)

// auditFlags choose the audit log a reading command opens: the [audit]
// store beside the state file, or a server fleet's in PostgreSQL.
type auditFlags struct{ state, store, dsn, schema string }

func (f *auditFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.state, "state", "", "state database whose directory holds the audit store (default as for the hook)")
	fl.StringVar(&f.store, "store", "local", `audit log: "local" (the [audit] store beside the state file) or "postgres" (what toolwall serve --store postgres writes)`)
	fl.StringVar(&f.dsn, "postgres", "", "PostgreSQL connection string with --store postgres (default $TOOLWALL_POSTGRES, else PG* variables)")
	fl.StringVar(&f.schema, "postgres-schema", postgres.DefaultSchema, "PostgreSQL schema of the audit log with --store postgres")
}

// open loads the configuration, opens the audit log and prunes it to
// audit.retention, as every reading of the local store does.
func (f *auditFlags) open(ctx context.Context) (audit.Store, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, err
	}
	switch f.store {
	case "local":
		path, err := engine.StatePath(f.state, cfg)
		if err != nil {
			return nil, err
		}
		return engine.StoresFor(cfg, path).OpenAudit(ctx)
	case "postgres":
		dsn := f.dsn
		if dsn == "" {
			dsn = os.Getenv(envPostgres)
		}
		a, err := auditpg.Open(ctx, dsn, auditpg.Options{Schema: f.schema})
		if err != nil {
			return nil, err
		}
		if _, err := a.Prune(ctx, time.Now().Add(-engine.StoresFor(cfg, "").AuditRetention())); err != nil {
			a.Close()
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("--store %q: want local or postgres", f.store)
}

// newAudit is `toolwall audit` for toolwall-net: the same listing, and
// the only one that reads the PostgreSQL audit log (`toolwall audit
// --store postgres` runs it).
func newAudit() *cobra.Command {
	var (
		af auditFlags
		lf auditlist.Flags
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "List, filter and tail the decisions toolwall made (see toolwall audit --help)",
		Long: `Lists audit records as toolwall audit does; with --store postgres, the
audit log a fleet of servers writes in PostgreSQL (toolwall serve
--store postgres: every replica's decisions and outcomes in one log).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := af.open(cmd.Context())
			if err != nil {
				return err
			}
			defer a.Close()
			return lf.List(cmd.Context(), cmd.OutOrStdout(), a)
		},
	}
	af.add(cmd)
	lf.Add(cmd.Flags())
	return cmd
}

// newExplain is `toolwall explain DECISION-ID` for toolwall-net: one
// recorded decision, shown whole, from the local audit store or a server
// fleet's in PostgreSQL (`toolwall explain --store postgres` runs it).
func newExplain() *cobra.Command {
	var af auditFlags
	cmd := &cobra.Command{
		Use:   "explain DECISION-ID",
		Short: "Show everything recorded about one decision (see toolwall explain --help)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := af.open(cmd.Context())
			if err != nil {
				return err
			}
			defer a.Close()
			r, err := a.Get(cmd.Context(), args[0])
			if err != nil {
				return fmt.Errorf("decision %s: %w", args[0], err)
			}
			return auditlist.Explain(cmd.OutOrStdout(), r)
		},
	}
	af.add(cmd)
	return cmd
}
