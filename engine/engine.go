package engine

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/analyzers/self"
	"github.com/toolwall/toolwall/analyzers/windows"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/install"
	"github.com/toolwall/toolwall/llm"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/trajectory"
)

// Places says which of toolwall's own files the self analyzer protects.
type Places uint8

const (
	// Layout protects the default install layout under each call's home
	// only (see DefaultFiles) and asks nothing of this machine's files:
	// no path is looked up, no project .toolwall.toml is read
	// (policy.Elsewhere), and git is not asked whether it could restore a
	// deleted project subtree (analyzers.Elsewhere). The zero value:
	// eval, corpus tests, benchmarks and the decision server (whose calls
	// run on the agents' machines) judge against it on any machine.
	Layout Places = iota
	// Installed adds the real files of this process: the configuration
	// file, the state database, the running executable and a "toolwall"
	// in every PATH directory, and judges paths as they are on this
	// machine: a delete of a path that does not exist loses nothing
	// (analysis.Input.Exists, from os.Lstat), the project's .toolwall.toml
	// applies, and git in the project is asked whether a deleted subtree
	// could be restored. The CLI's check and every hook use it.
	Installed
)

// Memory selects session memory.
type Memory uint8

const (
	// NoMemory keeps no session memory: single-call analysis only.
	NoMemory Memory = iota
	// Volatile keeps session memory in this process (eval's history
	// cases, servers without a store).
	Volatile
	// Persistent keeps session memory in the SQLite state database,
	// opened on first use so that a call with no risk tags never touches
	// it; shared by every process that opens the same file.
	Persistent
)

// Options configure New. The zero value gives the default configuration,
// no memory and the Layout places.
type Options struct {
	// Config is the loaded configuration; nil means the defaults.
	Config *policy.Config
	// ConfigPath is the configuration file named on the command line, if
	// any; the file the configuration came from (Config.Source) or the
	// default place is protected when it is "".
	ConfigPath string
	// State is the state database named on the command line ("" resolves
	// $TOOLWALL_STATE, then memory.state of the configuration, then
	// session.DefaultPath).
	State string
	// Memory selects session memory (default NoMemory). It is ignored
	// when Store is set.
	Memory Memory
	// Store, when set, is the session store to use instead of one the
	// engine opens itself: a store shared by several engines (a server
	// swaps its engine when the policy is reloaded) or one the engine
	// cannot open (session/postgres). The caller owns it: Close leaves it
	// open.
	Store session.Store
	// OpenState opens the state database of Persistent memory, on the
	// first call that needs it (default [OpenState]). The engine closes
	// what it returns when it is closed; a resident process that keeps
	// the file open across calls returns a store whose Close does
	// nothing.
	OpenState func(path string, o session.Options, log *slog.Logger) (session.Store, error)
	// Places says which own files the self analyzer protects (default
	// Layout).
	Places Places
	// BusyTimeout bounds how long a Persistent store waits for another
	// process's write lock (default 500 ms: parallel hooks wait briefly
	// for each other, well inside a host's hook timeout).
	BusyTimeout time.Duration
	// Logger receives warnings and internal errors; nil means
	// slog.Default().
	Logger *slog.Logger
	// Protect lists more of toolwall's own files the self analyzer guards
	// with the Installed places: the audit store and the approvals (see
	// Stores.Files).
	Protect []string
	// Dial opens the model clients of the later stage (the guardrail and
	// the advisor, configured by [llm], [guardrail] and [advisor]);
	// cmd/toolwall passes llm/providers.Open. It is called on a stage's
	// first model call, never before. Nil leaves an enabled stage without
	// a model: every verdict it would judge notes it as unavailable.
	Dial func(llm.Config) (llm.Client, error)
	// Guardrail turns the guardrail on even when [guardrail] enabled is
	// false (toolwall eval --llm), with the configuration's other
	// settings.
	Guardrail bool
	// DetectMCP finds MCP servers on loopback ports for the guardrail's
	// safety experiences when [guardrail] detect_mcp_ports lists any
	// (cmd/toolwall passes llm/helper's Detector; nil: detection is
	// unavailable, logged).
	DetectMCP func(ctx context.Context, ports []int) []string
}

// Engine is the gate with its session store. It is safe for concurrent
// use; Close releases the store.
type Engine struct {
	*gate.Gate
	store  session.Store
	shared bool // store came from Options.Store: not closed by Close
	state  string
	policy *policy.Policy
	// trajectory is the sessions' trajectory risk ([trajectory] enabled
	// with a store); nil otherwise.
	trajectory *trajectory.Tracker
	// once: the later stage holds inputs it reads once (see Renew).
	once bool
}

// New builds the engine for opts. It does not fail: a state database that
// cannot be located or opened leaves memory off, and every verdict then
// carries the note "chain memory off: …" (single-call analysis goes on).
func New(opts Options) *Engine {
	cfg := opts.Config
	if cfg == nil {
		cfg = &policy.Config{}
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	e := &Engine{}
	var storeErr error
	memory := opts.Memory
	if opts.Store != nil {
		e.store, e.shared, memory = opts.Store, true, NoMemory
	}
	switch memory {
	case Volatile:
		e.store = session.NewMemory(session.Options{Calls: calls(cfg), Retention: cfg.Memory.Retention.Duration})
	case Persistent:
		e.state, storeErr = StatePath(opts.State, cfg)
		if storeErr != nil {
			log.Warn("toolwall: session memory unavailable; single-call analysis only", "err", storeErr)
			break
		}
		busy := opts.BusyTimeout
		if busy <= 0 {
			busy = 500 * time.Millisecond
		}
		path := e.state
		open := opts.OpenState
		if open == nil {
			open = OpenState
		}
		e.store = session.NewLazyAt(path, func() (session.Store, error) {
			return open(path, session.Options{
				Calls:       calls(cfg),
				Retention:   cfg.Memory.Retention.Duration,
				BusyTimeout: busy,
				Recover:     true,
			}, log)
		})
	}
	if e.state == "" && opts.Places == Installed {
		e.state, _ = StatePath(opts.State, cfg)
	}
	w := gate.ChainWindow
	if cfg.Memory.Calls > 0 {
		w.Calls = cfg.Memory.Calls
	}
	if cfg.Memory.Turns > 0 {
		w.Turns = cfg.Memory.Turns
	}
	files := self.Files{Own: SystemFiles(), Home: DefaultFiles(), Settings: HostSettings(), Hooks: UserHooks()}
	var exists func(string) (bool, bool)
	if opts.Places == Installed {
		files.Own = append(append(files.Own, installedFiles(cfg, opts.ConfigPath, e.state)...), opts.Protect...)
		files.Hooked = hookedFiles()
		files.HookedIn = projectHooked
		exists = lstat
	}
	e.policy = policy.Elsewhere(cfg)
	if opts.Places == Installed {
		e.policy = policy.New(cfg) // the project's .toolwall.toml is on this machine
	}
	var tracked func(context.Context, string, string) bool
	builtin := analyzers.Elsewhere()
	if opts.Places == Installed {
		tracked = gitTracked
		builtin = analyzers.All()
	}
	later := laterStage(cfg, opts, e.store, log)
	e.once = len(later.Analyzers) > 0
	e.Gate = gate.New(gate.Options{
		Tracked:    tracked,
		Analyzers:  append(builtin, windows.Analyzer, self.New(files), e.policy.Analyzer()),
		Thresholds: cfg.ThresholdsOr(toolwall.DefaultThresholds()), // checked by policy.Parse
		Disabled:   cfg.Rules.Disable,
		Window:     w,
		Logger:     log,
		Store:      e.store,
		StoreErr:   storeErr,
		Exists:     exists,
		Later:      later,
	})
	if cfg.Trajectory.Enabled && e.store != nil {
		// policy.Parse checked the decay, so New cannot fail here.
		e.trajectory, _ = trajectory.New(trajectory.Options{Store: e.store, Decay: cfg.TrajectoryDecay(), ReadOnly: cfg.Trajectory.ReadOnly, Logger: log})
	}
	return e
}

// Evaluate decides on call: the gate's verdict (built-in analyzers, the
// configuration's rules), finished by the call's project layer and the
// operator's allowlist (policy.Policy.Apply), then, with [trajectory]
// enabled, by the session's trajectory risk (trajectory.Tracker.Apply:
// what the verdict earned is noted, and a critical session's allow of a
// tool that writes, runs or sends becomes a deny).
//
// A ctx without a deadline gets DefaultTimeout (every entry point
// is bounded); past it the verdict is a deny (gate.cancelled).
func (e *Engine) Evaluate(ctx context.Context, call toolwall.Call) toolwall.Verdict {
	ctx, cancel := bounded(ctx)
	defer cancel()
	v := e.Gate.Evaluate(ctx, call)
	v = e.policy.Apply(gate.Normalize(call), v)
	if e.trajectory != nil {
		v = e.trajectory.Apply(ctx, call, v)
	}
	return v
}

// Trajectory returns the sessions' trajectory risk, for the embedding
// application to read and set (the tool-executor framework's TrajectoryRiskSlot); nil unless
// [trajectory] enabled is set and the engine has session memory.
func (e *Engine) Trajectory() *trajectory.Tracker { return e.trajectory }

// RecordInvocation records that call ran (see gate.Gate.RecordInvocation),
// within DefaultTimeout when ctx has no deadline.
func (e *Engine) RecordInvocation(ctx context.Context, call toolwall.Call, success bool) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	e.Gate.RecordInvocation(ctx, call, success)
}

// DefaultTimeout bounds Evaluate and RecordInvocation when the caller's
// context has no deadline: 4 s, the hook's PreToolUse deadline.
const DefaultTimeout = 4 * time.Second

// bounded returns ctx, with DefaultTimeout when it has no deadline.
func bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// Policy returns the policy the engine applies.
func (e *Engine) Policy() *policy.Policy { return e.policy }

// lstat reports whether path exists on this machine, not following a
// final symbolic link; an error other than "does not exist" (or "not a
// directory" on the way) leaves it unknown.
func lstat(path string) (exists, known bool) {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return false, true
	}
	return false, false
}

// calls is the number of calls a store keeps per session: at least the
// chain window.
func calls(cfg *policy.Config) int { return max(cfg.Memory.Calls, gate.ChainWindow.Calls) }

// Store returns the session store (nil without memory).
func (e *Engine) Store() session.Store { return e.store }

// StatePath returns the state database in use or, without Persistent
// memory, the one that would be used ("" when it cannot be located).
func (e *Engine) StatePath() string { return e.state }

// Close closes the session store the engine opened, if any; a store
// passed in Options.Store stays open.
func (e *Engine) Close() error {
	if e.shared {
		return nil
	}
	if c, ok := e.store.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Renew readies e for another call of a process that serves many with
// one engine: a persistent session store (Memory: Persistent) is closed
// and opened again on first use, so Options.OpenState is asked again (a
// resident that keeps databases open checks there that the file is still
// the one held), and each project's .toolwall.toml is looked at again at
// the next call (policy.Policy.Recheck). Other stores are kept. It fails
// with session.ErrClosed after Close, and with ErrOnce when the later
// stage is on: build a new engine for the next call then.
func (e *Engine) Renew() error {
	if e.once {
		return ErrOnce
	}
	e.policy.Recheck()
	if l, ok := e.store.(*session.Lazy); ok && !e.shared {
		return l.Reset()
	}
	return nil
}

// ErrOnce is Renew's error for an engine whose later stage is on (the
// guardrail or the advisor): it reads its safety experiences (files, an
// MCP configuration, the servers on loopback ports) and opens its model
// clients once, on first use, so a second call would not see what
// changed since the first, as a new process would.
var ErrOnce = errors.New("engine: the later stage reads its inputs once; build a new engine for another call")

// StatePath resolves the session state file: flag when set, then
// $TOOLWALL_STATE, then memory.state of cfg, then session.DefaultPath.
func StatePath(flag string, cfg *policy.Config) (string, error) {
	switch {
	case flag != "":
		return flag, nil
	case os.Getenv(session.EnvState) != "":
		return os.Getenv(session.EnvState), nil
	}
	if p := cfg.StatePath(UserHome()); p != "" {
		return p, nil
	}
	return session.DefaultPath()
}

// binaries are toolwall's programs: the CLI, the hook client hosts run
// (install writes its path into every host's settings), the model helper
// and the network commands.
var binaries = []string{"toolwall", "toolwall-hook", "toolwall-llm", "toolwall-net"}

// DefaultFiles lists, relative to a home directory, where the
// documented install puts toolwall's own files: the binaries (`go install` writes
// them to go/bin; ~/.local/bin and ~/bin are the other per-user program
// directories), the configuration, the state database with its WAL,
// shared-memory and lost-records files, the audit store (database, WAL,
// shared memory, inbox), the approvals, and the resident's socket with
// its pid and lock files when no runtime directory is set
// (resident.Socket): every file of the state directory.
func DefaultFiles() []string {
	var out []string
	for _, dir := range []string{"go/bin", ".local/bin", "bin"} {
		for _, b := range binaries {
			out = append(out, dir+"/"+b, dir+"/"+b+".exe") // .exe: go install on Windows
		}
	}
	return append(out,
		".config/toolwall/config.toml",
		// every file of its state directory: session memory, the
		// audit store, approvals, the resident's socket, pid and lock
		".local/state/toolwall/*",
		// the state file's identity mirrored beside its directory
		// (session.SideFiles), which outlives the directory's removal
		".local/state/.toolwall.state.db-id",
	)
}

// SystemFiles lists toolwall's own files outside any home: its binaries
// in the system's program directories, and the resident's socket, pid
// and lock files in a user's runtime directory (resident.Socket). A "*"
// matches any one path element.
func SystemFiles() []string {
	var out []string
	for _, dir := range []string{"/usr/local/bin", "/usr/bin", "/opt/homebrew/bin"} {
		for _, b := range binaries {
			out = append(out, dir+"/"+b)
		}
	}
	return append(out, "/run/user/*/toolwall/*")
}

// HostSettings lists every agent host's hook settings files but Claude
// Code's (which the self analyzer derives itself), for self.Files: a tool
// call that changes one is asked about (self.settings).
func HostSettings() []self.Setting {
	var out []self.Setting
	seen := map[string]bool{}
	for _, s := range host.Settings() {
		if s.Host == "claude-code" || seen[s.Path] {
			continue
		}
		seen[s.Path] = true
		out = append(out, self.Setting{Path: s.Path, Host: s.Display})
	}
	return out
}

// installedFiles lists the real files of this process: the configuration
// (where it is or would be read from), the state database with its WAL,
// shared-memory and lost-records files, this binary and the model helper
// beside it, and its name in every PATH directory (a program of the same
// name earlier on the PATH would run in place of this one when a host
// calls "toolwall").
func installedFiles(cfg *policy.Config, configPath, state string) []string {
	var out []string
	conf := cfg.Source
	if conf == "" {
		conf = configPath
	}
	if conf == "" {
		conf, _ = policy.DefaultPath()
	}
	if abs, err := filepath.Abs(conf); err == nil && conf != "" {
		out = append(out, abs)
	}
	if abs, err := filepath.Abs(state); err == nil && state != "" {
		out = append(append(out, abs), session.SideFiles(abs)...)
	}
	out = append(out, hookBinaries()...)
	if exe, err := executable(); err == nil {
		// The hook client, the model helper (llm/helper) and the network
		// commands run from this binary's directory.
		dir := filepath.Dir(exe)
		out = append(out, exe, filepath.Join(dir, "toolwall-hook"), filepath.Join(dir, "toolwall-llm"), filepath.Join(dir, "toolwall-net"))
		for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
			if filepath.IsAbs(dir) {
				out = append(out, filepath.Join(dir, filepath.Base(exe)))
			}
		}
	}
	return out
}

// installedHooks are toolwall's hooks in the user's configuration of
// every host (install.Find), read once per home directory (a resident
// serves one user).
func installedHooks() []install.Hook {
	home := UserHome()
	if home == "" {
		return nil
	}
	if h := hooksRead.Load(); h != nil && h.home == home {
		return h.hooks
	}
	var out []install.Hook
	for _, name := range install.Hosts() {
		out = append(out, install.Find(name, install.Options{Home: home})...)
	}
	hooksRead.Store(&homeHooks{home: home, hooks: out})
	return out
}

// homeHooks are the hooks found under one home.
type homeHooks struct {
	home  string
	hooks []install.Hook
}

// hooksRead is the last reading of installedHooks.
var hooksRead atomic.Pointer[homeHooks]

// hookBinaries lists the binaries the hosts' settings run as toolwall's
// hook, as `toolwall install` recorded them there, and toolwall's other
// programs beside each: an install elsewhere than this binary's is as
// much the gate as this one.
func hookBinaries() []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range installedHooks() {
		if !filepath.IsAbs(h.Binary) || seen[h.Binary] {
			continue
		}
		seen[h.Binary] = true
		out = append(out, h.Binary)
		for _, b := range binaries {
			out = append(out, filepath.Join(filepath.Dir(h.Binary), b))
		}
	}
	return out
}

// hookedFiles lists the user's settings files found holding toolwall's
// hook (never nil: an empty list says none holds it).
func hookedFiles() []string {
	out := []string{}
	for _, h := range installedHooks() {
		if !slices.Contains(out, h.File) {
			out = append(out, h.File)
		}
	}
	return out
}

// projectHooked lists project's settings files that hold toolwall's hook
// (`toolwall install --project` writes them), as install.Find reads them.
func projectHooked(project string) []string {
	var out []string
	if !filepath.IsAbs(project) {
		return nil
	}
	for _, name := range install.Hosts() {
		for _, h := range install.Find(name, install.Options{Home: UserHome(), Project: project}) {
			if strings.HasPrefix(h.File, project+string(filepath.Separator)) && !slices.Contains(out, h.File) {
				out = append(out, h.File)
			}
		}
	}
	return out
}

// UserHooks lists, relative to a home directory, every host's user
// settings files where `toolwall install` writes the hook
// (install.Files), for self.Files: emptying or stripping one is refused
// (self.unhook) where nothing says it holds no hook.
func UserHooks() []string { return install.Files(false) }

// OpenState opens the SQLite state database at path with o
// (session.Open); failures, and a file moved aside as unusable, are logged
// to log as warnings. The error is an *session.OpenError: the caller goes
// on without session memory.
func OpenState(path string, o session.Options, log *slog.Logger) (session.Store, error) {
	db, err := session.Open(path, o)
	if err != nil {
		log.Warn("toolwall: session memory unavailable; single-call analysis only", "err", err)
		return nil, err
	}
	if r := db.Recovered; r != nil {
		log.Warn("toolwall: "+r.String(), "state", r.From, "moved_to", r.Aside)
	}
	return db, nil
}

// executable is this process's binary, symlinks resolved, found once (a
// resident process builds an engine per call).
var executable = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
})

// UserHome is the user's home directory: $HOME, else the account's home
// directory, else "" (then "~" is unknown and asked about).
func UserHome() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// Broken is the shield of a driver whose configuration could not be
// loaded: it denies every call with rule config.invalid and the error in
// the reason (fail closed and visible: a broken configuration never turns
// into "allow", nor into weaker defaults), and records nothing.
type Broken struct{ Err error }

// Evaluate denies call.
func (b Broken) Evaluate(context.Context, toolwall.Call) toolwall.Verdict {
	err := b.Err
	if err == nil {
		err = errors.New("unknown error")
	}
	return toolwall.Refusal("policy", toolwall.RuleConfig, "toolwall's configuration is broken ("+err.Error()+"), so every tool call is refused until it is fixed. Tell the user; `toolwall check -- true` shows the error.")
}

// RecordInvocation records nothing.
func (Broken) RecordInvocation(context.Context, toolwall.Call, bool) {}

// WatchedTools is empty: hosts consult the shield for every tool anyway.
func (Broken) WatchedTools() []string { return nil }
