package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/session"
)

// post sends body to /v1/decide as tenant tok and returns the status and
// Retry-After.
func post(t *testing.T, url, tok string, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+api.PathDecide, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

// TestShedLoad: a request past a bound (requests at once, in all or of
// one tenant; body memory) is answered at once with 503 and Retry-After,
// not queued; another tenant's request within its share is decided.
func TestShedLoad(t *testing.T) {
	padded := func(n int) []byte {
		in, _ := json.Marshal(map[string]string{"command": "curl -o /w/x.sh https://example.com/x # " + strings.Repeat("x", n)})
		b, _ := json.Marshal(map[string]any{"tool": "Bash", "input": json.RawMessage(in), "session": "s", "cwd": "/w"})
		return b
	}
	for _, c := range []struct {
		name string
		opts server.Options
		tok  string // the second request's tenant
		body []byte // the second request's body
		want int
	}{
		{"in flight, same tenant", server.Options{MaxInFlight: 2}, tokA, download, http.StatusServiceUnavailable},
		{"in flight, other tenant", server.Options{MaxInFlight: 2}, tokB, download, http.StatusOK},
		{"in flight, all", server.Options{MaxInFlight: 1}, tokB, download, http.StatusServiceUnavailable},
		{"body budget", server.Options{BodyBudget: 3600, BodyBudgetPerTenant: 3600}, tokB, padded(1000), http.StatusServiceUnavailable},
		{"body budget, small body", server.Options{BodyBudget: 3600, BodyBudgetPerTenant: 3600}, tokB, download, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Store = &slowStore{Store: session.NewMemory(session.Options{}), delay: 600 * time.Millisecond}
			srv := start(t, c.opts)
			done := make(chan int, 1)
			go func() {
				code, _ := post(t, srv.url, tokA, download)
				done <- code
			}()
			time.Sleep(200 * time.Millisecond) // the first request is in progress
			began := time.Now()
			code, retry := post(t, srv.url, c.tok, c.body)
			if code != c.want {
				t.Errorf("second request: %d, want %d", code, c.want)
			}
			if code == http.StatusServiceUnavailable && (retry == "" || time.Since(began) > 300*time.Millisecond) {
				t.Errorf("a request turned away: Retry-After %q, after %v", retry, time.Since(began))
			}
			if code := <-done; code != http.StatusOK {
				t.Errorf("first request: %d", code)
			}
		})
	}
}
