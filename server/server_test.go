package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
	"github.com/toolwall/toolwall/session"
)

const tokA, tokB = "tok-a", "tok-b"

// running is a server serving on a loopback port.
type running struct {
	*server.Server
	url  string
	stop func() error // graceful shutdown; returns Serve's error
}

// start serves opts on 127.0.0.1 until the test ends. Unless the test
// sets them, the server has the tokens tok-a and tok-b, an in-memory
// store and a policy file of its own (defaults).
func start(t *testing.T, opts server.Options) *running {
	t.Helper()
	if opts.Tokens == nil {
		opts.Tokens = []string{tokA, tokB}
	}
	if opts.Store == nil {
		st := session.NewMemory(session.Options{Calls: 100})
		t.Cleanup(func() { st.Close() })
		opts.Store = st
	}
	if opts.ConfigPath == "" {
		opts.ConfigPath = writeConfig(t, "")
	}
	s, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	var once sync.Once
	var serveErr error
	stop := func() error {
		once.Do(func() {
			cancel()
			serveErr = <-errc
			s.Close()
		})
		return serveErr
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &running{Server: s, url: "http://" + ln.Addr().String(), stop: stop}
}

// writeConfig writes a policy file and returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// requestCase is one line of testdata/requests.jsonl.
type requestCase struct {
	Name        string          `json:"name"`
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	Token       string          `json:"token"`
	ContentType string          `json:"content_type"`
	Body        json.RawMessage `json:"body"`
	Raw         *string         `json:"raw"`
	Status      int             `json:"status"`
	Action      string          `json:"action"`
	Rule        string          `json:"rule"`
	Error       string          `json:"error"`
	// Actions are the actions of a batch's decisions, in order.
	Actions []string `json:"actions"`
	// Timings says whether each decision must carry its timings (with
	// a "read" stage) or none; unset: not checked.
	Timings *bool `json:"timings"`
}

// readCases reads a JSON-lines case file.
func readCases(t testing.TB, name string) []requestCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []requestCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c requestCase
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v in %s", name, err, sc.Text())
		}
		out = append(out, c)
	}
	return out
}

// body is the request body of c.
func (c requestCase) body() []byte {
	if c.Raw != nil {
		return []byte(*c.Raw)
	}
	return bytes.ReplaceAll(c.Body, []byte("SESSION201"), bytes.Repeat([]byte("s"), server.MaxSessionLen+1))
}

// send sends c to the server at url and returns the status and body.
func send(t *testing.T, url string, c requestCase) (int, []byte) {
	t.Helper()
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	var rd io.Reader
	if method == http.MethodPost {
		rd = bytes.NewReader(c.body())
	}
	req, err := http.NewRequest(method, url+c.Path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		ct := c.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	switch c.Token {
	case "":
		req.Header.Set("Authorization", "Bearer "+tokA)
	case "wrong":
		req.Header.Set("Authorization", "Bearer tok-c")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, data
}

// TestRequests sends the requests of testdata/requests.jsonl to a real
// server on loopback: decisions, malformed bodies, authentication,
// methods and paths.
func TestRequests(t *testing.T) {
	srv := start(t, server.Options{})
	for _, c := range readCases(t, "requests.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			code, data := send(t, srv.url, c)
			if code != c.Status {
				t.Fatalf("status %d, want %d: %s", code, c.Status, data)
			}
			if c.Error != "" {
				var e api.Error
				if err := json.Unmarshal(data, &e); err != nil || e.Error.Code != c.Error || e.Error.Message == "" || e.Schema != api.Schema {
					t.Errorf("error body %s (%v), want code %q", data, err, c.Error)
				}
			}
			if c.Action != "" {
				var d api.Decision
				if err := json.Unmarshal(data, &d); err != nil {
					t.Fatal(err)
				}
				if d.Action.String() != c.Action || len(d.DecisionID) != 32 || d.Schema != api.Schema {
					t.Errorf("decision %s, want action %s", data, c.Action)
				}
				if c.Rule != "" && !slices.Contains(d.Rules, c.Rule) {
					t.Errorf("rules %v, want %s", d.Rules, c.Rule)
				}
				if (d.Action.String() == "allow") != (d.Message == "") {
					t.Errorf("message %q for %s", d.Message, d.Action)
				}
				checkTimings(t, c, d)
			}
			if c.Actions != nil {
				var ds api.Decisions
				if err := json.Unmarshal(data, &ds); err != nil || ds.Schema != api.Schema {
					t.Fatalf("batch answer %s: %v", data, err)
				}
				var got []string
				ids := map[string]bool{}
				for _, d := range ds.Decisions {
					checkTimings(t, c, d)
					got = append(got, d.Action.String())
					ids[d.DecisionID] = len(d.DecisionID) == 32
				}
				if !slices.Equal(got, c.Actions) || len(ids) != len(got) || slices.Contains(slices.Collect(maps.Values(ids)), false) {
					t.Errorf("batch decisions %s, want actions %v, each with its own decision id", data, c.Actions)
				}
			}
		})
	}
}

// checkTimings holds d's timings to what c says.
func checkTimings(t *testing.T, c requestCase, d api.Decision) {
	t.Helper()
	if c.Timings == nil {
		return
	}
	read := slices.ContainsFunc(d.Timings, func(x toolwall.Timing) bool { return x.Stage == "read" })
	if *c.Timings != read || !*c.Timings && len(d.Timings) > 0 {
		t.Errorf("timings %v, want them: %v", d.Timings, *c.Timings)
	}
}

// TestOversized: a body over the limit is refused with 413, and the
// server goes on serving.
func TestOversized(t *testing.T) {
	srv := start(t, server.Options{MaxBody: 1 << 10})
	big := requestCase{Path: api.PathDecide, Body: json.RawMessage(`{"tool":"Write","input":{"file_path":"/w/a","content":"` + strings.Repeat("x", 2<<10) + `"}}`)}
	if code, data := send(t, srv.url, big); code != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), "too_large") {
		t.Errorf("oversized body: %d %s", code, data)
	}
	small := requestCase{Path: api.PathDecide, Body: json.RawMessage(`{"tool":"Bash","input":{"command":"ls"}}`)}
	if code, data := send(t, srv.url, small); code != http.StatusOK {
		t.Errorf("after an oversized body: %d %s", code, data)
	}
	// A body declared too large is refused at once, before it is sent.
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", api.PathDecide, tokA, 1<<20)
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body declared at 1 MiB: %v %v, want 413 before it is sent", resp, err)
	}
}

// TestChainsPerTenant: a download recorded under one token arms the
// chain rule for that token's session, and not for the same session id
// under another token.
func TestChainsPerTenant(t *testing.T) {
	srv := start(t, server.Options{})
	ctx := context.Background()
	a := client.New(srv.url, client.Options{Token: tokA})
	b := client.New(srv.url, client.Options{Token: tokB})
	download := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"curl -o /w/x.sh https://example.com/x.sh"}`), Session: "s1", CallID: "t1", Cwd: "/w", Home: "/home/u"}
	d, err := a.Decide(ctx, download)
	if err != nil || d.Action.Stops() {
		t.Fatalf("download: %+v %v", d, err)
	}
	yes := true
	if err := a.Record(ctx, api.Record{Call: download, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &yes}}); err != nil {
		t.Fatal(err)
	}
	run := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"bash /w/x.sh"}`), Session: "s1", CallID: "t2", Cwd: "/w", Home: "/home/u"}
	if d, err := b.Decide(ctx, run); err != nil || slices.Contains(d.Rules, "chain.download-execute") {
		t.Errorf("another token's session was armed: %+v %v", d, err)
	}
	d, err = a.Decide(ctx, run)
	if err != nil || d.Action.String() != "deny" || !slices.Contains(d.Rules, "chain.download-execute") {
		t.Errorf("run after download: %+v %v", d, err)
	}
}

// TestTurn: turns count per tenant and session.
func TestTurn(t *testing.T) {
	srv := start(t, server.Options{})
	ctx := context.Background()
	a := client.New(srv.url, client.Options{Token: tokA})
	b := client.New(srv.url, client.Options{Token: tokB})
	for want := 1; want <= 2; want++ {
		if n, err := a.Turn(ctx, "s"); n != want || err != nil {
			t.Errorf("Turn = %d, %v; want %d", n, err, want)
		}
	}
	if n, err := b.Turn(ctx, "s"); n != 1 || err != nil {
		t.Errorf("other tenant's Turn = %d, %v; want 1", n, err)
	}
}

// sink is an audit.Sink that keeps records in memory; with panics set its
// Record panics.
type sink struct {
	mu       sync.Mutex
	records  []audit.Record
	outcomes map[string]audit.Outcome
	panics   bool
	// hold, when set, makes Record wait for it to close, then fail as a
	// store does when its context is done.
	hold chan struct{}
}

func (s *sink) Record(ctx context.Context, r audit.Record) error {
	if s.panics {
		panic("audit sink exploded")
	}
	if s.hold != nil {
		<-s.hold
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records = append(s.records, r)
	return nil
}

func (s *sink) Outcome(_ context.Context, id string, o audit.Outcome) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outcomes == nil {
		s.outcomes = map[string]audit.Outcome{}
	}
	s.outcomes[id] = o
	return nil
}

// TestAudit: one record per decision under the decision id, and the
// outcome attached to it.
func TestAudit(t *testing.T) {
	au := &sink{}
	srv := start(t, server.Options{Audit: au})
	ctx := context.Background()
	c := client.New(srv.url, client.Options{Token: tokA})
	call := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf ~"}`), Session: "s", Caller: "sub", Home: "/home/u"}
	d, err := c.Decide(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	code := 1
	no := false
	if err := c.Record(ctx, api.Record{Call: call, DecisionID: d.DecisionID, Outcome: &api.Outcome{Success: &no, ExitCode: &code, DurationMS: 12}}); err != nil {
		t.Fatal(err)
	}
	au.mu.Lock()
	defer au.mu.Unlock()
	if len(au.records) != 1 {
		t.Fatalf("%d audit records, want 1", len(au.records))
	}
	r := au.records[0]
	if r.ID != d.DecisionID || r.Driver != "server" || r.Tool != "Bash" || r.Caller != "sub" || r.Verdict.Action.String() != "deny" ||
		!strings.HasSuffix(r.Session, "/s") || r.Session == "s" || r.At.IsZero() || r.Elapsed <= 0 {
		t.Errorf("audit record %+v", r)
	}
	if o, ok := au.outcomes[d.DecisionID]; !ok || o.Success || o.ExitCode == nil || *o.ExitCode != 1 || o.Duration != 12*time.Millisecond {
		t.Errorf("outcome %+v %v", o, ok)
	}
}

// TestAuditClientGone: a decision whose client hangs up before the
// audit write is still audited (a reviewer saw hundreds of "audit record
// not written … context canceled" at the end of a load run).
func TestAuditClientGone(t *testing.T) {
	au := &sink{hold: make(chan struct{})}
	srv := start(t, server.Options{Audit: au})
	ctx, cancel := context.WithCancel(context.Background())
	c := client.New(srv.url, client.Options{Token: tokA})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Decide(ctx, api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)})
	}()
	time.Sleep(100 * time.Millisecond) // the decision is made; its audit write waits
	cancel()
	<-done
	time.Sleep(100 * time.Millisecond) // the server sees the connection close
	close(au.hold)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		au.mu.Lock()
		n := len(au.records)
		au.mu.Unlock()
		if n == 1 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the decision of a client that hung up was not audited")
}

// TestPanicDenies: a panic while serving a decision answers that request
// with a deny and the server goes on.
func TestPanicDenies(t *testing.T) {
	au := &sink{panics: true}
	srv := start(t, server.Options{Audit: au})
	code, data := send(t, srv.url, requestCase{Path: api.PathDecide, Body: json.RawMessage(`{"tool":"Bash","input":{"command":"ls"}}`)})
	var d api.Decision
	if err := json.Unmarshal(data, &d); code != 200 || err != nil || d.Action.String() != "deny" || !slices.Contains(d.Rules, "gate.internal-error") {
		t.Errorf("panicking request: %d %s", code, data)
	}
	au.panics = false
	if code, _ := send(t, srv.url, requestCase{Path: api.PathDecide, Body: json.RawMessage(`{"tool":"Bash","input":{"command":"ls"}}`)}); code != 200 {
		t.Errorf("after a panic: %d", code)
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, "toolwall_panics_total 1") {
		t.Errorf("panic not counted:\n%s", grep(m, "panics"))
	}
}

// slowStore delays History and fails writes on demand.
type slowStore struct {
	session.Store
	delay time.Duration
	fail  bool
	// entered, when set, is closed by the first History: a request is
	// being decided.
	entered chan struct{}
	once    sync.Once
}

func (s *slowStore) History(ctx context.Context, id string, w session.Window) ([]session.Record, error) {
	if s.entered != nil {
		s.once.Do(func() { close(s.entered) })
	}
	time.Sleep(s.delay) // ignores ctx on purpose: a store that hangs
	return s.Store.History(ctx, id, w)
}

func (s *slowStore) Append(ctx context.Context, id string, r session.Record) error {
	if s.fail {
		return errors.New("disk on fire")
	}
	return s.Store.Append(ctx, id, r)
}

// download is a call with risk tags, so the gate reads session history.
var download = json.RawMessage(`{"tool":"Bash","input":{"command":"curl -o /w/x.sh https://example.com/x"},"session":"s","cwd":"/w"}`)

// TestTimeout: a decision that takes longer than the limit is a deny.
func TestTimeout(t *testing.T) {
	st := &slowStore{Store: session.NewMemory(session.Options{}), delay: 500 * time.Millisecond}
	srv := start(t, server.Options{Store: st, Timeout: 50 * time.Millisecond})
	began := time.Now()
	code, data := send(t, srv.url, requestCase{Path: api.PathDecide, Body: download})
	var d api.Decision
	if err := json.Unmarshal(data, &d); code != 200 || err != nil || !slices.Contains(d.Rules, "gate.timeout") || d.Action.String() != "deny" {
		t.Errorf("slow decision: %d %s", code, data)
	}
	if el := time.Since(began); el > 400*time.Millisecond {
		t.Errorf("the answer took %v, past the 50 ms limit", el)
	}
}

// TestBatchTimeout: in a batch past the limit, the calls decided before
// it keep their verdicts; only the rest are denied gate.timeout.
func TestBatchTimeout(t *testing.T) {
	st := &slowStore{Store: session.NewMemory(session.Options{}), delay: 500 * time.Millisecond}
	srv := start(t, server.Options{Store: st, Timeout: 100 * time.Millisecond})
	body := json.RawMessage(`{"calls":[` +
		`{"tool":"Bash","input":{"command":"git status"},"session":"s","cwd":"/w"},` +
		`{"tool":"Bash","input":{"command":"pwd"},"session":"s","cwd":"/w"},` +
		`{"tool":"Bash","input":{"command":"curl -o /w/x.sh https://example.com/x"},"session":"s","cwd":"/w"},` +
		`{"tool":"Bash","input":{"command":"git reset --hard"},"session":"s","cwd":"/w"}]}`)
	code, data := send(t, srv.url, requestCase{Path: api.PathDecideBatch, Body: body})
	var ds api.Decisions
	if err := json.Unmarshal(data, &ds); code != 200 || err != nil || len(ds.Decisions) != 4 {
		t.Fatalf("batch: %d %s", code, data)
	}
	var got []string
	for _, d := range ds.Decisions {
		got = append(got, d.Action.String()+" "+strings.Join(d.Rules, ","))
	}
	want := []string{"allow ", "allow ", "deny gate.timeout", "deny gate.timeout"}
	if !slices.Equal(got, want) {
		t.Errorf("batch past the limit: %q, want %q", got, want)
	}
	// Each overrun starts a replacement worker; the overrunning one leaves
	// when its job ends, so the workers do not pile up.
	time.Sleep(600 * time.Millisecond)
	before := runtime.NumGoroutine()
	for range 20 {
		send(t, srv.url, requestCase{Path: api.PathDecide, Body: download})
	}
	time.Sleep(800 * time.Millisecond) // every slow history read has ended
	if after := runtime.NumGoroutine(); after > before+8 {
		t.Errorf("%d goroutines after 20 overruns, %d before: the replaced workers stayed", after, before)
	}
}

// TestRecordStoreFailure: when the store fails to record, /v1/record
// answers 503 so the client retries, and the failure is counted.
func TestRecordStoreFailure(t *testing.T) {
	st := &slowStore{Store: session.NewMemory(session.Options{}), fail: true}
	srv := start(t, server.Options{Store: st})
	body := json.RawMessage(`{"tool":"Bash","input":{"command":"curl -o /w/x.sh https://example.com/x"},"session":"s","cwd":"/w","outcome":{"success":true}}`)
	if code, data := send(t, srv.url, requestCase{Path: api.PathRecord, Body: body}); code != http.StatusServiceUnavailable {
		t.Errorf("record on a failing store: %d %s", code, data)
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, `toolwall_store_errors_total{op="append"} 1`) {
		t.Errorf("store error not counted:\n%s", grep(m, "store_errors"))
	}
}

// TestGracefulShutdown: a request in flight when shutdown starts is
// answered; readiness turns 503 while it drains.
func TestGracefulShutdown(t *testing.T) {
	st := &slowStore{Store: session.NewMemory(session.Options{}), delay: 400 * time.Millisecond, entered: make(chan struct{})}
	srv := start(t, server.Options{Store: st})
	done := make(chan int, 1)
	go func() {
		// Not send: its t.Fatal would leave the test waiting on done.
		req, _ := http.NewRequest(http.MethodPost, srv.url+api.PathDecide, bytes.NewReader(download))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokA)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("in-flight request: %v", err)
			done <- -1
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	select {
	case <-st.entered: // the request is in flight
	case <-time.After(30 * time.Second):
		t.Fatal("the request never reached the engine")
	}
	if err := srv.stop(); err != nil {
		t.Errorf("Serve after shutdown: %v", err)
	}
	if code := <-done; code != 200 {
		t.Errorf("in-flight request: %d, want 200", code)
	}
	if _, err := http.Get(srv.url + api.PathHealth); err == nil {
		t.Error("the server still accepts connections after shutdown")
	}
}

// metricsText fetches /metrics.
func metricsText(t *testing.T, url string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+api.PathMetrics, nil)
	req.Header.Set("Authorization", "Bearer "+tokA)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// grep returns the lines of text containing s.
func grep(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestMetrics: decisions are counted by action and rule, with latency.
func TestMetrics(t *testing.T) {
	srv := start(t, server.Options{})
	c := client.New(srv.url, client.Options{Token: tokA})
	for _, cmd := range []string{"ls", "rm -rf ~", "ls -l"} {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		if _, err := c.Decide(context.Background(), api.Call{Tool: "Bash", Input: in, Home: "/home/u"}); err != nil {
			t.Fatal(err)
		}
	}
	m := metricsText(t, srv.url)
	for _, want := range []string{
		`toolwall_decisions_total{action="allow"} 2`,
		`toolwall_decisions_total{action="deny"} 1`,
		`toolwall_decision_rules_total{action="deny",rule="rm.dangerous-target"} 1`,
		`toolwall_decision_duration_seconds_count 3`,
		`toolwall_http_requests_total{code="200",endpoint="decide"} 3`,
		`toolwall_store_errors_total{op="append"} 0`,
		`toolwall_store_errors_total{op="history"} 0`,
		`toolwall_policy_reloads_total{result="error"} 0`,
		`toolwall_policy_loaded_timestamp_seconds`,
		`go_goroutines`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestNoTokenLoopbackHost: a server without tokens answers only requests
// addressed to loopback, so a web page that rebinds its name to
// 127.0.0.1 cannot use it; and it takes JSON bodies only, so a page's
// form post is refused too.
func TestNoTokenLoopbackHost(t *testing.T) {
	srv := start(t, server.Options{Tokens: []string{}})
	body := `{"tool":"Bash","input":{"command":"ls"}}`
	for _, c := range []struct {
		host, ctype string
		want        int
	}{
		{"", "application/json", 200},
		{"localhost:8765", "application/json", 200},
		{"[::1]:8765", "application/json", 200},
		{"attacker.example:8765", "application/json", 403},
		{"", "text/plain", 415},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.url+api.PathDecide, strings.NewReader(body))
		if c.host != "" {
			req.Host = c.host
		}
		req.Header.Set("Content-Type", c.ctype)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Host %q, %s: %d, want %d", c.host, c.ctype, resp.StatusCode, c.want)
		}
	}
}

// TestClientTimings: the Go client asks for timings only when its
// options say so, on one call and on a batch.
func TestClientTimings(t *testing.T) {
	srv := start(t, server.Options{})
	ctx := context.Background()
	call := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git status"}`), Cwd: "/w"}
	for _, want := range []bool{false, true} {
		c := client.New(srv.url, client.Options{Token: tokA, Timings: want})
		d, err := c.Decide(ctx, call)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := c.DecideBatch(ctx, []api.Call{call, call})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range append(ds, d) {
			if (len(d.Timings) > 0) != want {
				t.Errorf("Options.Timings %v: decision timings %v", want, d.Timings)
			}
		}
	}
}

// TestJudgedElsewhere: the server decides on calls that run on the
// agents' machines, so it asks nothing of its own files. A recursive
// delete of a project subtree that git here could restore (this
// package's testdata, tracked and clean in a clone) is still held for a
// human: the agent's copy may hold work that this one does not.
func TestJudgedElsewhere(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	srv := start(t, server.Options{})
	c := client.New(srv.url, client.Options{Token: tokA})
	in, _ := json.Marshal(map[string]string{"command": "rm -rf testdata"})
	d, err := c.Decide(context.Background(), api.Call{Tool: "Bash", Input: in, Cwd: dir, Project: dir, Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Action.String() != "ask" || !slices.Contains(d.Rules, "rm.project-subtree") {
		t.Errorf("rm -rf testdata in %s: %s %v, want ask rm.project-subtree", dir, d.Action, d.Rules)
	}
	// A project file at the call's project path on this machine is not
	// the agent's: neither a broken one nor a FIFO is read.
	for _, kind := range []string{"broken", "fifo"} {
		proj := t.TempDir()
		file := filepath.Join(proj, ".toolwall.toml")
		if kind == "broken" {
			err = os.WriteFile(file, []byte("[thresholds\n"), 0o600)
		} else {
			err = syscall.Mkfifo(file, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
		ls, _ := json.Marshal(map[string]string{"command": "ls"})
		d, err = c.Decide(context.Background(), api.Call{Tool: "Bash", Input: ls, Cwd: proj, Project: proj, Home: "/home/u"})
		if err != nil || d.Action.String() != "allow" {
			t.Errorf("ls in a project whose file here is %s: %s %v (%v), want allow", kind, d.Action, d.Rules, err)
		}
	}
}

// downStore is a session store whose database cannot be reached.
type downStore struct{ session.Store }

func (downStore) Turn(context.Context, string) (int, error) {
	return 0, errors.New("failed to connect to user=toolwall database=fleet host=/run/secret-socket")
}

// TestReady: /readyz answers 200 with a working store, and 503 without
// naming the store's error (it needs no token) when the store is down.
func TestReady(t *testing.T) {
	for _, c := range []struct {
		store session.Store
		code  int
	}{
		{session.NewMemory(session.Options{}), http.StatusOK},
		{downStore{session.NewMemory(session.Options{})}, http.StatusServiceUnavailable},
	} {
		srv := start(t, server.Options{Store: c.store})
		code, data := send(t, srv.url, requestCase{Method: http.MethodGet, Path: api.PathReady, Token: "none"})
		if code != c.code || strings.Contains(string(data), "fleet") || strings.Contains(string(data), "secret-socket") {
			t.Errorf("/readyz with %T: %d %s", c.store, code, data)
		}
	}
}
