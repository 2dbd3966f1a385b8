package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/fetch"
)

// TestGetHeaderStaysWithItsOrigin: Get sends Request.Header to the URL's
// origin and follows a redirect to another origin without it, so a
// credential header never leaves its host; the egress records name the
// call's tool, never the header.
func TestGetHeaderStaysWithItsOrigin(t *testing.T) {
	l := newLab(t)
	p := strconv.Itoa(l.port)
	sink := &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
	e := fetch.New(l.options(t, newResolver("other.test=127.0.0.2"), sink))
	h := http.Header{"X-Token": {"tok-s3cret"}}
	call := toolwall.Call{Tool: "web_search", Session: "s"}
	for _, c := range []struct{ url, want string }{
		{"https://pub.test:" + p + "/header", `X-Token="tok-s3cret" on pub.test:` + p},
		{"https://pub.test:" + p + "/chain/0?x", `hello, end of chain`},
		{"https://pub.test:" + p + "/r/302?to=" + "/header", `X-Token="tok-s3cret" on pub.test:` + p},
		{"https://pub.test:" + p + "/r/302?to=" + "https://other.test:" + p + "/header", `X-Token="" on other.test:` + p},
		{"https://pub.test:" + p + "/r/307?to=" + "https://PUB.test:" + p + "/header", `X-Token="tok-s3cret" on PUB.test:` + p},
	} {
		resp, err := e.Get(context.Background(), fetch.Request{URL: c.url, Header: h, Call: call})
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		if !strings.Contains(string(resp.Body), c.want) {
			t.Errorf("%s: body %q, want %q", c.url, resp.Body, c.want)
		}
	}
	n := 0
	for _, l := range sink.Lines(t) {
		if r := l.Record; r != nil {
			n++
			if r.Tool != "web_search" || r.Session != "s" || strings.Contains(string(r.Input), "s3cret") {
				t.Errorf("egress record %s: tool %q, session %q, input %s", r.ID, r.Tool, r.Session, r.Input)
			}
		}
	}
	if n != 8 {
		t.Errorf("%d egress records, want one per hop (8)", n)
	}
	if l.escapes.Load() != 0 {
		t.Errorf("%d escapes", l.escapes.Load())
	}
}

// TestReuse: with Options.Reuse, requests whose host resolves to the same
// address set share one pinned client and its connection; a resolution
// to another set gets a client of its own, still pinned (the lab's
// dialer refuses anything but the public server); without Reuse every
// request opens a connection.
func TestReuse(t *testing.T) {
	l := newLab(t)
	p := strconv.Itoa(l.port)
	other := netip.MustParseAddr("127.0.0.3")
	for _, reuse := range []bool{true, false} {
		opts := l.options(t, newResolver("pub.test=127.0.0.2/127.0.0.2,127.0.0.2/127.0.0.2/127.0.0.3,127.0.0.2"), &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")})
		opts.Reuse = reuse
		opts.Allow = append(opts.Allow, netip.PrefixFrom(other, 32))
		e := fetch.New(opts)
		before := l.conns.Load()
		for i := range 4 {
			resp, err := e.Get(context.Background(), fetch.Request{URL: "https://pub.test:" + p + "/ok"})
			if err != nil || string(resp.Body) != "hello from pub" {
				t.Fatalf("reuse %v, request %d: %v %v", reuse, i, resp, err)
			}
		}
		conns := l.conns.Load() - before
		switch {
		case reuse && (conns != 2 || e.Clients() != 2):
			t.Errorf("with Reuse: %d connections and %d clients for 3 requests to one address set and 1 to another, want 2 and 2", conns, e.Clients())
		case !reuse && (conns != 4 || e.Clients() != 0):
			t.Errorf("without Reuse: %d connections and %d clients for 4 requests, want 4 and 0", conns, e.Clients())
		}
	}
	// The dial to 127.0.0.3 (nothing listens there; it is not the public
	// server's end point) counts as an escape in the lab's dialer; any
	// other is one.
	if n := l.escapes.Load(); n > 2 {
		t.Errorf("%d escapes", n)
	}
}

// TestReuseEvicts: at most MaxClients pinned clients are kept.
func TestReuseEvicts(t *testing.T) {
	l := newLab(t)
	p := strconv.Itoa(l.port)
	var sets []string
	for i := range fetch.MaxClients + 3 {
		sets = append(sets, "127.0.0.2,127.0.9."+strconv.Itoa(i))
	}
	opts := l.options(t, newResolver("pub.test="+strings.Join(sets, "/")), &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")})
	opts.Reuse = true
	opts.Allow = append(opts.Allow, netip.MustParsePrefix("127.0.9.0/24"))
	opts.Dial = func(ctx context.Context, network, address string) (_ net.Conn, err error) {
		if !strings.HasPrefix(address, "127.0.0.2:") {
			return nil, errors.New("not the public server")
		}
		return (&net.Dialer{}).DialContext(ctx, network, address)
	}
	e := fetch.New(opts)
	for range fetch.MaxClients + 3 {
		if _, err := e.Get(context.Background(), fetch.Request{URL: "https://pub.test:" + p + "/ok"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.Clients(); n != fetch.MaxClients {
		t.Errorf("%d clients kept, want %d", n, fetch.MaxClients)
	}
}
