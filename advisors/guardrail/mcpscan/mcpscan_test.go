package mcpscan

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall/advisors/guardrail"
)

var quiet = slog.New(slog.DiscardHandler)

func TestMaxPorts(t *testing.T) {
	if MaxPorts != guardrail.MaxDetectPorts {
		t.Errorf("MaxPorts %d, guardrail.MaxDetectPorts %d", MaxPorts, guardrail.MaxDetectPorts)
	}
}

// mcpServer runs an MCP server of the official SDK named name on
// loopback (Streamable HTTP at /mcp) and returns its port.
func mcpServer(t *testing.T, name string, jsonResponse bool) int {
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1.0.0"}, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return port(t, ts.URL)
}

func port(t *testing.T, u string) int {
	_, p, err := net.SplitHostPort(strings.TrimPrefix(u, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(p)
	return n
}

// TestDetect: real MCP servers on loopback (SSE and JSON answers) are
// found by name; a closed port, a server that is not MCP and an invalid
// port are skipped; nothing is written to stdout.
func TestDetect(t *testing.T) {
	pg := mcpServer(t, "Postgres", false)
	pw := mcpServer(t, "playwright", true)
	odd := mcpServer(t, "My Server!", false)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"ok":true}`) }))
	defer plain.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := port(t, "http://"+l.Addr().String())
	l.Close()

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	got := Detect(context.Background(), []int{pg, pw, odd, port(t, plain.URL), closed, 0, 70000}, quiet)
	os.Stdout = stdout
	w.Close()
	printed, _ := io.ReadAll(r)
	if !slices.Equal(got, []string{"My Server!", "Postgres", "playwright"}) {
		t.Errorf("Detect = %v", got)
	}
	if len(printed) > 0 {
		t.Errorf("Detect printed to stdout: %q", printed)
	}
	many := make([]int, MaxPorts+5)
	for i := range many {
		many[i] = closed
	}
	if got := Detect(context.Background(), many, quiet); len(got) != 0 {
		t.Errorf("closed ports: %v", got)
	}
}
