package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/jsonlstore"
	"github.com/toolwall/toolwall/mcpproxy/mcptest"
	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/server/client"
)

// bin is toolwall-net, built once for the tests that run it as a process.
var bin string

func TestMain(m *testing.M) {
	mcptest.MaybeRun() // this binary, re-run, is the upstream MCP server
	dir, err := os.MkdirTemp("", "toolwall-net-bin")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "toolwall-net")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building toolwall-net: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// scratchEnv is the environment of a child: a scratch home and
// configuration, so nothing of the machine's own toolwall is used.
func scratchEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append(os.Environ(), append([]string{
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".state"),
		"TOOLWALL_CONFIG=", "TOOLWALL_STATE=", "TOOLWALL_TOKEN=", "TOOLWALL_TOKEN_FILE=", envUpstreamToken + "=",
	}, extra...)...)
}

// TestProxyProcess runs a real MCP client against `toolwall-net
// mcp-proxy`, itself in front of a real MCP server process: a refused
// call never reaches the server, an allowed one does and its result
// passes through.
func TestProxyProcess(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	cmd := exec.Command(bin, "mcp-proxy", "--name", "shell", "--", os.Args[0], "-test.run=^$")
	cmd.Env = scratchEnv(t, mcptest.EnvRun+"=1", mcptest.EnvLog+"="+log)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(command string) (bool, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": command}})
		if err != nil {
			t.Fatal(err)
		}
		return res.IsError, res.Content[0].(*mcp.TextContent).Text
	}
	if isErr, text := call("rm -rf ~"); !isErr || !strings.Contains(text, "rm.dangerous-target") {
		t.Errorf("rm -rf ~: isError %v %q", isErr, text)
	}
	if isErr, text := call("echo hi"); isErr || text != "would run: echo hi" {
		t.Errorf("echo hi: isError %v %q", isErr, text)
	}
	entries, err := mcptest.ReadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || string(entries[0].Args) != `{"command":"echo hi"}` {
		t.Errorf("the server received %+v, want only echo hi", entries)
	}
	cs.Close()
	if !strings.Contains(stderr.String(), "mcp:shell/run_command") {
		t.Errorf("the proxy did not log the refusal:\n%s", stderr.String())
	}
}

// TestProxyUpstreamURL: the proxy process in front of a server reached
// over streamable HTTP (the SDK's stateful server), with a client that
// speaks the newest protocol version.
func TestProxyUpstreamURL(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	srv := mcptest.NewServer(log)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	cmd := exec.Command(bin, "mcp-proxy", "--upstream", hs.URL)
	cmd.Env = scratchEnv(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for cmd, refused := range map[string]bool{"curl http://169.254.169.254/latest/meta-data/iam/": true, "git log -1": false} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]string{"command": cmd}})
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, stderr.String())
		}
		if res.IsError != refused {
			t.Errorf("%s: isError %v, want %v", cmd, res.IsError, refused)
		}
	}
	entries, err := mcptest.ReadLog(log)
	if err != nil || len(entries) != 1 || !strings.Contains(string(entries[0].Args), "git log") {
		t.Errorf("the server received %+v (%v), want only git log", entries, err)
	}
	cs.Close()
	if !strings.Contains(stderr.String(), "mcp:127.0.0.1/run_command") {
		t.Errorf("the tool id does not name the upstream host:\n%s", stderr.String())
	}
}

// serveProc is a running `toolwall-net serve`.
type serveProc struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	stderr strings.Builder
}

func (p *serveProc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

var listening = regexp.MustCompile(`msg="toolwall serve: listening" addr=(\S+)`)

// startServe runs `toolwall-net serve ARGS` and waits until it listens.
func startServe(t *testing.T, env []string, args ...string) *serveProc {
	t.Helper()
	p := &serveProc{cmd: exec.Command(bin, append([]string{"serve"}, args...)...)}
	p.cmd.Env = env
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			t.Fatalf("serve exited:\n%s", p.log())
		}
		p.url = "http://" + a
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen within 30 s:\n%s", p.log())
	}
	return p
}

// TestServeLoopbackOnly: without a token the server binds loopback only
// and says so.
func TestServeLoopbackOnly(t *testing.T) {
	p := startServe(t, scratchEnv(t), "--listen", "0.0.0.0:0", "--store", "memory")
	if !strings.HasPrefix(p.url, "http://127.0.0.1:") || !strings.Contains(p.log(), "listening on loopback only") {
		t.Errorf("url %s, log:\n%s", p.url, p.log())
	}
	d, err := client.New(p.url, client.Options{}).Decide(context.Background(), api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`)})
	if err != nil || d.Action.String() != "deny" {
		t.Errorf("decide: %+v %v", d, err)
	}
}

// TestServeSIGHUP: SIGHUP reloads the policy; a broken policy keeps the
// one in force and is logged.
func TestServeSIGHUP(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(conf, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, scratchEnv(t, "TOOLWALL_TOKEN=s3cret"), "--config", conf, "--store", "memory", "--listen", "127.0.0.1:0", "--reload-every", "0")
	c := client.New(p.url, client.Options{Token: "s3cret"})
	reset := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), Cwd: "/w"}
	action := func() string {
		d, err := c.Decide(context.Background(), reset)
		if err != nil {
			t.Fatal(err)
		}
		return d.Action.String()
	}
	if a := action(); a != "ask" {
		t.Fatalf("before reload: %s", a)
	}
	reload := func(body string) {
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	reload("[rules]\ndisable = [\"git.reset-hard\"]\n")
	waitFor(t, func() bool { return action() == "allow" }, "SIGHUP did not reload the policy")
	reload("[rules\n")
	waitFor(t, func() bool { return strings.Contains(p.log(), "policy reload failed") }, "a broken policy was not reported")
	if a := action(); a != "allow" {
		t.Errorf("a broken policy replaced the one in force: %s", a)
	}
	if _, err := client.New(p.url, client.Options{}).Rules(context.Background()); err == nil {
		t.Error("GET /v1/rules without the token succeeded")
	}
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
	}
}

// contains reports whether the decision carries rule.
func contains(d api.Decision, rule string) bool { return slices.Contains(d.Rules, rule) }

// TestServeAudits: serve writes an audit record per decision into the
// store the configuration names ([audit], jsonl here), so a deny the
// server gave can be found afterwards.
func TestServeAudits(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	trail := filepath.Join(dir, "audit.jsonl")
	if err := os.WriteFile(conf, []byte("[audit]\nstore = \"jsonl\"\npath = \""+trail+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, scratchEnv(t, "TOOLWALL_TOKEN=s3cret"), "--config", conf, "--store", "memory", "--listen", "127.0.0.1:0")
	c := client.New(p.url, client.Options{Token: "s3cret"})
	d, err := c.Decide(context.Background(), api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf /"}`), Cwd: "/w", Session: "s1"})
	if err != nil || d.Action.String() != "deny" {
		t.Fatalf("rm -rf /: %+v, %v", d, err)
	}
	st := jsonlstore.Open(trail)
	defer st.Close()
	recs, err := st.Query(context.Background(), audit.Filter{Actions: []toolwall.Action{toolwall.Deny}})
	if err != nil || len(recs) != 1 || recs[0].ID != d.DecisionID {
		t.Fatalf("audit records: %+v, %v; want the one deny %s", recs, err, d.DecisionID)
	}
}

// TestServeApprovals: with --approver-file, a person's approver token
// approves an ask through POST /v1/approve and the same call is then
// allowed; the grant is kept in approvals.jsonl beside the state file,
// as the hook keeps it; the agent's own token cannot approve.
func TestServeApprovals(t *testing.T) {
	dir := t.TempDir()
	approvers := filepath.Join(dir, "approvers")
	if err := os.WriteFile(approvers, []byte("# tenant token\n"+server.TenantOf("s3cret")+" human-s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state", "state.db")
	p := startServe(t, scratchEnv(t, "TOOLWALL_TOKEN=s3cret"), "--store", "memory", "--state", state, "--listen", "127.0.0.1:0", "--approver-file", approvers)
	ctx := context.Background()
	agent := client.New(p.url, client.Options{Token: "s3cret"})
	human := client.New(p.url, client.Options{Token: "human-s3cret"})
	reset := api.Call{Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard"}`), Session: "s1", Cwd: "/w"}
	d, err := agent.Decide(ctx, reset)
	if err != nil || d.Action.String() != "ask" {
		t.Fatalf("git reset --hard: %+v %v", d, err)
	}
	if _, err := agent.Approve(ctx, d.DecisionID); err == nil {
		t.Error("the agent's token approved its own ask")
	}
	if _, err := human.Approve(ctx, d.DecisionID); err != nil {
		t.Fatal(err)
	}
	if d, err := agent.Decide(ctx, reset); err != nil || d.Action.String() != "allow" {
		t.Errorf("the approved call again: %+v %v", d, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "state", "approvals.jsonl"))
	if err != nil || !strings.Contains(string(b), `"type":"grant"`) {
		t.Errorf("approvals.jsonl: %s %v", b, err)
	}
}
