package fetch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/fetch"
	"github.com/toolwall/toolwall/executor/fetch/netguard"
)

// TestEgressAudit: the call's record comes first, then one egress record
// per hop, each before its connection, each with its outcome; a refused
// hop's record is a deny naming the rule.
func TestEgressAudit(t *testing.T) {
	l := newLab(t)
	sink := &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
	e := fetch.New(l.options(t, newResolver("inside.test=127.0.0.1"), sink))
	u := fmt.Sprintf("https://pub.test:%d/chain/2", l.port)
	out, err := e.Execute(context.Background(), fetchCall(u))
	if err != nil || out.IsError {
		t.Fatalf("%+v %v", out, err)
	}
	type egress struct {
		URL    string       `json:"url"`
		Hop    int          `json:"hop"`
		Addrs  []netip.Addr `json:"addrs"`
		Parent string       `json:"parent"`
	}
	lines := sink.Lines(t)
	if len(lines) == 0 || lines[0].Record == nil || lines[0].Record.Driver != "executor:fetch" || lines[0].Record.ID != out.AuditID {
		t.Fatalf("first line is not the call's record: %+v", lines)
	}
	var hops []egress
	outcomes := map[string]bool{}
	for _, ln := range lines {
		if ln.Outcome != nil {
			outcomes[ln.ID] = true
		}
		if ln.Record == nil || ln.Record.Driver != "executor:fetch:egress" {
			continue
		}
		var eg egress
		if err := json.Unmarshal(ln.Record.Input, &eg); err != nil {
			t.Fatal(err)
		}
		if eg.Parent != out.AuditID || len(eg.Addrs) != 1 || eg.Addrs[0] != pubAddr {
			t.Errorf("egress record %+v", eg)
		}
		hops = append(hops, eg)
		if !outcomes[ln.Record.ID] && !strings.Contains(string(mustRead(t, sink.Path)), `"id":"`+ln.Record.ID+`","outcome"`) {
			t.Errorf("hop %d has no outcome", eg.Hop)
		}
	}
	if len(hops) != 3 || hops[0].Hop != 0 || hops[2].Hop != 2 || !strings.HasSuffix(hops[2].URL, "/chain/0") {
		t.Fatalf("egress hops %+v, want 3", hops)
	}

	// A redirect into the network: the refused hop is recorded as a deny.
	sink2 := &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
	opts := l.options(t, newResolver("inside.test=127.0.0.1"), sink2)
	u = fmt.Sprintf("https://pub.test:%d/r/302?to=https://inside.test:%d/", l.port, l.port)
	out, _ = fetch.New(opts).Execute(context.Background(), fetchCall(u))
	if !strings.Contains(out.Text, "[fetch.blocked-address]") {
		t.Fatalf("redirect into the network: %q", out.Text)
	}
	var denied bool
	for _, ln := range sink2.Lines(t) {
		if r := ln.Record; r != nil && r.Driver == "executor:fetch:egress" && r.Verdict.Action == toolwall.Deny && strings.Contains(strings.Join(r.Verdict.Rules(), ","), fetch.RuleAddress) {
			denied = true
		}
	}
	if !denied {
		t.Error("the refused hop has no deny record")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := readFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAllowHTTP: http:// is fetched only when allowed.
func TestAllowHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("skipped: cannot listen on 127.0.0.2 (%v)", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello over http") })}
	go srv.Serve(ln)
	defer srv.Close()
	l := &lab{port: ln.Addr().(*net.TCPAddr).Port}
	opts := l.options(t, newResolver("-"), nil)
	opts.Audit = nil
	u := fmt.Sprintf("http://pub.test:%d/", l.port)
	if out, _ := fetch.New(opts).Execute(context.Background(), fetchCall(u)); !strings.Contains(out.Text, "[fetch.scheme]") {
		t.Errorf("http by default: %q", out.Text)
	}
	opts.AllowHTTP = true
	if out, _ := fetch.New(opts).Execute(context.Background(), fetchCall(u)); out.IsError || out.Text != "hello over http" {
		t.Errorf("http allowed: %+v", out)
	}
}

func TestLeaf(t *testing.T) {
	executortest.NoEmbedding(t, ".")
	e := fetch.New(fetch.Options{})
	call := toolwall.Call{Tool: toolwall.ToolWebFetch, Input: []byte(`{"url":"https://go.dev/"}`)}
	if e.Speculatable(call) || !executor.Has(e.Definitions(), toolwall.ToolWebFetch) {
		t.Error("fetch executor definitions or speculation wrong")
	}
	out, _ := e.Execute(context.Background(), &executor.Request{Call: call})
	if !out.IsError || !strings.Contains(out.Text, toolwall.RuleConfig) {
		t.Errorf("a gateless fetch executor fetched: %+v", out)
	}
	out, _ = e.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: toolwall.ToolWebFetch, Input: []byte(`{"url":7}`)}})
	if !out.IsError || !strings.Contains(out.Text, toolwall.RuleMalformed) {
		t.Errorf("malformed input: %+v", out)
	}
}

// FuzzFetchURL: whatever URL the model sends, with every name resolving
// inside the network, a dial only ever goes to a literal address that
// passes the address policy (and is refused here, so nothing leaves).
func FuzzFetchURL(f *testing.F) {
	for _, s := range []string{"https://go.dev/", "https://127.0.0.1/", "https://[::ffff:127.0.0.1]/", "https://0x7f000001/", "http://a@b@c/", "https://x.test:99999/", "https://%00/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		inside := &resolver{answers: map[string][][]netip.Addr{}, lookups: map[string]int{}}
		e := fetch.New(fetch.Options{
			Gate:     allowAll{},
			Resolver: anyInside{inside},
			Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
				if ap, err := netip.ParseAddrPort(address); err != nil || netguard.Check(ap.Addr()) != nil {
					t.Errorf("dialled %s for %q", address, u)
				}
				return nil, errors.New("test: no network")
			},
		})
		out, err := e.Execute(context.Background(), fetchCall(u))
		if err != nil || out == nil || !out.IsError {
			// every fetch fails here: names resolve inside, dials are refused
			t.Fatalf("%q: %+v %v", u, out, err)
		}
	})
}

// anyInside answers every name with a private address.
type anyInside struct{ *resolver }

func (anyInside) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("10.0.0.1")}, nil
}
