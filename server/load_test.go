//go:build unix

package server_test

import (
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
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/session/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// Load test knobs: the CI run is short; the README numbers come from
//
//	TOOLWALL_LOAD_DECISIONS=200000 TOOLWALL_LOAD_SECONDS=20 go test -run TestLoad -v ./server
//
// with $TOOLWALL_TEST_POSTGRES set for the PostgreSQL run.
const (
	envLoadDecisions = "TOOLWALL_LOAD_DECISIONS" // most decisions per run (default 3000)
	envLoadSeconds   = "TOOLWALL_LOAD_SECONDS"   // most seconds per run (default 3)
	envLoadWorkers   = "TOOLWALL_LOAD_WORKERS"   // concurrent clients (default 4 × GOMAXPROCS)
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
	p50, p99                    time.Duration
	// cpu is the CPU time this process (load generator and server
	// together; not a database server) spent during the run.
	cpu time.Duration
}

// String reports the run. The CPU time per decision bounds what the
// machine could do with its cores to itself (2 cores: 2 s of CPU per
// second), whatever else ran beside the test.
func (r loadResult) String() string {
	per := r.cpu / time.Duration(max(r.decisions, 1))
	return fmt.Sprintf("%d decisions (%d requests) in %v: %.0f decisions/s, p50 %v, p99 %v, %d errors; CPU %v per decision (client and server), at most %.0f decisions/s on %d idle cores",
		r.decisions, r.requests, r.elapsed.Round(time.Millisecond), float64(r.decisions)/r.elapsed.Seconds(), r.p50, r.p99, r.errors,
		per.Round(time.Microsecond), float64(runtime.NumCPU())*float64(time.Second)/float64(max(per, 1)), runtime.NumCPU())
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
type iteration func(ctx context.Context, c *client.Client, worker, i int, lat *[]time.Duration) (decisions, others int, err error)

// load runs workers against url until max decisions or the time bound,
// whichever comes first, and stops by itself.
func load(t *testing.T, url string, it iteration) loadResult {
	t.Helper()
	max := envInt(envLoadDecisions, 3000)
	bound := time.Duration(envInt(envLoadSeconds, 3)) * time.Second
	workers := envInt(envLoadWorkers, 4*runtime.GOMAXPROCS(0))
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	c := client.New(url, client.Options{Token: tokA, HTTPClient: &http.Client{Transport: tr, Timeout: 10 * time.Second}})
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
	began, cpu0 := time.Now(), cpuTime()
	for w := range workers {
		wg.Go(func() {
			var lat []time.Duration
			for i := 0; ctx.Err() == nil && decisions.Load() < int64(max); i++ {
				d, o, err := it(ctx, c, w, i, &lat)
				if ctx.Err() != nil {
					break // the time bound cut the last request short
				}
				decisions.Add(int64(d))
				requests.Add(int64(d + o))
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

// singleCall decides calls without a session: the in-memory path, where
// no decision touches a store.
func singleCall(commands []string, want []string) iteration {
	inputs := make([]json.RawMessage, len(commands))
	for i, c := range commands {
		inputs[i], _ = json.Marshal(map[string]string{"command": c})
	}
	return func(ctx context.Context, c *client.Client, _, i int, lat *[]time.Duration) (int, int, error) {
		k := i % len(inputs)
		d, err := timed(lat, func() (api.Decision, error) {
			return c.Decide(ctx, api.Call{Tool: "Bash", Input: inputs[k], Cwd: "/w", Home: "/home/u"})
		})
		if err == nil && d.Action.String() != want[k] {
			err = fmt.Errorf("%q: %s, want %s", commands[k], d.Action, want[k])
		}
		return 1, 0, err
	}
}

// chains makes every decision read and write session memory: each worker
// downloads a script in its own session (decide, stage), reports it ran
// (record, commit), then tries to run it (decide, history → deny
// chain.download-execute, note the refusal).
func chains(prefix string) iteration {
	yes := true
	return func(ctx context.Context, c *client.Client, w, i int, lat *[]time.Duration) (int, int, error) {
		sess := fmt.Sprintf("%s-%d-%d", prefix, w, i/50) // a fresh session every 50 rounds keeps histories short
		file := fmt.Sprintf("/w/x%d.sh", i)
		dl := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"curl -o ` + file + ` https://example.com/x.sh"}`),
			Session: sess, CallID: "dl" + strconv.Itoa(i), Cwd: "/w", Home: "/home/u"}
		d, err := timed(lat, func() (api.Decision, error) { return c.Decide(ctx, dl) })
		if err != nil {
			return 1, 0, err
		}
		if d.Action.Stops() {
			return 1, 0, fmt.Errorf("download stopped: %s %v", d.Action, d.Rules)
		}
		if _, err := timed(lat, func() (struct{}, error) {
			return struct{}{}, c.Record(ctx, api.Record{Call: dl, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}})
		}); err != nil {
			return 1, 1, err
		}
		run := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"bash ` + file + `"}`), Session: sess, CallID: "run" + strconv.Itoa(i), Cwd: "/w", Home: "/home/u"}
		d, err = timed(lat, func() (api.Decision, error) { return c.Decide(ctx, run) })
		if err == nil && !slices.Contains(d.Rules, "chain.download-execute") {
			err = fmt.Errorf("run after download: %s %v", d.Action, d.Rules)
		}
		return 2, 1, err
	}
}

// TestLoad runs the server under load on loopback, bounded in count and
// time, and reports decisions per second and latency; it fails on any
// error, never on speed (targets: ≥ 50,000 decisions/s single-call in
// memory, ≥ 5,000/s with PostgreSQL-backed chains, on 2 cores).
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	commands := []string{"git status", "ls -la src", "go test ./... 2>&1 | tail -20", "rm -rf ~", "git reset --hard", "cat README.md"}
	want := []string{"allow", "allow", "allow", "deny", "ask", "allow"}
	t.Run("memory/single-call", func(t *testing.T) {
		srv := start(t, server.Options{})
		r := load(t, srv.url, singleCall(commands, want))
		t.Logf("memory, single-call: %v", r)
	})
	t.Run("memory/chains", func(t *testing.T) {
		srv := start(t, server.Options{})
		r := load(t, srv.url, chains("m"))
		t.Logf("memory, chains: %v", r)
	})
	t.Run("sqlite/chains", func(t *testing.T) {
		st, err := session.Open(filepath.Join(t.TempDir(), "state.db"), session.Options{Calls: 100})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		srv := start(t, server.Options{Store: st})
		r := load(t, srv.url, chains("s"))
		t.Logf("SQLite, chains: %v", r)
	})
	t.Run("postgres/chains", func(t *testing.T) {
		dsn := postgrestest.DSN(t)
		st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: postgrestest.Schema(t, dsn), Session: session.Options{Calls: 100}})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		srv := start(t, server.Options{Store: st})
		r := load(t, srv.url, chains("p"))
		t.Logf("PostgreSQL, chains: %v", r)
	})
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
