package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/session"
)

// Defaults of Options.
const (
	// DefaultMaxBody bounds a request body (8 MiB, as the hook bounds its
	// payload: a Write of a large file arrives whole).
	DefaultMaxBody = 8 << 20
	// DefaultTimeout bounds one decision (4 s, as the hook's): past it the
	// call is denied with rule gate.timeout.
	DefaultTimeout = 4 * time.Second
	// DefaultShutdownTimeout bounds how long a graceful shutdown waits for
	// requests in flight (30 s).
	DefaultShutdownTimeout = 30 * time.Second
	// MaxSessionLen is the longest session id a client may send, in
	// bytes; the server prefixes it with the tenant.
	MaxSessionLen = 200
	// MaxNameLen bounds tool names, call ids and callers, in bytes.
	MaxNameLen = 256
	// DefaultCacheSize is the default Options.CacheSize: 16384 verdicts
	// of calls without a session, each kept for 500 ms
	// (policy.ProjectRecheck) and only for inputs up to 4 KiB.
	DefaultCacheSize = 16384
	// GCPercent is the garbage collector's target toolwall serve runs
	// with (GOGC=400; Go's default is 100) unless $GOGC or --gc-percent
	// says otherwise. A decision allocates about 15 KB that is garbage
	// at once, over a small live heap, so at Go's default the collector
	// takes about a quarter of the server's CPU under load; at 400 it
	// runs a quarter as often, for a heap up to five times the live one
	// (bound it with $GOMEMLIMIT). A program embedding the server sets
	// its own (runtime/debug.SetGCPercent).
	GCPercent = 400
)

// Options configure a Server. The zero value serves the default policy
// with no session memory, no audit and no authentication.
type Options struct {
	// ConfigPath is the policy file, read at start and on every reload;
	// "" means the default place (see policy.DefaultPath), where a
	// missing file means the defaults.
	ConfigPath string
	// Store is the session memory every engine shares (SQLite, PostgreSQL
	// or in memory); nil keeps none. The caller closes it after the
	// server.
	Store session.Store
	// Audit receives one record per decision and each call's outcome; nil
	// means audit.Discard.
	Audit audit.Sink
	// Tokens are the accepted bearer tokens; each is a tenant whose
	// sessions no other token can read or arm. Empty: no authentication
	// (bind to loopback only; the CLI enforces it).
	Tokens []string
	// MaxBody bounds a request body in bytes (default DefaultMaxBody);
	// larger bodies get 413.
	MaxBody int64
	// Timeout bounds one decision (default DefaultTimeout).
	Timeout time.Duration
	// ShutdownTimeout bounds a graceful shutdown (default
	// DefaultShutdownTimeout).
	ShutdownTimeout time.Duration
	// Logger receives warnings and errors; nil means slog.Default().
	Logger *slog.Logger
	// CacheSize is the most single-call verdicts kept for reuse (calls
	// without a session, judged by the single-call analysis only; see
	// DefaultCacheSize). 0 means DefaultCacheSize; negative keeps none.
	CacheSize int
	// Home is the home directory a call that sends no "home" is judged
	// under: the agents' home when the operator knows it (toolwall serve
	// --home); "" means the server's own (engine.UserHome). Judged
	// without a home, "~" and $HOME would be unknown and `rm -rf ~` only
	// asked about; when the server knows no home either, such a call is
	// refused as incomplete (400).
	Home string
	// Approvals, when set, remember a human's yes to an asked call, as
	// they do for the hook (on PostgreSQL, approval/postgres, for every
	// replica at once): /v1/decide allows an ask that was approved
	// for the same call in the same session and working directory, and
	// notes every other ask as pending for POST /v1/approve. nil: every
	// ask stays an ask, and /v1/approve answers 404.
	Approvals Approvals
	// Approvers are the bearer tokens that may call POST /v1/approve,
	// each for one tenant: a human's tool, never the token an agent
	// decides with (an agent holding it could approve its own asks).
	// Without approvers /v1/approve answers 403.
	Approvers []Approver
	// MaxInFlight bounds the requests with a body (decisions, records,
	// turns, approvals) in progress at once; one more is answered 503
	// with Retry-After at once, not queued. 0 means
	// DefaultMaxInFlight().
	MaxInFlight int
	// MaxInFlightPerTenant bounds one tenant's requests in progress
	// (default: half of MaxInFlight when the server has two tokens or
	// more, else all of it).
	MaxInFlightPerTenant int
	// BodyBudget bounds the memory the requests in progress hold for
	// their bodies, counted as BodyCost times each body's size (default
	// DefaultBodyBudget); a request that would pass it is answered 503.
	BodyBudget int64
	// BodyBudgetPerTenant bounds one tenant's share of BodyBudget
	// (default: half when the server has two tokens or more, else all).
	BodyBudgetPerTenant int64
}

// Approvals remember approved asks: every approval.Keeper does, the
// JSON Lines *approval.Store of one machine and the PostgreSQL store of
// approval/postgres that replicas share (see package approval for the
// rules: only an ask is ever pending, a deny can never be approved,
// grants expire).
type Approvals interface {
	// Check turns an ask of call into an allow when the same call was
	// approved, else notes the ask pending under decision.
	Check(ctx context.Context, decision string, call toolwall.Call, v toolwall.Verdict, confirmable bool) (toolwall.Verdict, error)
	// Pending returns the pending ask of decision, or an error matching
	// approval.ErrNotPending.
	Pending(ctx context.Context, decision string) (approval.Entry, error)
	// Approve grants the pending ask of decision.
	Approve(ctx context.Context, decision, by string) (approval.Entry, error)
}

// Approver is a bearer token that may approve the asks of one tenant.
type Approver struct {
	// Token is the approver's bearer token; it must differ from every
	// token in Options.Tokens.
	Token string
	// Tenant is the tenant whose asks it approves: the first 16 hex
	// digits of the SHA-256 of the tenant's token (as the audit log shows
	// sessions), or "local" on a server without tokens.
	Tenant string
}

// Server is the HTTP decision server. Create it with New; it is safe for
// concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	audit   audit.Sink
	store   *observed
	tenants map[[sha256.Size]byte]string
	// approvers maps the SHA-256 of an approver token to its tenant.
	approvers map[[sha256.Size]byte]string
	approvals Approvals
	metrics   *metrics
	mux       *http.ServeMux

	current   atomic.Pointer[loaded]
	reloadErr atomic.Pointer[string]
	reloadMu  sync.Mutex // one reload at a time
	draining  atomic.Bool

	// notReadyLogged is when /readyz last logged a store failure (Unix
	// nanoseconds).
	notReadyLogged atomic.Int64
	// extra counts workers started to replace one a job overran; each
	// leaves when its job ends.
	extra     atomic.Int32
	admission *admission
	jobs      chan *job     // decisions for the workers
	spread    int           // the most workers one batch uses
	quit      chan struct{} // closed by Close
	closeOnce sync.Once
}

// loaded is a policy in force with the engine built from it.
type loaded struct {
	eng     *engine.Engine
	cfg     *policy.Config
	version string
	at      time.Time
	// cache keeps single-call verdicts (see loaded.decide); nil when
	// the policy's verdicts must not be reused.
	cache *lru.Cache[string, cached]
}

// New loads the policy and returns the server. A policy that cannot be
// loaded at start is an error (a *policy.Error): a server never starts on
// weaker defaults than the ones asked for.
func New(opts Options) (*Server, error) {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ShutdownTimeout <= 0 {
		opts.ShutdownTimeout = DefaultShutdownTimeout
	}
	if opts.CacheSize == 0 {
		opts.CacheSize = DefaultCacheSize
	}
	if opts.Home == "" {
		opts.Home = engine.UserHome()
	}
	if opts.Home != "" && !filepath.IsAbs(opts.Home) {
		return nil, fmt.Errorf("server: the default home %q is not an absolute path", opts.Home)
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight()
	}
	if opts.BodyBudget <= 0 {
		opts.BodyBudget = DefaultBodyBudget
	}
	s := &Server{opts: opts, log: opts.Logger, audit: opts.Audit, tenants: map[[sha256.Size]byte]string{},
		approvers: map[[sha256.Size]byte]string{}, approvals: opts.Approvals}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.audit == nil {
		s.audit = audit.Discard{}
	}
	s.metrics = newMetrics()
	if opts.Store != nil {
		s.store = &observed{Store: opts.Store, errs: s.metrics.storeErrors}
	}
	for _, t := range opts.Tokens {
		if t == "" {
			return nil, errors.New("server: empty bearer token")
		}
		sum := sha256.Sum256([]byte(t))
		s.tenants[sum] = TenantOf(t)
	}
	for _, a := range opts.Approvers {
		sum := sha256.Sum256([]byte(a.Token))
		switch _, agent := s.tenants[sum]; {
		case a.Token == "":
			return nil, errors.New("server: empty approver token")
		case agent:
			return nil, fmt.Errorf("server: an approver token of tenant %s is also an agent's token; an agent could approve its own asks", a.Tenant)
		case !s.knownTenant(a.Tenant):
			return nil, fmt.Errorf("server: approver for tenant %q, which no token of this server has", a.Tenant)
		}
		s.approvers[sum] = a.Tenant
	}
	s.admission = newAdmission(opts, len(s.tenants))
	cfg, version, err := s.load()
	if err != nil {
		return nil, err
	}
	s.install(cfg, version)
	s.routes()
	s.jobs, s.quit, s.spread = make(chan *job), make(chan struct{}), runtime.GOMAXPROCS(0)
	for range 4 * s.spread {
		go s.work()
	}
	return s, nil
}

// TenantOf returns the tenant of a bearer token: the first 16 hex digits
// of its SHA-256, the prefix of its sessions in the store and the audit
// log.
func TenantOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:8])
}

// knownTenant reports whether tenant is one this server serves.
func (s *Server) knownTenant(tenant string) bool {
	if len(s.tenants) == 0 {
		return tenant == localTenant
	}
	for _, t := range s.tenants {
		if t == tenant {
			return true
		}
	}
	return false
}

// load reads the policy file (see Options.ConfigPath) and returns it with
// the SHA-256 of its bytes ("" for the defaults).
func (s *Server) load() (*policy.Config, string, error) {
	path, explicit := s.opts.ConfigPath, s.opts.ConfigPath != ""
	if !explicit {
		path, explicit = policy.DefaultPath()
	}
	if path == "" {
		return &policy.Config{}, "", nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return &policy.Config{}, "", nil
	}
	if err != nil {
		return nil, "", &policy.Error{Path: path, Msg: err.Error()}
	}
	cfg, err := policy.Parse(path, data)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(data)
	return cfg, hex.EncodeToString(sum[:]), nil
}

// install builds the engine for cfg and puts it in force; requests in
// flight finish on the engine they started with.
func (s *Server) install(cfg *policy.Config, version string) {
	var st session.Store
	if s.store != nil {
		st = s.store
	}
	l := &loaded{
		eng: engine.New(engine.Options{Config: cfg, ConfigPath: s.opts.ConfigPath, Store: st, Logger: s.log}),
		cfg: cfg, version: version, at: time.Now().UTC(), cache: newCache(cfg, s.opts.CacheSize),
	}
	if old := s.current.Swap(l); old != nil {
		old.eng.Close() // leaves the shared store open
	}
	s.metrics.policyLoaded.Set(float64(l.at.Unix()))
}

// Reload reads the policy again and puts it in force. When the new policy
// is broken the one in force stays, the error is logged, counted
// (toolwall_policy_reloads_total{result="error"}), shown by GET /v1/rules
// and returned.
func (s *Server) Reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	cfg, version, err := s.load()
	if err != nil {
		msg := err.Error()
		s.reloadErr.Store(&msg)
		s.metrics.reloads.WithLabelValues("error").Inc()
		s.log.Error("toolwall serve: policy reload failed; keeping the policy in force", "err", err)
		return err
	}
	s.reloadErr.Store(nil)
	if cur := s.current.Load(); cur != nil && cur.version == version {
		s.metrics.reloads.WithLabelValues("unchanged").Inc()
		return nil
	}
	s.install(cfg, version)
	s.metrics.reloads.WithLabelValues("ok").Inc()
	s.log.Info("toolwall serve: policy reloaded", "source", cfg.Source, "version", version)
	return nil
}

// WatchPolicy reloads the policy whenever its file changes (size or
// modification time, checked every interval; default 2 s) until
// ctx is done. Polling sees a file replaced by rename, as editors and
// configuration managers write it.
func (s *Server) WatchPolicy(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = 2 * time.Second
	}
	path := s.opts.ConfigPath
	if path == "" {
		path, _ = policy.DefaultPath()
	}
	if path == "" {
		return
	}
	last := stamp(path)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if now := stamp(path); now != last {
			last = now
			_ = s.Reload() // logged and counted
		}
	}
}

// stamp identifies a version of a file without reading it.
func stamp(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
}

// Engine returns the engine in force.
func (s *Server) Engine() *engine.Engine { return s.current.Load().eng }

// Registry returns the server's own Prometheus registry (the default
// registry is never touched).
func (s *Server) Registry() *prometheus.Registry { return s.metrics.reg }

// Handler returns the HTTP handler of every endpoint.
func (s *Server) Handler() http.Handler { return s.mux }

// Serve answers requests on ln until ctx is done, then shuts down
// gracefully: it stops accepting, reports not ready, and waits up to
// Options.ShutdownTimeout for requests in flight to finish. It returns
// nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.opts.Timeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	<-errc // http.ErrServerClosed
	return nil
}

// Close stops the server's workers and releases the engine in force;
// the store passed in Options stays open for its owner to close. Call it
// after Serve has returned.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.quit) })
	return s.current.Load().eng.Close()
}

// call turns a request's call into the call the engine judges, with the
// session id prefixed by the tenant. It rejects what the engine could
// only misread.
func (s *Server) call(tenant string, c api.Call) (toolwall.Call, error) {
	switch {
	case c.Tool == "":
		return toolwall.Call{}, errors.New(`"tool" is required`)
	case len(c.Tool) > MaxNameLen || len(c.CallID) > MaxNameLen || len(c.Caller) > MaxNameLen:
		return toolwall.Call{}, fmt.Errorf(`"tool", "call_id" and "caller" are at most %d bytes`, MaxNameLen)
	case len(c.Session) > MaxSessionLen:
		return toolwall.Call{}, fmt.Errorf(`"session" is at most %d bytes`, MaxSessionLen)
	case c.Context != "" && c.Context != string(toolwall.UserContext) && c.Context != string(toolwall.RootContext):
		return toolwall.Call{}, fmt.Errorf(`"context" must be "user" or "root", not %q`, c.Context)
	}
	for _, f := range [...]struct{ name, path string }{{"cwd", c.Cwd}, {"project", c.Project}, {"home", c.Home}} {
		if f.path != "" && (f.path[0] != '/' || len(f.path) > 4096) {
			return toolwall.Call{}, fmt.Errorf("%q must be an absolute path of at most 4096 bytes, not %q", f.name, f.path)
		}
	}
	call := toolwall.Call{
		Tool: c.Tool, Input: c.Input, ID: c.CallID, Cwd: c.Cwd, Project: c.Project, Home: c.Home,
		Context: toolwall.ExecContext(c.Context), Caller: c.Caller,
	}
	if call.Home == "" {
		if s.opts.Home == "" {
			return toolwall.Call{}, errors.New(`"home" is required: this server has no default home to judge "~" and $HOME by (toolwall serve --home)`)
		}
		call.Home = s.opts.Home
	}
	if c.Session != "" {
		call.Session = tenant + "/" + c.Session
	}
	return call, nil
}

// internalError is the refusal for a panic p.
func internalError(p any) toolwall.Verdict {
	return toolwall.Refusal("server", toolwall.RuleInternal, fmt.Sprintf("toolwall hit an internal error (%v) and refuses the call rather than let it through unchecked. Retry; if it persists, tell the operator of the toolwall server.", p))
}
