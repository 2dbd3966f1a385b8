package mcpproxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/mcpproxy"
	"github.com/toolwall/toolwall/mcpproxy/mcptest"
)

// wire is a proxy served over its line transport (as on stdio), a real
// SDK client on the same stream, and raw lines written between the
// client's messages. The client's request ids travel as probeID strings,
// so that an answer to a raw line (whatever id it carries) is told from
// an answer to the client and kept in answers instead of reaching it.
type wire struct {
	proxy   *mcpproxy.Proxy
	client  *mcp.ClientSession
	audit   *sink
	toProxy *io.PipeWriter
	mu      sync.Mutex // serialises writes to toProxy
	answers chan map[string]json.RawMessage
	served  chan error
}

const probeID = "\x00client-"

func startWire(t testing.TB) *wire {
	t.Helper()
	ctx := context.Background()
	eng := engine.New(engine.Options{Memory: engine.Volatile})
	w := &wire{audit: &sink{}, answers: make(chan map[string]json.RawMessage, 64), served: make(chan error, 1)}
	p, err := mcpproxy.New(mcpproxy.Options{Name: "test", Shield: eng, Audit: w.audit, Cwd: t.TempDir(), Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ut, st := mcp.NewInMemoryTransports()
	up, err := mcptest.NewServer("").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Connect(ctx, ut); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()   // client → proxy
	outR, outW := io.Pipe() // proxy → client
	clR, clW := io.Pipe()   // the answers the SDK client reads
	w.proxy, w.toProxy = p, inW
	sctx, cancel := context.WithCancel(ctx)
	go func() { w.served <- p.Serve(sctx, p.Lines(inR, outW)) }()
	go w.route(outR, clW)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clR, Writer: clientWriter{w}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.client = cs
	t.Cleanup(func() {
		cs.Close()
		cancel()
		inW.Close()
		p.Close()
		up.Close()
		eng.Close()
	})
	return w
}

// clientWriter sends the SDK client's messages, its request ids made
// probeID strings.
type clientWriter struct{ w *wire }

func (c clientWriter) Write(b []byte) (int, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) == nil && m["method"] != nil && m["id"] != nil {
		m["id"], _ = json.Marshal(probeID + string(m["id"]))
		nb, _ := json.Marshal(m)
		if _, err := c.w.raw(string(nb)); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return c.w.raw(strings.TrimSuffix(string(b), "\n"))
}

func (c clientWriter) Close() error { return nil }

// raw writes one line to the proxy.
func (w *wire) raw(line string) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.toProxy.Write([]byte(line + "\n"))
}

// route passes the proxy's lines to the client, answers to the client's
// requests with their ids restored, and keeps the answers to raw lines.
func (w *wire) route(r io.Reader, client *io.PipeWriter) {
	defer client.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 32<<20)
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			client.CloseWithError(err)
			return
		}
		var id string
		if m["method"] == nil && json.Unmarshal(m["id"], &id) == nil && strings.HasPrefix(id, probeID) {
			m["id"] = json.RawMessage(strings.TrimPrefix(id, probeID))
			b, _ := json.Marshal(m)
			if _, err := client.Write(append(b, '\n')); err != nil {
				return
			}
			continue
		}
		if m["method"] != nil {
			if _, err := client.Write(append(sc.Bytes(), '\n')); err != nil {
				return
			}
			continue
		}
		select {
		case w.answers <- m:
		default:
		}
	}
}

// alive checks that the proxy still answers a valid call.
func (w *wire) alive(t testing.TB, after string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := w.client.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": "echo hello"}})
	if err != nil || res.IsError || len(res.Content) == 0 || res.Content[0].(*mcp.TextContent).Text != "would run: echo hello" {
		select {
		case err := <-w.served:
			t.Fatalf("after %.200q the proxy stopped serving: %v", after, err)
		default:
		}
		t.Fatalf("after %.200q a valid call: %v %+v", after, err, res)
	}
}

// nested is a tools/call of run_command whose arguments nest n levels.
func nested(id string, n int) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"ls","x":` +
		strings.Repeat("[", n) + strings.Repeat("]", n) + `}}}`
}

type lineCase struct {
	Name string `json:"name"`
	// Line is sent as it is; Deep, when set, sends a tools/call with
	// arguments nested that deep under id 7.
	Line string `json:"line"`
	Deep int    `json:"deep"`
	// Code is the JSON-RPC error expected (0: none), Refused a refusal
	// result with IsError, None that no answer comes.
	Code    int    `json:"code"`
	Refused bool   `json:"refused"`
	ID      string `json:"id"`
	None    bool   `json:"none"`
}

// TestLines sends each line of testdata/lines.jsonl through the stdio
// transport between a real client's calls: a line that is not a JSON-RPC
// 2.0 message is answered with its error, a tools/call nested too deep
// with a refusal, and the proxy goes on answering the client.
func TestLines(t *testing.T) {
	w := startWire(t)
	w.alive(t, "the start")
	for _, c := range readJSONL[lineCase](t, "lines.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			line := c.Line
			if c.Deep > 0 {
				line = nested("7", c.Deep)
			}
			if _, err := w.raw(line); err != nil {
				t.Fatal(err)
			}
			w.alive(t, line)
			if c.None {
				select {
				case m := <-w.answers:
					t.Errorf("answered %v", m)
				default:
				}
				return
			}
			var m map[string]json.RawMessage
			select {
			case m = <-w.answers:
			case <-time.After(10 * time.Second):
				t.Fatal("no answer")
			}
			if id := cmpID(c.ID); string(m["id"]) != id {
				t.Errorf("id %s, want %s", m["id"], id)
			}
			var e struct {
				Code int `json:"code"`
			}
			_ = json.Unmarshal(m["error"], &e)
			var r struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			}
			_ = json.Unmarshal(m["result"], &r)
			switch {
			case c.Refused:
				if !r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "toolwall cannot tell") {
					t.Errorf("not refused: %s", m["result"])
				}
				found := false
				for _, r := range w.audit.all() {
					found = found || r.Tool == "mcp:test/run_command" && r.Verdict.Action.String() == "deny" && strings.Contains(r.Verdict.Reason, "levels deep")
				}
				if !found {
					t.Error("no audit record of the refusal")
				}
			case e.Code != c.Code:
				t.Errorf("error %s, want code %d", m["error"], c.Code)
			}
		})
	}
}

func cmpID(id string) string {
	if id == "" {
		return "null"
	}
	return id
}

// FuzzLines writes arbitrary lines to the proxy's stdio transport, each
// followed by a valid call from a real MCP client: the proxy must answer
// it after every line.
func FuzzLines(f *testing.F) {
	for _, c := range readJSONL[lineCase](f, "lines.jsonl") {
		if c.Deep > 0 {
			c.Line = nested("7", c.Deep)
		}
		f.Add(c.Line)
	}
	w := startWire(f)
	n := 0
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || strings.Contains(line, `\u0000client-`) || strings.Contains(line, probeID) {
			t.Skip("one line, not in the test's own ids")
		}
		n++
		if _, err := w.raw(line); err != nil {
			t.Fatal(err)
		}
		w.alive(t, line+" (line "+strconv.Itoa(n)+")")
	})
}
