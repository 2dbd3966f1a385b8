package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/internal/resident"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

func newResident() *cobra.Command {
	var idle time.Duration
	c := &cobra.Command{
		Use:   "resident",
		Short: "Serve toolwall-hook's calls from a resident process (started by toolwall-hook)",
		Long: `Listens on a per-user Unix socket for the hook calls of toolwall-hook
and answers each one exactly as "toolwall hook" would, with the client's
environment, directory, standard input and pipes for the answer.
toolwall-hook starts
it when none answers; it exits after --idle without a call, when its
binary is replaced, or at once when another resident already serves.`,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return serveResident(idle)
		},
	}
	c.Flags().DurationVar(&idle, "idle", 30*time.Minute, "exit after this long without a call")
	return c
}

// staleCheck is how often an idle resident checks whether its binary was
// replaced (1 s: a stat).
const staleCheck = time.Second

// serveResident listens until idle passes without a call or the binary
// is replaced. A second resident (the lock is held) returns nil at once.
func serveResident(idle time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	born, err := os.Stat(self)
	if err != nil {
		return err
	}
	sock, err := resident.Socket(self, os.Getenv)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(sock+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return nil // another resident serves
	}
	_ = os.Remove(sock)
	old := syscall.Umask(0o077)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return err
	}
	ln.SetUnlinkOnClose(true)
	defer ln.Close()
	pid := strconv.Itoa(os.Getpid())
	if err := writePid(resident.PidFile(sock), pid); err != nil {
		return err
	}
	defer func() {
		if b, err := os.ReadFile(resident.PidFile(sock)); err == nil && string(b) == pid+"\n" {
			os.Remove(resident.PidFile(sock))
		}
	}()
	// One processor: calls are served one at a time anyway, and waking a
	// second thread for each handoff costs more than it gains.
	runtime.GOMAXPROCS(1)
	// Fewer collections: a call allocates about 50 KB and keeps none of
	// it; the heap stays far below the memory limit.
	debug.SetGCPercent(400)
	prefault()
	client := filepath.Join(filepath.Dir(self), "toolwall-hook")
	if real, err := filepath.EvalSymlinks(client); err == nil {
		client = real
	}
	r := &residentServer{self: self, client: client, born: born, jobs: make(chan job), runtimeEnv: map[string]string{}, ln: ln}
	for i, ns := range []string{"mnt", "user"} {
		if r.ns[i], err = os.Readlink("/proc/self/ns/" + ns); err != nil {
			return err
		}
	}
	for _, k := range []string{"GODEBUG", "GOMEMLIMIT", "GOGC"} {
		r.runtimeEnv[k] = os.Getenv(k)
	}
	// SIGTERM or SIGINT: stop accepting, finish the calls in flight, and
	// remove the socket.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			r.retire()
		}
	}()
	states := &stateCache{open: map[string]*heldState{}}
	openState = states.get
	keepEngine = r.engines.get
	worked := make(chan struct{})
	go func() {
		defer close(worked)
		r.work()
	}()
	// On the way out: no call is being read (r.wait below), the worker
	// finishes the last call's audit writes, then the databases close.
	defer func() {
		close(r.jobs)
		<-worked
		r.engines.close()
		states.close()
	}()
	// The binary is looked at every staleCheck too, not only when a call
	// comes: a client does not connect to a resident whose binary was
	// replaced (`go install` renames a new file over it), so that
	// resident would otherwise hold the lock, and keep a fresh one from
	// starting, until it is idle.
	lastCall := time.Now()
	for {
		_ = ln.SetDeadline(time.Now().Add(min(staleCheck, time.Until(lastCall.Add(idle)))))
		conn, err := ln.AcceptUnix()
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() || r.stale() {
				break
			}
			if time.Since(lastCall) < idle || r.busy() {
				continue
			}
			break
		}
		lastCall = time.Now()
		if r.stale() {
			refuse(conn)
			break
		}
		r.add(1)
		go func() {
			defer r.add(-1)
			r.serve(conn)
		}()
	}
	r.wait()
	return nil
}

// prefaultBytes is how much heap prefault touches: about what the heap
// grows to before its first collection at GOGC 400 (16 MB), less what
// the process already holds.
const prefaultBytes = 16 << 20

// prefault touches, once, the heap pages the calls will allocate from. A
// fresh page costs a page fault when first written, and the heap grows
// into fresh pages until the first collection: without this, each of a
// resident's first several hundred calls took about seven faults. The
// memory freed here is reused by the calls' allocations; the collector
// keeps it (it is within the heap's goal).
func prefault() {
	b := make([]byte, prefaultBytes)
	for i := 0; i < len(b); i += os.Getpagesize() {
		b[i] = 1
	}
	runtime.KeepAlive(b)
	runtime.GC()
}

// residentStatus says whether a resident of this binary serves hook
// calls: its pid and socket, or none (the next call through
// toolwall-hook starts one). Shown by doctor.
func residentStatus() string {
	self, err := os.Executable()
	if err != nil {
		return "resident: unknown (" + err.Error() + ")"
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	sock, err := resident.Socket(self, os.Getenv)
	if err != nil {
		return "resident: none (" + err.Error() + ")"
	}
	b, err := os.ReadFile(resident.PidFile(sock))
	pid := strings.TrimSpace(string(b))
	if err == nil {
		if exe, err := os.Readlink("/proc/" + pid + "/exe"); err == nil && exe == self {
			return "resident: pid " + pid + " serves toolwall-hook's calls on " + sock + " (stop it: kill " + pid + ")"
		}
	}
	return "resident: none running (the next hook call through toolwall-hook starts one on " + sock + ")"
}

// writePid writes pid to file atomically (a temporary file renamed over
// it), mode 0600.
func writePid(file, pid string) error {
	tmp := file + ".tmp" + pid
	if err := os.WriteFile(tmp, []byte(pid+"\n"), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// residentServer runs hook calls one at a time: a call swaps the
// process's environment, directory and standard streams for the
// client's, so that the very code of `toolwall hook` runs unchanged.
type residentServer struct {
	// self is this binary; client the toolwall-hook beside it, the only
	// program whose calls are served (symlinks resolved).
	self, client string
	born         os.FileInfo
	// ns are this process's mount and user namespaces, as their links
	// read ("mnt:[4026531841]": the namespace's inode); runtimeEnv its
	// GODEBUG, GOMEMLIMIT and GOGC (see fits).
	ns         [2]string
	runtimeEnv map[string]string
	// ln is the listener; stop closes it once (retire).
	ln   *net.UnixListener
	stop sync.Once
	// jobs is served by one long-lived worker goroutine, so calls run one
	// at a time (a fraction of a millisecond each once the payload is
	// read; it is read before) on a stack that has already grown: a fresh
	// goroutine per call spent a tenth of the call growing its stack.
	jobs chan job
	// inflight counts the calls being served; done is signalled by each.
	inflight atomic.Int64
	done     sync.WaitGroup
	// env is the environment the last call set (setEnv), envGen counts
	// its changes; only the worker uses them. Nothing else in this
	// process changes the environment, so a call with the same one skips
	// setting it.
	env    []string
	envGen int
	// engines keeps the last call's engine (only the worker uses it).
	engines engineCache
}

// engineCache keeps the engine of the last call for the next call built
// from the same inputs: the configuration (an equal value: it is read
// from its file for every call), the options, --config, the environment
// and the directory (paths in them may be relative). Building one costs
// a call about 50 µs; a kept one is renewed for each call (its session
// store opened again through the state cache, which checks the file is
// still the one held; its project files looked at again). One that
// cannot be renewed (engine.ErrOnce: the guardrail or the advisor is on)
// is built anew.
type engineCache struct {
	// env and dir are the call's: r.envGen and its directory.
	env int
	dir string

	e       *engine.Engine
	key     engineKey
	protect []string
	cfg     *policy.Config
}

type engineKey struct {
	env         int
	dir, config string
	state       string
	memory      engine.Memory
	places      engine.Places
}

// get is keepEngine.
func (c *engineCache) get(cfg *policy.Config, opts engine.Options) *engine.Engine {
	key := engineKey{env: c.env, dir: c.dir, config: configPath, state: opts.State, memory: opts.Memory, places: opts.Places}
	if c.e != nil && key == c.key && slices.Equal(opts.Protect, c.protect) && reflect.DeepEqual(cfg, c.cfg) && c.e.Renew() == nil {
		return c.e
	}
	c.close()
	c.e, c.key, c.protect, c.cfg = newEngine(cfg, opts), key, opts.Protect, cfg
	return c.e
}

// close closes the kept engine.
func (c *engineCache) close() {
	if c.e != nil {
		_ = c.e.Close()
		c.e = nil
	}
}

func (r *residentServer) add(d int) {
	if d > 0 {
		r.done.Add(d)
	} else {
		defer r.done.Done()
	}
	r.inflight.Add(int64(d))
}

// retire closes the listener once: the accept loop ends, the calls in
// flight finish, the process exits.
func (r *residentServer) retire() { r.stop.Do(func() { r.ln.Close() }) }

func (r *residentServer) busy() bool { return r.inflight.Load() > 0 }

func (r *residentServer) wait() { r.done.Wait() }

// stale reports whether the binary at r.self is no longer the one this
// process runs (replaced, rewritten or removed).
func (r *residentServer) stale() bool {
	st, err := os.Stat(r.self)
	return err != nil || !os.SameFile(st, r.born) || st.Size() != r.born.Size() || !st.ModTime().Equal(r.born.ModTime())
}

// serve answers one connection: the request, its three descriptors, the
// checks (fits), the payload read here (not on the worker), the hook run
// by the worker, the exit status.
func (r *residentServer) serve(conn *net.UnixConn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(resident.ReplyTimeout))
	req, files, pid, err := readRequest(conn, r.client)
	closeFiles := func() {
		for _, f := range files {
			f.Close()
		}
		files = nil
	}
	defer closeFiles()
	if err != nil || len(files) != 3 || len(req.Args) == 0 || req.Args[0] != "hook" || !r.fits(req, pid, files[0]) {
		_, _ = conn.Write(resident.Reply(resident.Stale))
		return
	}
	// Read the payload as the hook would, before the call queues for the
	// worker: a host that leaves its input open holds up only its own call.
	payload, perr := host.ReadPayload(files[0], host.DefaultMaxPayload, host.DefaultTimeout)
	var in io.Reader = bytes.NewReader(payload)
	if perr != nil {
		in = io.MultiReader(in, errReader{perr})
	}
	done := make(chan struct{})
	r.jobs <- job{req: req, in: in, out: files[1], errOut: files[2], done: done,
		reply: func(status int) {
			// The answer's pipes end before the reply: the client reads
			// them to their end once it has the reply. The input is
			// closed after it (serve's deferred closeFiles): nobody waits
			// for that.
			files[1].Close()
			files[2].Close()
			_, _ = conn.Write(resident.Reply(status))
		}}
	<-done
}

// fits reports whether this process would answer req as the binary run
// by the client would: the client's resource limits are this process's
// (a resident started under `prlimit --nofile=15` cannot open the state
// file), it is in this process's mount and user namespaces (another view
// of the files), its directory exists, its GODEBUG, GOMEMLIMIT and GOGC
// are this process's, and its standard input is not a terminal (a read
// left waiting on one would take a line the user types later). Anything
// else is answered Stale: the client runs the binary itself.
func (r *residentServer) fits(req resident.Request, pid int, stdin *os.File) bool {
	if len(req.Limits) != 2*len(resident.Limits) {
		return false
	}
	for i, res := range resident.Limits {
		var l unix.Rlimit
		if unix.Getrlimit(res, &l) != nil || l.Cur != req.Limits[2*i] || l.Max != req.Limits[2*i+1] {
			return false
		}
	}
	// Read as links: half the cost of a stat of each.
	for i, ns := range []string{"mnt", "user"} {
		if link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/" + ns); err != nil || link != r.ns[i] {
			return false
		}
	}
	if st, err := os.Stat(req.Dir); err != nil || !st.IsDir() {
		return false
	}
	for _, k := range []string{"GODEBUG", "GOMEMLIMIT", "GOGC"} {
		if envValue(req.Env, k) != r.runtimeEnv[k] {
			return false
		}
	}
	if st, err := stdin.Stat(); err != nil || st.Mode()&os.ModeCharDevice != 0 && !isDevNull(st) {
		return false
	}
	return true
}

// envValue is the value of key in env ("KEY=value" entries; the last
// wins, as in a process's environment), "" when unset.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// isDevNull reports whether st is /dev/null's.
func isDevNull(st os.FileInfo) bool {
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, null)
}

// job is one call for the worker: it runs the hook, passes the exit
// status to reply, and closes done.
type job struct {
	req         resident.Request
	in          io.Reader
	out, errOut *os.File
	reply       func(status int)
	done        chan<- struct{}
}

// work runs the jobs one after another until jobs is closed.
// The audit writes a call handed over (host.Hook.Later) run after its
// reply, before the next call.
//
// A call whose decision ran out of time leaves its evaluation running in
// this process, where it would go on under the next call's environment;
// after one, the resident stops taking calls and exits (the next client
// starts a fresh one).
func (r *residentServer) work() {
	for j := range r.jobs {
		status, after := r.run(j.req, j.in, j.out, j.errOut)
		// The worker replies itself: handed to the connection's
		// goroutine, the reply would wait until this one blocks, after
		// the audit writes.
		j.reply(status)
		close(j.done)
		for _, f := range after {
			runAfter(f)
		}
		if abandoned {
			r.retire()
		}
	}
}

// runAfter runs f; a panic in it is dropped (the call was answered; its
// audit write is lost, as a crashed process would lose it).
func runAfter(f func()) {
	defer func() { _ = recover() }()
	f()
}

// refuse answers a connection with Stale, after reading its request (a
// client whose request is cut short would take the resident for absent).
func refuse(conn *net.UnixConn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	_, files, _, _ := readRequest(conn, "")
	for _, f := range files {
		f.Close()
	}
	_, _ = conn.Write(resident.Reply(resident.Stale))
}

// run runs the hook command of req with the process's environment,
// directory and streams swapped for the client's, and returns its exit
// status, and the audit writes to run after the reply. The streams are
// put back before it returns; the environment and directory stay until the
// next call sets its own. Only the worker calls it.
func (r *residentServer) run(req resident.Request, in io.Reader, out, errOut *os.File) (status int, after []func()) {
	oldOut, oldErr := os.Stdout, os.Stderr
	defer func() {
		// The streams go back; the environment and directory stay the
		// call's until the next call sets its own (nothing else in this
		// process reads them).
		os.Stdout, os.Stderr, stdin, later = oldOut, oldErr, os.Stdin, nil
		if p := recover(); p != nil {
			// The hook recovers from panics inside the gate; one here is
			// in the swap itself. Exit status 2 blocks in most hosts.
			fmt.Fprintf(errOut, "toolwall resident: internal error: %v; the tool call is refused.\n", p)
			status = 2
		}
	}()
	if !slices.Equal(req.Env, r.env) {
		setEnv(req.Env)
		r.env = req.Env
		r.envGen++
	}
	_ = os.Chdir(req.Dir)
	r.engines.env, r.engines.dir = r.envGen, req.Dir
	abandoned = false
	os.Stdout, os.Stderr, stdin = out, errOut, in
	later = func(f func()) { after = append(after, f) }
	status = run(req.Args)
	return status, after
}

// setEnv makes the process's environment env, except GODEBUG, which
// keeps the process's value (setting it changes the running runtime's
// behaviour; fits serves only requests whose GODEBUG is the process's
// own). Only the entries that differ are changed: a host's hooks mostly
// share one environment, and each change takes a lock and a copy.
func setEnv(env []string) {
	want := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" && k != "GODEBUG" {
			want[k] = v
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := want[k]; !ok && k != "GODEBUG" {
			_ = os.Unsetenv(k)
		}
	}
	for k, v := range want {
		if cur, ok := os.LookupEnv(k); !ok || cur != v {
			_ = os.Setenv(k, v)
		}
	}
}

// readRequest reads one request and the descriptors sent with it from
// conn, after checking that the peer runs as this user and, unless client
// is "", that its executable is client: another program of the user's
// (a script an agent wrote) could otherwise feed the hook events only a
// host may send, which `toolwall hook` from a tool call is denied for
// (policy.self-approve). The standard input descriptor is made
// non-blocking so that closing it ends a read still waiting on it.
func readRequest(conn *net.UnixConn, client string) (resident.Request, []*os.File, int, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return resident.Request{}, nil, 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil || int(cred.Uid) != os.Getuid() {
		return resident.Request{}, nil, 0, errors.New("peer is not this user")
	}
	if client != "" {
		if exe, err := os.Readlink("/proc/" + strconv.Itoa(int(cred.Pid)) + "/exe"); err != nil || exe != client {
			return resident.Request{}, nil, 0, errors.New("peer is not toolwall-hook")
		}
	}
	// Most requests fit (a hook's environment is a few kilobytes); the
	// rest of a larger one is read after.
	buf := make([]byte, 16<<10)
	oob := make([]byte, unix.CmsgSpace(3*4))
	n, oobn, _, _, err := conn.ReadMsgUnix(buf, oob)
	if err != nil {
		return resident.Request{}, nil, 0, err
	}
	var files []*os.File
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err == nil {
		for _, m := range msgs {
			fds, err := unix.ParseUnixRights(&m)
			if err != nil {
				continue
			}
			for i, fd := range fds {
				if i == 0 && pollable(fd) {
					_ = unix.SetNonblock(fd, true)
				}
				files = append(files, os.NewFile(uintptr(fd), fmt.Sprintf("client fd %d", i)))
			}
		}
	}
	data := buf[:n]
	if len(data) < 8 {
		head := make([]byte, 8-len(data))
		if _, err := io.ReadFull(conn, head); err != nil {
			return resident.Request{}, files, 0, err
		}
		data = append(data, head...)
	}
	total, err := resident.FrameLen(data)
	if err != nil {
		return resident.Request{}, files, 0, err
	}
	if total > len(data) {
		rest := make([]byte, total-len(data))
		if _, err := io.ReadFull(conn, rest); err != nil {
			return resident.Request{}, files, 0, err
		}
		data = append(data, rest...)
	}
	req, err := resident.Unmarshal(data)
	return req, files, int(cred.Pid), err
}

// pollable reports whether fd is a pipe or a socket: those are made
// non-blocking. A terminal is not (the flag would stay on the terminal
// after the call, and break the shell that owns it).
func pollable(fd int) bool {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return false
	}
	t := st.Mode & unix.S_IFMT
	return t == unix.S_IFIFO || t == unix.S_IFSOCK
}

// stateCache keeps the state databases a resident's calls use open
// across calls: a call with risk tags then costs a query rather than an
// open, a schema check and a WAL checkpoint at close. A database is
// opened again when the file at its path is no longer the one held (the
// user removed or replaced it, or it lost its identity in place); a failed open is not kept, so the next
// call tries again, as a new process would.
type stateCache struct {
	mu   sync.Mutex
	open map[string]*heldState
}

type heldState struct {
	store session.Store
	file  os.FileInfo
}

// keptOpen is a held store handed to an engine, which closes it after
// the call: the close is left to the cache.
type keptOpen struct{ session.Store }

// Close does nothing.
func (keptOpen) Close() error { return nil }

// get is engine.Options.OpenState.
func (c *stateCache) get(path string, o session.Options, log *slog.Logger) (session.Store, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := fmt.Sprint(path, "\x00", o.Calls, o.Refusals, o.Retention, o.PruneEvery, o.BusyTimeout, o.Recover)
	if h := c.open[key]; h != nil {
		if st, err := os.Stat(path); err == nil && os.SameFile(st, h.file) && verified(h.store) {
			return keptOpen{h.store}, nil
		}
		closeStore(h.store)
		delete(c.open, key)
	}
	s, err := engine.OpenState(path, o, log)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return s, nil // not kept: the engine closes it
	}
	c.open[key] = &heldState{store: s, file: st}
	return keptOpen{s}, nil
}

// close closes every held database.
func (c *stateCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, h := range c.open {
		closeStore(h.store)
		delete(c.open, k)
	}
}

// verified reports whether a held store is still the file at its path:
// the same identity (session.SQLite.Verify; a file truncated or
// overwritten in place is the same file to os.SameFile).
func verified(s session.Store) bool {
	v, ok := s.(interface{ Verify(context.Context) error })
	if !ok {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return v.Verify(ctx) == nil
}

func closeStore(s session.Store) {
	if c, ok := s.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}
