package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/approval"
	approvalpg "github.com/toolwall/toolwall/approval/postgres"
	"github.com/toolwall/toolwall/audit"
	auditpg "github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/postgres"
)

// Environment variables of serve.
const (
	envToken     = "TOOLWALL_TOKEN"      // one bearer token
	envTokenFile = "TOOLWALL_TOKEN_FILE" // a file of bearer tokens
	envPostgres  = "TOOLWALL_POSTGRES"   // the PostgreSQL connection string
)

type serveFlags struct {
	listen, tokenFile, store, state, pg, schema string
	approverFile, home                          string
	maxBody, bodyBudget                         int64
	cache, gcPercent, maxInFlight               int
	timeout, reloadEvery                        time.Duration
}

func newServe() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP decision server",
		Long: `Run the HTTP decision server: POST /v1/decide, /v1/decide/batch,
/v1/record, /v1/record/batch, /v1/turn, /v1/approve, GET /v1/rules,
/v1/openapi.json, /healthz, /readyz, /metrics.

Bearer tokens come from --token-file (one per line, "#" comments), else
$TOOLWALL_TOKEN_FILE, else $TOOLWALL_TOKEN. Each token is a tenant whose
sessions no other token sees. Without a token the server listens on
loopback only, and says so.

Session memory (--store): "sqlite" (default; the state file of the hook,
--state or $TOOLWALL_STATE), "memory" (this process only), or "postgres"
(shared by every replica on one database: --postgres, else
$TOOLWALL_POSTGRES, else libpq's PG* variables).

Approvals (--approver-file, lines "TENANT TOKEN"): a person holding the
approver token of a tenant approves an ask with POST /v1/approve; the same
call in the same session and directory is then allowed. With --store
postgres the approvals live in PostgreSQL beside the sessions (table
approvals in --postgres-schema), so every replica sees an ask approved
through any of them; otherwise in approvals.jsonl beside the state file,
as for the hook. An agent's own token never approves. Without the file,
asks stay asks.

A call that sends no "home" is judged under --home (the agents' home
directory, when the operator knows it), else this server's own home, so
that "~" and $HOME still resolve; a server with neither refuses such a
call (400).

Audit log: with --store postgres, every decision's audit record and its
outcome go to PostgreSQL beside the sessions (table audit_records in
--postgres-schema), one log for every replica, kept for audit.retention;
read it with toolwall audit --store postgres. Otherwise the store the
configuration's [audit] table names (audit.db beside the state file, as
for the hook). audit.enabled = false writes none.

The process runs its garbage collector at GOGC=400 (--gc-percent;
$GOGC when set): a quarter of the CPU Go's default 100 costs under load,
for a larger heap; $GOMEMLIMIT bounds it (192 MiB when unset).

Work in progress is bounded: --max-in-flight requests at once and
--body-budget bytes of bodies (each counted three times its size, for
what deciding it holds); a request past either is answered 503 with
Retry-After at once rather than queued, and the client library reads it
as a deny. With two tokens or more each tenant gets half of each bound.

SIGHUP, or a change of the configuration file, reloads the policy; a
broken policy keeps the one in force and logs the error. SIGINT or
SIGTERM shut down gracefully, finishing the requests in flight.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// $GOGC, when set, wins over the default but not over the flag.
			if cmd.Flags().Changed("gc-percent") || os.Getenv("GOGC") == "" {
				debug.SetGCPercent(f.gcPercent)
			}
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(server.DefaultMemoryLimit)
			}
			return serve(cmd.Context(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:8765", "address to listen on")
	fl.StringVar(&f.tokenFile, "token-file", "", "file of bearer tokens, one per line (default $TOOLWALL_TOKEN_FILE, else $TOOLWALL_TOKEN)")
	fl.StringVar(&f.store, "store", "sqlite", "session memory: sqlite, memory or postgres")
	fl.StringVar(&f.state, "state", "", "SQLite state file with --store sqlite (default $TOOLWALL_STATE, else the hook's)")
	fl.StringVar(&f.pg, "postgres", "", "PostgreSQL connection string with --store postgres (default $TOOLWALL_POSTGRES, else PG* variables)")
	fl.StringVar(&f.schema, "postgres-schema", postgres.DefaultSchema, "PostgreSQL schema of the tables")
	fl.StringVar(&f.approverFile, "approver-file", "", `file of approver tokens, lines "TENANT TOKEN" (TENANT: 16 hex digits the start log names, or "local" without tokens)`)
	fl.Int64Var(&f.maxBody, "max-body", server.DefaultMaxBody, "largest request body in bytes")
	fl.StringVar(&f.home, "home", "", `home directory of the agents' user, for the calls that send no "home" (default: this server's own)`)
	fl.IntVar(&f.maxInFlight, "max-in-flight", server.DefaultMaxInFlight(), "requests decided at once; more are answered 503 with Retry-After")
	fl.Int64Var(&f.bodyBudget, "body-budget", server.DefaultBodyBudget, "memory the bodies of the requests in progress may hold, in bytes (each body counts three times its size); past it requests are answered 503")
	fl.IntVar(&f.cache, "verdict-cache", server.DefaultCacheSize, "single-call verdicts (calls without a session) kept for 500 ms for the same exact call; 0: none")
	fl.DurationVar(&f.timeout, "timeout", server.DefaultTimeout, "longest time one decision may take before the call is denied")
	fl.IntVar(&f.gcPercent, "gc-percent", server.GCPercent, "garbage collector target (GOGC) of the server process; $GOGC, when set, is the default; bound memory with $GOMEMLIMIT")
	fl.DurationVar(&f.reloadEvery, "reload-every", 2*time.Second, "how often to check the configuration file for changes (0: only on SIGHUP)")
	return cmd
}

// tokens reads the bearer tokens.
func tokens(file string) ([]string, error) {
	if file == "" {
		file = os.Getenv(envTokenFile)
	}
	if file == "" {
		if t := strings.TrimSpace(os.Getenv(envToken)); t != "" {
			return []string{t}, nil
		}
		return nil, nil
	}
	fh, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("token file %s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("token file %s holds no token", file)
	}
	return out, nil
}

// approvers reads the approver file: one "TENANT TOKEN" per line, "#"
// comments.
func approvers(file string) ([]server.Approver, error) {
	if file == "" {
		return nil, nil
	}
	fh, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("approver file: %w", err)
	}
	defer fh.Close()
	var out []server.Approver
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("approver file %s line %d: want \"TENANT TOKEN\"", file, n)
		}
		out = append(out, server.Approver{Tenant: f[0], Token: f[1]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("approver file %s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("approver file %s holds no approver", file)
	}
	return out, nil
}

// loopbackOnly returns listen with its host replaced by 127.0.0.1 unless
// it is a loopback address, and whether it changed it.
func loopbackOnly(listen string) (string, bool, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", false, fmt.Errorf("--listen %q: %w", listen, err)
	}
	if host == "localhost" {
		return listen, false, nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return listen, false, nil
	}
	return net.JoinHostPort("127.0.0.1", port), true, nil
}

// openStore opens the session memory --store names, keeping at least
// the chain window's calls per session (memory.calls, at least 100) for
// memory.retention. The store outlives policy reloads: a changed
// [memory] table takes effect on restart.
func openStore(ctx context.Context, f serveFlags, cfg *policy.Config) (session.Store, string, error) {
	opts := session.Options{Calls: max(cfg.Memory.Calls, gate.ChainWindow.Calls), Retention: cfg.Memory.Retention.Duration}
	switch f.store {
	case "memory":
		return session.NewMemory(opts), "memory", nil
	case "sqlite":
		path, err := engine.StatePath(f.state, cfg)
		if err != nil {
			return nil, "", err
		}
		st, err := session.Open(path, opts)
		return st, "sqlite " + path, err
	case "postgres":
		dsn := f.pg
		if dsn == "" {
			dsn = os.Getenv(envPostgres)
		}
		st, err := postgres.Open(ctx, dsn, postgres.Options{Schema: f.schema, Session: opts})
		return st, "postgres schema " + f.schema, err
	}
	return nil, "", fmt.Errorf("--store %q: want sqlite, memory or postgres", f.store)
}

// openApprovals opens the approvals: in PostgreSQL beside the session
// memory, on its pool, when the store is PostgreSQL (every replica then
// shares pending asks and grants); else approvals.jsonl beside the state
// file, as for the hook. close releases them (never the session store's
// pool). where says where they are, for the start log.
func openApprovals(ctx context.Context, f serveFlags, cfg *policy.Config, st session.Store) (ap server.Approvals, where string, release func(), err error) {
	opts := approval.Options{TTL: cfg.Approvals.TTL.Duration, Retention: cfg.Memory.Retention.Duration}
	if pg, ok := st.(*postgres.Store); ok {
		pa, err := approvalpg.New(ctx, pg.Pool(), approvalpg.Options{Schema: pg.Schema(), Approval: opts})
		if err != nil {
			return nil, "", nil, err
		}
		return pa, "postgres schema " + pg.Schema(), func() { pa.Close() }, nil
	}
	path, err := engine.StatePath(f.state, cfg)
	if err != nil {
		return nil, "", nil, err
	}
	js := engine.StoresFor(cfg, path).Approvals()
	if js == nil {
		return nil, "", nil, errors.New("approvals have no place (set HOME or --state)")
	}
	return js, js.Path(), func() {}, nil
}

// openServeAudit opens the audit log: in PostgreSQL beside the session
// memory, on its pool, when the store is PostgreSQL (every replica then
// writes one log, so an outcome recorded through any replica attaches
// to the decision another made, and the fleet is read in one place);
// else the store the configuration's [audit] table names, as the hook
// writes it. A nil sink: auditing is off. where says where the log is,
// for the start log; release closes it (never the session store's pool).
func openServeAudit(ctx context.Context, f serveFlags, cfg *policy.Config, st session.Store) (sink audit.Sink, where string, release func(), err error) {
	if !cfg.Audit.On() {
		return nil, "off", func() {}, nil
	}
	if pg, ok := st.(*postgres.Store); ok {
		a, err := auditpg.New(ctx, pg.Pool(), auditpg.Options{Schema: pg.Schema(), Retention: engine.StoresFor(cfg, "").AuditRetention()})
		if err != nil {
			return nil, "", nil, err
		}
		return a, "postgres schema " + pg.Schema(), func() { a.Close() }, nil
	}
	path, err := engine.StatePath(f.state, cfg)
	if err != nil {
		return nil, "", nil, err
	}
	stores := engine.StoresFor(cfg, path)
	a := stores.Audit()
	if a == nil {
		return nil, "off (no place: set HOME, --state or audit.path)", func() {}, nil
	}
	db, inbox := stores.AuditPaths()
	if db == "" {
		db = inbox
	}
	return a, db, func() { a.Close() }, nil
}

func serve(ctx context.Context, f serveFlags) error {
	log := logger()
	toks, err := tokens(f.tokenFile)
	if err != nil {
		return err
	}
	listen := f.listen
	if len(toks) == 0 {
		var moved bool
		if listen, moved, err = loopbackOnly(listen); err != nil {
			return err
		}
		if moved {
			log.Warn("toolwall serve: no bearer token, so listening on loopback only", "asked", f.listen, "listen", listen)
		} else {
			log.Warn("toolwall serve: no bearer token: any local process can use this server; set --token-file or $TOOLWALL_TOKEN to serve other machines")
		}
	}
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	st, what, err := openStore(ctx, f, cfg)
	if err != nil {
		return fmt.Errorf("session store: %w", err)
	}
	defer st.Close()
	sink, auditAt, releaseAudit, err := openServeAudit(ctx, f, cfg, st)
	if err != nil {
		return fmt.Errorf("audit store: %w", err)
	}
	defer releaseAudit()
	apps, err := approvers(f.approverFile)
	if err != nil {
		return err
	}
	approvalsAt := "none (asks stay asks)"
	opts := server.Options{
		ConfigPath: configPath, Store: st, Tokens: toks, MaxBody: f.maxBody, MaxInFlight: f.maxInFlight, BodyBudget: f.bodyBudget, Timeout: f.timeout, Logger: log, Audit: sink,
		Approvers: apps, CacheSize: f.cache, Home: f.home,
	}
	if f.cache <= 0 {
		opts.CacheSize = -1
	}
	if len(apps) > 0 {
		ap, where, release, err := openApprovals(ctx, f, cfg, st)
		if err != nil {
			return fmt.Errorf("approvals: %w", err)
		}
		defer release()
		opts.Approvals, approvalsAt = ap, where
	}
	srv, err := server.New(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				_ = srv.Reload() // logged and counted
			}
		}
	}()
	if f.reloadEvery > 0 {
		go srv.WatchPolicy(ctx, f.reloadEvery)
	}
	tenants := []string{}
	for _, t := range toks {
		tenants = append(tenants, server.TenantOf(t))
	}
	log.Info("toolwall serve: listening", "addr", ln.Addr().String(), "store", what, "tenants", strings.Join(tenants, ","), "approvers", len(apps), "approvals", approvalsAt, "audit", auditAt)
	err = srv.Serve(ctx, ln)
	if err == nil || errors.Is(err, context.Canceled) {
		log.Info("toolwall serve: stopped")
		return nil
	}
	return err
}
