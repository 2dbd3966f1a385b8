//go:build unix

package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	auditpg "github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/audit/sqlitestore"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// Load test knobs: the CI run is short; the numbers of docs/measurements.md come from
//
//	TOOLWALL_LOAD_DECISIONS=400000 TOOLWALL_LOAD_SECONDS=10 go test -run TestLoad -v ./server
//
// with $TOOLWALL_TEST_POSTGRES set for the PostgreSQL runs. The runs use
// the garbage collector's target toolwall serve sets (server.GCPercent)
// unless $GOGC is set.
const (
	envLoadDecisions = "TOOLWALL_LOAD_DECISIONS" // most decisions per run (default 3000)
	envLoadSeconds   = "TOOLWALL_LOAD_SECONDS"   // most seconds per run (default 2)
	envLoadWorkers   = "TOOLWALL_LOAD_WORKERS"   // concurrent clients (default 4 × GOMAXPROCS)
	envLoadBatch     = "TOOLWALL_LOAD_BATCH"     // calls per batch request (default 100)
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// loadResult is what one load run measured.
type loadResult struct {
	decisions, requests, errors int
	elapsed                     time.Duration
	// p50 and p99 are request latencies (a batch request is one).
	p50, p99 time.Duration
	// cpu is the CPU time this process (load generator and server
	// together; not a database server) spent during the run.
	cpu time.Duration
}

// String reports the run. The CPU time per decision bounds what the
// machine could do with its cores to itself (2 cores: 2 s of CPU per
// second), whatever else ran beside the test.
func (r loadResult) String() string {
	per := r.cpu / time.Duration(max(r.decisions, 1))
	return fmt.Sprintf("%d decisions (%d requests) in %v: %.0f decisions/s, request p50 %v, p99 %v, %d errors; CPU %v per decision (client and server; at most %.0f decisions/s on %d idle cores, a database server's CPU aside)",
		r.decisions, r.requests, r.elapsed.Round(time.Millisecond), float64(r.decisions)/r.elapsed.Seconds(), r.p50, r.p99, r.errors,
		per.Round(100*time.Nanosecond), float64(runtime.NumCPU())*float64(time.Second)/float64(max(per, 1)), runtime.NumCPU())
}

// cpuTime returns the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// iteration is one worker's unit of work; it returns the decisions made
// and the other requests sent, and records each request's latency.
type iteration func(ctx context.Context, c *loadClient, worker, i int, lat *[]time.Duration) (decisions, requests int, err error)

// loadClient is the load generator's client: the Go client package, and
// a lean batch request for the single-call runs.
type loadClient struct {
	*client.Client
	url string
	hc  *http.Client
}

// leanDecision is the part of a decision the single-call runs check.
type leanDecision struct {
	DecisionID string          `json:"decision_id"`
	Action     toolwall.Action `json:"action"`
	Rules      []string        `json:"rules"`
}

// leanBatch sends calls to /v1/decide/batch and reads back only each
// decision's id, action and rules. The load generator shares the
// machine's two cores with the server, and decoding whole decisions
// (findings, effects, commands) costs it about a sixth of all the CPU
// of a run; a client on its own machine pays that there.
func (c *loadClient) leanBatch(ctx context.Context, calls []api.Call) ([]leanDecision, error) {
	body, err := json.Marshal(api.Batch{Calls: calls})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+api.PathDecideBatch, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokA)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Schema    string         `json:"schema"`
		Decisions []leanDecision `json:"decisions"`
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out.Schema != api.Schema || len(out.Decisions) != len(calls) {
		return nil, fmt.Errorf("answer of schema %q with %d decisions for %d calls", out.Schema, len(out.Decisions), len(calls))
	}
	return out.Decisions, nil
}

// load runs workers against url until max decisions or the time bound,
// whichever comes first, and stops by itself.
func load(t *testing.T, url string, it iteration) loadResult {
	t.Helper()
	max := envInt(envLoadDecisions, 3000)
	bound := time.Duration(envInt(envLoadSeconds, 2)) * time.Second
	workers := envInt(envLoadWorkers, 4*runtime.GOMAXPROCS(0))
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	c := &loadClient{Client: client.New(url, client.Options{Token: tokA, HTTPClient: hc}), url: url, hc: hc}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	var (
		mu        sync.Mutex
		all       []time.Duration
		decisions atomic.Int64
		requests  atomic.Int64
		errs      atomic.Int64
		firstErr  atomic.Value
		wg        sync.WaitGroup
	)
	// The garbage collector's target as toolwall serve sets it (unless
	// $GOGC is set for the test: then that one).
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(server.GCPercent))
	}
	runtime.GC()
	began, cpu0 := time.Now(), cpuTime()
	for w := range workers {
		wg.Go(func() {
			var lat []time.Duration
			for i := 0; ctx.Err() == nil && decisions.Load() < int64(max); i++ {
				d, n, err := it(ctx, c, w, i, &lat)
				if ctx.Err() != nil {
					break // the time bound cut the last request short
				}
				decisions.Add(int64(d))
				requests.Add(int64(n))
				if err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
			mu.Lock()
			all = append(all, lat...)
			mu.Unlock()
		})
	}
	wg.Wait()
	r := loadResult{decisions: int(decisions.Load()), requests: int(requests.Load()), errors: int(errs.Load()), elapsed: time.Since(began), cpu: cpuTime() - cpu0}
	slices.Sort(all)
	if len(all) > 0 {
		r.p50, r.p99 = all[len(all)/2], all[len(all)*99/100]
	}
	if e := firstErr.Load(); e != nil {
		t.Errorf("first error: %v", e)
	}
	return r
}

// timed runs one request and records its latency.
func timed[T any](lat *[]time.Duration, f func() (T, error)) (T, error) {
	start := time.Now()
	v, err := f()
	*lat = append(*lat, time.Since(start))
	return v, err
}

// workload is the commands of the single-call runs, with the verdict the
// engine reaches on each when called directly: the server must answer
// the same.
type workload struct {
	inputs []json.RawMessage
	want   []string // action and rules, as verdictOf writes them
	source string
}

// verdictOf is what a load run compares: the action and the rule ids.
func verdictOf(v toolwall.Verdict) string {
	return v.Action.String() + " " + strings.Join(v.Rules(), ",")
}

// loadCommands reads the commands of the single-call runs: the nl2bash
// corpus (benign/nl2bash.jsonl of the public corpora, under
// $TOOLWALL_CORPORA or the shared folder beside the clone; 12,607 commands people wrote, credited in the
// corpus's README) when present, else the everyday ones (see
// everydayCommands); and judges each with an engine of the server's
// default policy. It reads at most limit commands (a run of limit
// decisions needs no more).
func loadCommands(t *testing.T, limit int) workload {
	t.Helper()
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpora")
	}
	source := filepath.Join(dir, "benign", "nl2bash.jsonl")
	f, err := os.Open(source)
	if err != nil {
		return everydayCommands(t)
	}
	defer f.Close()
	var cmds []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(cmds) < limit {
		var rec struct {
			Cmd string `json:"cmd"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		cmds = append(cmds, rec.Cmd)
	}
	return judged(source, cmds)
}

// everydayCommands is the workload of testdata/load-commands.txt: 60
// commands of everyday coding work (git, go, npm, ls, grep, …), each
// decided afresh when the verdict cache is off.
func everydayCommands(t *testing.T) workload {
	t.Helper()
	source := filepath.Join("testdata", "load-commands.txt")
	b, err := os.ReadFile(source)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			cmds = append(cmds, l)
		}
	}
	return judged(source, cmds)
}

// judged is the workload of cmds, each with the verdict an engine of the
// server's default policy reaches on it.
func judged(source string, cmds []string) workload {
	w := workload{source: source}
	eng := engine.New(engine.Options{})
	defer eng.Close()
	for _, c := range cmds {
		in, _ := json.Marshal(map[string]string{"command": c})
		w.inputs = append(w.inputs, in)
		w.want = append(w.want, verdictOf(eng.Evaluate(context.Background(), toolwall.Call{Tool: "Bash", Input: in, Cwd: "/w", Home: "/home/u"})))
	}
	return w
}

// singleCall decides calls without a session, one per request: the
// in-memory path, where no decision touches a store. Worker w starts at
// its own place in the workload and walks through it.
func singleCall(wl workload) iteration {
	return func(ctx context.Context, c *loadClient, w, i int, lat *[]time.Duration) (int, int, error) {
		k := (w*7919 + i) % len(wl.inputs)
		d, err := timed(lat, func() (api.Decision, error) {
			return c.Decide(ctx, api.Call{Tool: "Bash", Input: wl.inputs[k], Cwd: "/w", Home: "/home/u"})
		})
		if err == nil && verdictOf(d.Verdict) != wl.want[k] {
			err = fmt.Errorf("%s: %s, want %s", wl.inputs[k], verdictOf(d.Verdict), wl.want[k])
		}
		return 1, 1, err
	}
}

// batched decides the same calls in batches of n per request, reading
// back only what it checks (leanBatch).
func batched(wl workload, n int) iteration {
	return func(ctx context.Context, c *loadClient, w, i int, lat *[]time.Duration) (int, int, error) {
		first := (w*7919 + i*n) % len(wl.inputs)
		calls := make([]api.Call, n)
		for j := range calls {
			calls[j] = api.Call{Tool: "Bash", Input: wl.inputs[(first+j)%len(wl.inputs)], Cwd: "/w", Home: "/home/u"}
		}
		ds, err := timed(lat, func() ([]leanDecision, error) { return c.leanBatch(ctx, calls) })
		if err != nil {
			return n, 1, err
		}
		seen := map[string]bool{}
		for j, d := range ds {
			k := (first + j) % len(wl.inputs)
			if got := d.Action.String() + " " + strings.Join(d.Rules, ","); got != wl.want[k] {
				return n, 1, fmt.Errorf("%s: %s, want %s", wl.inputs[k], got, wl.want[k])
			}
			if len(d.DecisionID) != 32 || seen[d.DecisionID] {
				return n, 1, fmt.Errorf("decision id %q missing or repeated in a batch", d.DecisionID)
			}
			seen[d.DecisionID] = true
		}
		return n, 1, nil
	}
}

// chainCalls are the download and the run of round i in session sess.
func chainCalls(sess string, i int) (dl, run api.Call) {
	file := fmt.Sprintf("/w/x%d.sh", i)
	dl = api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"curl -o ` + file + ` https://example.com/x.sh"}`),
		Session: sess, CallID: "dl" + strconv.Itoa(i), Cwd: "/w", Home: "/home/u"}
	run = api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"bash ` + file + `"}`), Session: sess, CallID: "run" + strconv.Itoa(i), Cwd: "/w", Home: "/home/u"}
	return dl, run
}

// chains makes every decision read and write session memory, one request
// per call: each worker downloads a script in its own session (decide,
// stage), reports it ran (record, commit), then tries to run it (decide,
// history → deny chain.download-execute, note the refusal).
func chains(prefix string) iteration {
	yes := true
	return func(ctx context.Context, c *loadClient, w, i int, lat *[]time.Duration) (int, int, error) {
		sess := fmt.Sprintf("%s-%d-%d", prefix, w, i/50) // a fresh session every 50 rounds keeps histories short
		dl, run := chainCalls(sess, i)
		d, err := timed(lat, func() (api.Decision, error) { return c.Decide(ctx, dl) })
		if err != nil {
			return 1, 1, err
		}
		if d.Action.Stops() {
			return 1, 1, fmt.Errorf("download stopped: %s %v", d.Action, d.Rules)
		}
		if _, err := timed(lat, func() (struct{}, error) {
			return struct{}{}, c.Record(ctx, api.Record{Call: dl, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
		}); err != nil {
			return 1, 2, err
		}
		d, err = timed(lat, func() (api.Decision, error) { return c.Decide(ctx, run) })
		if err == nil && !slices.Contains(d.Rules, "chain.download-execute") {
			err = fmt.Errorf("run after download: %s %v", d.Action, d.Rules)
		}
		return 2, 3, err
	}
}

// chainBatches runs the same rounds for n sessions at once, three
// requests per round: the n downloads in one batch, their n records in
// one, the n runs in one; every run must be denied by the chain rule.
func chainBatches(prefix string, n int) iteration {
	yes := true
	return func(ctx context.Context, c *loadClient, w, i int, lat *[]time.Duration) (int, int, error) {
		dls, runs, recs := make([]api.Call, n), make([]api.Call, n), make([]api.Record, n)
		for j := range n {
			sess := fmt.Sprintf("%s-%d-%d-%d", prefix, w, j, i/50)
			dls[j], runs[j] = chainCalls(sess, i)
		}
		ds, err := timed(lat, func() ([]api.Decision, error) { return c.DecideBatch(ctx, dls) })
		if err != nil {
			return n, 1, err
		}
		for j, d := range ds {
			if d.Action.Stops() {
				return n, 1, fmt.Errorf("download stopped: %s %v", d.Action, d.Rules)
			}
			recs[j] = api.Record{Call: dls[j], DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}}
		}
		if _, err := timed(lat, func() (struct{}, error) { return struct{}{}, c.RecordBatch(ctx, recs) }); err != nil {
			return n, 2, err
		}
		ds, err = timed(lat, func() ([]api.Decision, error) { return c.DecideBatch(ctx, runs) })
		if err != nil {
			return 2 * n, 3, err
		}
		for _, d := range ds {
			if !slices.Contains(d.Rules, "chain.download-execute") {
				return 2 * n, 3, fmt.Errorf("run after download: %s %v", d.Action, d.Rules)
			}
		}
		return 2 * n, 3, nil
	}
}

// cacheHits reads the server's verdict cache counters.
func cacheHits(t *testing.T, srv *running) string {
	t.Helper()
	mfs, err := srv.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() == "toolwall_decision_cache_total" {
			for _, m := range mf.GetMetric() {
				got[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
			}
		}
	}
	return fmt.Sprintf("verdict cache: %.0f hits, %.0f misses", got["hit"], got["miss"])
}

// auditErrors fails t when the server counted audit records or outcomes
// its sink did not accept (an audited run must write every record).
func auditErrors(t *testing.T, srv *running) {
	t.Helper()
	mfs, err := srv.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "toolwall_audit_errors_total" {
			if n := mf.GetMetric()[0].GetCounter().GetValue(); n > 0 {
				t.Errorf("%.0f audit records or outcomes not written", n)
			}
		}
	}
}

// TestLoad runs the server under load on loopback, bounded in count and
// time, and reports decisions per second and latency; it fails on any
// error or any verdict that differs from the engine's, never on speed
// (targets: ≥ 50,000 decisions/s single-call in memory, ≥ 5,000/s with
// PostgreSQL-backed chains, on 2 cores).
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	wl, everyday := loadCommands(t, envInt(envLoadDecisions, 3000)), everydayCommands(t)
	n := envInt(envLoadBatch, 100)
	t.Logf("single-call commands: %d from %s (everyday-*: %d from %s); batches of %d", len(wl.inputs), wl.source, len(everyday.inputs), everyday.source, n)
	for _, c := range []struct {
		name  string
		cache int
		audit string // "", "sqlite" or "postgres"
		it    iteration
	}{
		{"memory/single-call/one-per-request", 0, "", singleCall(wl)},
		{"memory/single-call/batch", 0, "", batched(wl, n)},
		{"memory/single-call/batch-no-cache", -1, "", batched(wl, n)},
		{"memory/single-call/everyday-batch-no-cache", -1, "", batched(everyday, n)},
		{"memory/single-call/batch-audited", 0, "sqlite", batched(wl, n)},
		{"memory/single-call/batch-audited-postgres", 0, "postgres", batched(wl, n)},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := server.Options{CacheSize: c.cache}
			switch c.audit {
			case "sqlite":
				// A record per decision in audit.db, written directly.
				st := sqlitestore.Open(filepath.Join(t.TempDir(), "audit.db"), sqlitestore.Options{})
				defer st.Close()
				opts.Audit = st
			case "postgres":
				// The audit log of toolwall serve --store postgres.
				dsn := postgrestest.DSN(t)
				st, err := auditpg.Open(context.Background(), dsn, auditpg.Options{Schema: postgrestest.Schema(t, dsn)})
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				opts.Audit = st
			}
			srv := start(t, opts)
			r := load(t, srv.url, c.it)
			t.Logf("%s: %v; %s", c.name, r, cacheHits(t, srv))
			auditErrors(t, srv)
		})
	}
	stores := []struct {
		name string
		open func(t *testing.T) session.Store
	}{
		{"memory", func(t *testing.T) session.Store { return session.NewMemory(session.Options{Calls: 100}) }},
		{"sqlite", func(t *testing.T) session.Store {
			st, err := session.Open(filepath.Join(t.TempDir(), "state.db"), session.Options{Calls: 100})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}},
		{"postgres", func(t *testing.T) session.Store {
			dsn := postgrestest.DSN(t)
			st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: postgrestest.Schema(t, dsn), Session: session.Options{Calls: 100}})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}},
	}
	for _, st := range stores {
		modes := []string{"chains/one-per-request", "chains/batch"}
		if st.name == "postgres" {
			modes = append(modes, "chains/batch-audited")
		}
		for _, mode := range modes {
			t.Run(st.name+"/"+mode, func(t *testing.T) {
				store := st.open(t)
				defer store.Close()
				opts := server.Options{Store: store}
				if mode == "chains/batch-audited" {
					// As toolwall serve --store postgres runs: the audit
					// log beside the sessions, on their pool.
					pg := store.(*postgres.Store)
					au, err := auditpg.New(context.Background(), pg.Pool(), auditpg.Options{Schema: pg.Schema()})
					if err != nil {
						t.Fatal(err)
					}
					defer au.Close()
					opts.Audit = au
				}
				srv := start(t, opts)
				it := chains(st.name[:1])
				if mode != "chains/one-per-request" {
					it = chainBatches(st.name[:1]+"b", n/3+1)
				}
				r := load(t, srv.url, it)
				t.Logf("%s, %s: %v", st.name, mode, r)
				auditErrors(t, srv)
			})
		}
	}
}

// BenchmarkDecide measures one decision over HTTP on loopback, requests
// in parallel (the in-memory, single-call path).
func BenchmarkDecide(b *testing.B) {
	path := filepath.Join(b.TempDir(), "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(server.Options{ConfigPath: path, Tokens: []string{tokA}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	hs := &http.Server{Handler: srv.Handler()}
	ln, err := netListen()
	if err != nil {
		b.Fatal(err)
	}
	go hs.Serve(ln)
	defer hs.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	c := client.New("http://"+ln.Addr().String(), client.Options{Token: tokA, HTTPClient: &http.Client{Transport: tr}})
	in := json.RawMessage(`{"command":"go test ./... 2>&1 | tail -20"}`)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Decide(context.Background(), api.Call{Tool: "Bash", Input: in, Cwd: "/w", Home: "/home/u"}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// netListen listens on a loopback port.
func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// BenchmarkHandler measures one decision through the server's handler
// without a network: decoding, the engine, metrics, audit and encoding.
func BenchmarkHandler(b *testing.B) {
	path := filepath.Join(b.TempDir(), "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		b.Fatal(err)
	}
	srv, err := server.New(server.Options{ConfigPath: path})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	body := []byte(`{"tool":"Bash","input":{"command":"go test ./... 2>&1 | tail -20"},"cwd":"/w","home":"/home/u"}`)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, api.PathDecide, bytes.NewReader(body))
			req.Host = "127.0.0.1:8765"
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatal(w.Code)
			}
		}
	})
}

// BenchmarkHandlerBatch measures a batch of 100 calls through the
// server's handler without a network, per decision: decoding, the
// engine (or the verdict cache, as the calls repeat), metrics, encoding.
func BenchmarkHandlerBatch(b *testing.B) {
	for _, cache := range []int{0, -1} {
		b.Run(map[int]string{0: "cache", -1: "no-cache"}[cache], func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "config.toml")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				b.Fatal(err)
			}
			srv, err := server.New(server.Options{ConfigPath: path, CacheSize: cache})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			data, err := os.ReadFile(filepath.Join("testdata", "load-commands.txt"))
			if err != nil {
				b.Fatal(err)
			}
			var batch api.Batch
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && len(batch.Calls) < 100 {
					in, _ := json.Marshal(map[string]string{"command": l})
					batch.Calls = append(batch.Calls, api.Call{Tool: "Bash", Input: in, Cwd: "/w", Home: "/home/u"})
				}
			}
			body, _ := json.Marshal(batch)
			h := srv.Handler()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				w := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, api.PathDecideBatch, bytes.NewReader(body))
				req.Host = "127.0.0.1:8765"
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatal(w.Code)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch.Calls)), "ns/decision")
		})
	}
}
