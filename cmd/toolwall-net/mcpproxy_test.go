package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall/mcpproxy/mcptest"
)

// readJSONL decodes every line of testdata/name into a new T, refusing
// unknown fields.
func readJSONL[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
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

// TestUpstreamHeader: the credentials sent to an --upstream server, from
// --header, --bearer-token-file and $TOOLWALL_UPSTREAM_TOKEN
// (testdata/headers.jsonl); an error names a header, never shows a value.
func TestUpstreamHeader(t *testing.T) {
	type row struct {
		Name      string              `json:"name"`
		Headers   []string            `json:"headers"`
		TokenFile *string             `json:"token_file"`
		Env       *string             `json:"env"`
		Want      map[string][]string `json:"want"`
		Error     string              `json:"error"`
	}
	for _, c := range readJSONL[row](t, "headers.jsonl") {
		t.Run(c.Name, func(t *testing.T) {
			file := ""
			if c.TokenFile != nil {
				file = filepath.Join(t.TempDir(), "token")
				if err := os.WriteFile(file, []byte(*c.TokenFile), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if c.Env != nil {
				t.Setenv(envUpstreamToken, *c.Env)
			} else {
				t.Setenv(envUpstreamToken, "")
				os.Unsetenv(envUpstreamToken)
			}
			h, err := upstreamHeader(c.Headers, file)
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("error %v, want %q", err, c.Error)
				}
				if strings.Contains(err.Error(), "SECRET") {
					t.Errorf("the error shows a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(map[string][]string(h), c.Want) {
				t.Errorf("headers %v, want %v", h, c.Want)
			}
		})
	}
	if _, err := upstreamHeader(nil, filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing token file: %v", err)
	}
}

// TestSameOrigin: which requests carry the upstream's credentials
// (testdata/origins.jsonl).
func TestSameOrigin(t *testing.T) {
	type row struct {
		Upstream string `json:"upstream"`
		Request  string `json:"request"`
		Same     bool   `json:"same"`
	}
	for _, c := range readJSONL[row](t, "origins.jsonl") {
		a, err1 := url.Parse(c.Request)
		b, err2 := url.Parse(c.Upstream)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := sameOrigin(a, b); got != c.Same {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", c.Request, c.Upstream, got, c.Same)
		}
	}
}

// Credentials of the guarded test server.
const (
	testToken  = "tok-SECRET-7f3a9c"
	testAPIKey = "key-SECRET-51be02"
)

// guarded is a real streamable HTTP MCP server (mcptest, logging to log)
// that refuses every request without "Authorization: Bearer testToken"
// (the SDK's own bearer middleware) and "X-Api-Key: testAPIKey". refused
// counts the requests it turned away.
func guarded(t *testing.T, log string) (*httptest.Server, *int) {
	srv := mcptest.NewServer(log)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != testToken {
			return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	var mu sync.Mutex
	refused := 0
	bearer := auth.RequireBearerToken(verify, nil)(mcpHandler)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != testAPIKey || r.Header.Get("Authorization") != "Bearer "+testToken {
			mu.Lock()
			refused++
			mu.Unlock()
		}
		if r.Header.Get("X-Api-Key") != testAPIKey {
			http.Error(w, "no API key", http.StatusUnauthorized)
			return
		}
		bearer.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs, &refused
}

// proxyClient starts `toolwall-net mcp-proxy` with args and env and
// connects a real MCP client to it; the error is the connection's.
func proxyClient(t *testing.T, env []string, args ...string) (*mcp.ClientSession, *strings.Builder, error) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp-proxy"}, args...)...)
	cmd.Env = env
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, stderr, err
}

// TestProxyUpstreamCredentials: `mcp-proxy --upstream` in front of a real
// streamable HTTP MCP server that refuses requests without a bearer token
// and an API key header. Without them the proxy cannot connect; with them
// (a --header and a token from --bearer-token-file, from
// $TOOLWALL_UPSTREAM_TOKEN, or both as --header) a refused call still
// never reaches the server and an allowed one does; no value is logged.
func TestProxyUpstreamCredentials(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	hs, refused := guarded(t, log)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(testToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := "--header=X-Api-Key: " + testAPIKey
	for _, c := range []struct {
		name string
		env  []string
		args []string
		ok   bool
	}{
		{"no credentials", nil, nil, false},
		{"the API key alone", nil, []string{key}, false},
		{"a wrong token", []string{envUpstreamToken + "=tok-SECRET-wrong"}, []string{key}, false},
		{"token file", nil, []string{key, "--bearer-token-file", tokenFile}, true},
		{"token from the environment", []string{envUpstreamToken + "=" + testToken}, []string{key}, true},
		{"both as --header", nil, []string{key, "--header", "Authorization: Bearer " + testToken}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := *refused
			args := append([]string{"--upstream", hs.URL}, c.args...)
			cs, stderr, err := proxyClient(t, scratchEnv(t, c.env...), args...)
			if !c.ok {
				if err == nil {
					t.Fatal("the proxy connected without the server's credentials")
				}
				if *refused == before {
					t.Error("the server turned no request away")
				}
			} else {
				if err != nil {
					t.Fatalf("%v\n%s", err, stderr)
				}
				ctx := context.Background()
				for cmd, deny := range map[string]bool{"rm -rf ~ # " + c.name: true, "echo " + strings.ReplaceAll(c.name, " ", "-"): false} {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": cmd}})
					if err != nil {
						t.Fatalf("%s: %v\n%s", cmd, err, stderr)
					}
					if res.IsError != deny {
						t.Errorf("%s: isError %v", cmd, res.IsError)
					}
					if reached := logged(t, log, cmd); reached == deny {
						t.Errorf("%s: reached the server %v", cmd, reached)
					}
				}
				if *refused != before {
					t.Errorf("the server turned %d requests away", *refused-before)
				}
				cs.Close()
				if !strings.Contains(stderr.String(), "X-Api-Key") {
					t.Errorf("the proxy did not log the header names:\n%s", stderr)
				}
			}
			if strings.Contains(stderr.String(), "SECRET") {
				t.Errorf("the proxy logged a secret:\n%s", stderr)
			}
		})
	}
}

// logged reports whether the server logged a run_command of cmd.
func logged(t *testing.T, log, cmd string) bool {
	t.Helper()
	entries, err := mcptest.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		var a map[string]string
		if json.Unmarshal(e.Args, &a) == nil && e.Tool == "run_command" && a["command"] == cmd {
			return true
		}
	}
	return false
}

// TestProxyUpstreamRedirect: an upstream that redirects to another origin
// (a compromised or misconfigured server) does not get the credentials
// sent there: the other server, a real MCP server, sees none of them.
func TestProxyUpstreamRedirect(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	srv := mcptest.NewServer(log)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	var mu sync.Mutex
	seen, leaked := 0, []string{}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		for _, h := range []string{"Authorization", "X-Api-Key"} {
			if r.Header.Get(h) != "" {
				leaked = append(leaked, h)
			}
		}
		mu.Unlock()
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(other.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)
	cs, stderr, err := proxyClient(t, scratchEnv(t, envUpstreamToken+"="+testToken), "--upstream", redirector.URL, "--header", "X-Api-Key: "+testAPIKey)
	if err == nil {
		// The redirect is followed, without the credentials; the other
		// server asks for none, so the proxy works through it.
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": "ls"}}); err != nil {
			t.Logf("call through the redirect: %v", err)
		}
		cs.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if seen == 0 {
		t.Fatalf("the redirect was not followed (%v):\n%s", err, stderr)
	}
	if len(leaked) > 0 {
		t.Errorf("the other origin received %v", leaked)
	}
}

// TestProxyUpstreamPlainHTTP: credentials for a server that is not on
// loopback over plain http are warned about (names only), and a header
// flag without --upstream is refused.
func TestProxyUpstreamPlainHTTP(t *testing.T) {
	// 192.0.2.0/24 is TEST-NET-1 (RFC 5737): nothing answers; the warning
	// comes before the connection is tried.
	cmd := exec.Command(bin, "mcp-proxy", "--upstream", "http://192.0.2.1:9/mcp", "--header", "X-Api-Key: "+testAPIKey)
	cmd.Env = scratchEnv(t)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var all strings.Builder
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "plain http") {
				found <- all.String()
				return
			}
		}
		found <- all.String()
	}()
	select {
	case out := <-found:
		if !strings.Contains(out, "plain http") || !strings.Contains(out, "X-Api-Key") || strings.Contains(out, "SECRET") {
			t.Errorf("stderr:\n%s", out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no warning about plain http")
	}

	out, err := exec.Command(bin, "mcp-proxy", "--header", "X-Api-Key: "+testAPIKey, "--", "true").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--header and --bearer-token-file are sent to an --upstream server") || strings.Contains(string(out), "SECRET") {
		t.Errorf("--header with a server command: %v\n%s", err, out)
	}
}

// TestProxyBadLines: the mcp-proxy process answers lines that are not
// JSON-RPC 2.0 messages, and a tools/call nested thousands deep, with
// errors and a refusal, and goes on serving (the SDK's stdio transport
// alone ends the connection, and the process, on the first).
func TestProxyBadLines(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	srv := mcptest.NewServer(log)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	cmd := exec.Command(bin, "mcp-proxy", "--upstream", hs.URL)
	cmd.Env = scratchEnv(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	lines := make(chan map[string]json.RawMessage, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				lines <- m
			}
		}
		close(lines)
	}()
	// answer sends line and returns the answer with id (any id for "").
	answer := func(line, id string) map[string]json.RawMessage {
		t.Helper()
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case m, ok := <-lines:
				if !ok {
					t.Fatalf("the proxy exited after %.100q", line)
				}
				if m["method"] == nil && (id == "" || string(m["id"]) == id) {
					return m
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no answer to %.100q", line)
			}
		}
	}
	answer(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "1")
	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	deep := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"ls","x":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`
	for _, c := range []struct{ line, id, want string }{
		{"\x00\x01binary{", "null", `"code":-32700`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/li`, "null", `"code":-32700`},
		{`{"jsonrpc":"1.0","id":3,"method":"tools/list"}`, "3", `"code":-32600`},
		{`{"jsonrpc":"2.0","params":{}}`, "null", `"code":-32600`},
		{deep, "4", `"isError":true`},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo after"}}}`, "5", `would run: echo after`},
	} {
		m := answer(c.line, c.id)
		b, _ := json.Marshal(m)
		if !strings.Contains(string(b), c.want) {
			t.Errorf("%.60q: answered %s, want %s", c.line, b, c.want)
		}
	}
}
