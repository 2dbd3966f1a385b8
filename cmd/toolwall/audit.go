package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/auditlist"
)

// storeFlags locate the stores the way the hook does.
type storeFlags struct{ state string }

func (f *storeFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.state, "state", "", "state database whose directory holds the audit store and approvals (default as for the hook)")
}

// stores opens the configuration and locates the stores.
func (f *storeFlags) stores() (engine.Stores, error) {
	cfg, err := loadConfig()
	if err != nil {
		return engine.Stores{}, err
	}
	state, err := engine.StatePath(f.state, cfg)
	if err != nil {
		return engine.Stores{}, err
	}
	return engine.StoresFor(cfg, state), nil
}

// openAudit opens the audit store and prunes it to its retention.
func (f *storeFlags) openAudit(ctx context.Context) (audit.Store, engine.Stores, error) {
	st, err := f.stores()
	if err != nil {
		return nil, st, err
	}
	a, err := st.OpenAudit(ctx)
	return a, st, err
}

func newAudit() *cobra.Command {
	var (
		sf storeFlags
		lf auditlist.Flags
		pg pgFlags
	)
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "List, filter and tail the decisions toolwall made",
		Long: `Lists audit records, newest last: time, decision id, action, tool,
session, caller, what ran (ok, failed, exit N; "-" when no outcome was
reported), rule ids and what the call was (secrets redacted).

  toolwall audit --session abc --action ask,deny
  toolwall audit --rule chain.download-execute --since 24h
  toolwall audit -f            # follow: print new decisions as they come

--since and --until take a duration back from now (90m, 24h) or an RFC 3339
time. Records older than audit.retention (default 720h) are pruned. The
canary calls toolwall doctor sends through each hook (driver doctor:HOST)
are left out unless --probes.

--store postgres reads the audit log a fleet of servers writes in
PostgreSQL (toolwall serve --store postgres): --postgres names the
database (default $TOOLWALL_POSTGRES, else libpq's PG* variables) and
--postgres-schema the schema (default toolwall). It runs toolwall-net,
which links the PostgreSQL driver this binary does without.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch pg.store {
			case "postgres":
				// toolwall-net lists with the flags as given.
				return runNet(netArgs(cmd, "audit", func(string) bool { return true }))
			case "local":
			default:
				return fmt.Errorf("--store %q: want local or postgres", pg.store)
			}
			ctx := cmd.Context()
			a, _, err := sf.openAudit(ctx)
			if err != nil {
				return err
			}
			defer a.Close()
			return lf.List(ctx, cmd.OutOrStdout(), a)
		},
	}
	sf.add(cmd)
	lf.Add(cmd.Flags())
	pg.add(cmd)
	cmd.AddCommand(newAuditPrune(), netCommand("serve", "Serve a local page over the audit store (loopback only, random token in the URL)", "audit-serve"))
	return cmd
}

// netArgs is the command line of toolwall-net's sub for cmd: --config
// when given, then the flags of cmd that were set and that keep accepts
// (toolwall-net's readers take the same names).
func netArgs(cmd *cobra.Command, sub string, keep func(name string) bool) []string {
	var argv []string
	if configPath != "" {
		argv = append(argv, "--config", configPath)
	}
	argv = append(argv, sub)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if keep(f.Name) {
			argv = append(argv, "--"+f.Name+"="+f.Value.String())
		}
	})
	return argv
}

// pgFlags choose the audit log of a server fleet in PostgreSQL, which
// toolwall-net reads (its flags have the same names).
type pgFlags struct{ store, dsn, schema string }

func (f *pgFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.store, "store", "local", `audit log to read: "local" (the [audit] store beside the state file) or "postgres" (a server fleet's, through toolwall-net)`)
	cmd.Flags().StringVar(&f.dsn, "postgres", "", "PostgreSQL connection string with --store postgres (default $TOOLWALL_POSTGRES, else PG* variables)")
	cmd.Flags().StringVar(&f.schema, "postgres-schema", "toolwall", "PostgreSQL schema of the audit log with --store postgres")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// summary is the record's call in one line.
func summary(r audit.Record) string {
	return toolwall.Call{Tool: r.Tool, Input: r.Input}.Summary()
}

func newAuditPrune() *cobra.Command {
	var sf storeFlags
	var older string
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Delete audit records older than the retention (or --older-than)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, st, err := sf.openAudit(cmd.Context())
			if err != nil {
				return err
			}
			defer a.Close()
			keep := st.AuditRetention()
			if older != "" {
				if keep, err = time.ParseDuration(older); err != nil {
					return err
				}
			}
			n, err := a.Prune(cmd.Context(), time.Now().Add(-keep))
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "pruned %d records older than %s\n", n, keep)
			return err
		},
	}
	sf.add(cmd)
	cmd.Flags().StringVar(&older, "older-than", "", "delete records older than this duration (default audit.retention)")
	return cmd
}

func newExplain() *cobra.Command {
	var sf storeFlags
	var cf callFlags
	var pg pgFlags
	cmd := &cobra.Command{
		Use:   "explain DECISION-ID | explain -- COMMAND | explain --tool TOOL --input JSON",
		Short: "Show a decision: a recorded one, or a call read step by step",
		Long: `With DECISION-ID, shows everything recorded about one decision.

With a command after -- (or --tool and --input), reads the call step by
step as the gate does and prints each stage: every command the reader saw
would run, with its catalog parse (options, operands and their roles) and
its effects (reads, writes, deletes, fetches, …); each finding with its
rule id, analyzer, action, score and reason; the fusion (highest score,
its band under the thresholds, the strictest floor); and the final
verdict. With --session ID it also shows that session's trajectory risk
(level, turn, what raised it) from the state file, and whether it would
refuse the call. Nothing is run and nothing is recorded.

With --store postgres, DECISION-ID is looked up in the audit log a fleet
of servers writes in PostgreSQL (--postgres, --postgres-schema as for
toolwall audit), through toolwall-net.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cf.tool != "" || cmd.ArgsLenAtDash() == 0 {
				return explainCall(cmd, cf, args)
			}
			if len(args) != 1 {
				return fmt.Errorf("explain takes one decision id, or a call: -- COMMAND, or --tool and --input")
			}
			switch pg.store {
			case "postgres":
				// toolwall-net reads the fleet's audit log.
				return runNet(append(netArgs(cmd, "explain", func(name string) bool {
					return name == "state" || name == "store" || name == "postgres" || name == "postgres-schema"
				}), args[0]))
			case "local":
			default:
				return fmt.Errorf("--store %q: want local or postgres", pg.store)
			}
			a, _, err := sf.openAudit(cmd.Context())
			if err != nil {
				return err
			}
			defer a.Close()
			r, err := a.Get(cmd.Context(), args[0])
			if err != nil {
				if strings.ContainsAny(args[0], " \t/~") {
					// It reads as a command, not a decision id.
					return fmt.Errorf("decision %s: %w (to explain a command, put it after --: toolwall explain -- %s)", args[0], err, args[0])
				}
				return fmt.Errorf("decision %s: %w", args[0], err)
			}
			return auditlist.Explain(cmd.OutOrStdout(), r)
		},
	}
	sf.add(cmd)
	cf.add(cmd)
	pg.add(cmd)
	return cmd
}
