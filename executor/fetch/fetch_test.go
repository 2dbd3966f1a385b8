package fetch_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/fetch"
	"github.com/toolwall/toolwall/internal/rows"
)

// pubAddr is the one address the test policy vouches for: the stand-in
// for the public internet.
var pubAddr = netip.MustParseAddr("127.0.0.2")

// lab is the loopback network of the SSRF tests.
type lab struct {
	port    int
	roots   *x509.CertPool
	escapes atomic.Int64 // connections accepted by a canary, or dials to anything but the public server
	dials   atomic.Int64
	conns   atomic.Int64 // connections the public server accepted
}

// certs makes a CA and a leaf for *.test and 127.0.0.2.
func certs(t testing.TB) (tls.Certificate, *x509.CertPool) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "toolwall test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "pub.test"},
		DNSNames: []string{"*.test"}, IPAddresses: []net.IP{pubAddr.AsSlice()},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &leafKey.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}, pool
}

// newLab starts the public server on 127.0.0.2:P and canaries on
// 127.0.0.1:P and [::1]:P.
func newLab(t testing.TB) *lab {
	cert, pool := certs(t)
	l := &lab{roots: pool}
	var pub net.Listener
	for try := 0; ; try++ {
		var err error
		if pub, err = net.Listen("tcp", "127.0.0.2:0"); err != nil {
			t.Skipf("skipped: cannot listen on 127.0.0.2 (%v)", err)
		}
		l.port = pub.Addr().(*net.TCPAddr).Port
		canary, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", l.port))
		if err != nil {
			pub.Close()
			if try > 20 {
				t.Fatal(err)
			}
			continue
		}
		l.canary(t, canary)
		if c6, err := net.Listen("tcp", fmt.Sprintf("[::1]:%d", l.port)); err == nil {
			l.canary(t, c6)
		}
		break
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from pub") })
	mux.HandleFunc("/header", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello, X-Token=%q on %s", r.Header.Get("X-Token"), r.Host)
	})
	mux.HandleFunc("/r/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.PathValue("code"))
		to, _ := url.QueryUnescape(strings.TrimPrefix(r.URL.RawQuery, "to="))
		w.Header().Set("Location", to)
		w.WriteHeader(code)
	})
	mux.HandleFunc("/chain/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			fmt.Fprint(w, "hello, end of chain")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 1024)
		for range 1024 {
			if _, err := fmt.Fprint(w, chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	})
	srv := &http.Server{Handler: mux, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}, ErrorLog: nil,
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				l.conns.Add(1)
			}
		}}
	srv.ErrorLog = nil
	go srv.ServeTLS(pub, "", "")
	t.Cleanup(func() { srv.Close() })
	return l
}

// canary counts every connection it accepts as an escape.
func (l *lab) canary(t testing.TB, ln net.Listener) {
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.escapes.Add(1)
			c.Close()
		}
	}()
}

// resolver answers from a table; host=a,b/c gives a,b on the first
// lookup and c after.
type resolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups map[string]int
}

func newResolver(spec string) *resolver {
	r := &resolver{answers: map[string][][]netip.Addr{"pub.test": {{pubAddr}}}, lookups: map[string]int{}}
	if spec == "-" {
		return r
	}
	for _, entry := range strings.Split(spec, ";") {
		host, sets, _ := strings.Cut(entry, "=")
		var all [][]netip.Addr
		for _, set := range strings.Split(sets, "/") {
			var addrs []netip.Addr
			for _, a := range strings.Split(set, ",") {
				if a != "" {
					addrs = append(addrs, netip.MustParseAddr(a))
				}
			}
			all = append(all, addrs)
		}
		r.answers[host] = all
	}
	return r
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sets, ok := r.answers[strings.ToLower(host)]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(r.lookups[host], len(sets)-1)
	r.lookups[host]++
	return sets[i], nil
}

// options are executor options for the lab: the engine's gate, the test
// resolver, the lab's CA, and a dialer that refuses (and counts as an
// escape) anything but the public server.
func (l *lab) options(t testing.TB, res *resolver, sink *executortest.JSONL) fetch.Options {
	pubEnd := netip.AddrPortFrom(pubAddr, uint16(l.port)).String()
	return fetch.Options{
		Gate:     engine.New(engine.Options{}),
		Audit:    sink,
		Resolver: res,
		Allow:    []netip.Prefix{netip.PrefixFrom(pubAddr, 32)},
		TLS:      &tls.Config{RootCAs: l.roots},
		MaxBytes: 64 << 10,
		Timeout:  5 * time.Second,
		Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
			l.dials.Add(1)
			if address != pubEnd {
				l.escapes.Add(1)
				return nil, errors.New("test dialer: refused " + address)
			}
			return (&net.Dialer{}).DialContext(ctx, network, address)
		},
	}
}

func fetchCall(u string) *executor.Request {
	c := toolwall.Call{Tool: toolwall.ToolWebFetch, Input: []byte(strconv.Quote(u))}
	c.Input = []byte(`{"url":` + strconv.Quote(u) + `}`)
	return &executor.Request{Call: c}
}

// allowAll is a gate that allows every call: the matrix's second pass
// tests the executor's own SSRF defence without the gate in front.
type allowAll struct{}

func (allowAll) Evaluate(context.Context, toolwall.Call) toolwall.Verdict { return toolwall.Verdict{} }
func (allowAll) RecordInvocation(context.Context, toolwall.Call, bool)    {}
func (allowAll) WatchedTools() []string                                   { return nil }

// TestSSRFMatrix runs every row of testdata/ssrf.tsv against the lab,
// behind the engine's gate and behind an allow-all gate, and requires 0
// escapes.
func TestSSRFMatrix(t *testing.T) {
	l := newLab(t)
	cases, passed := 0, 0
	for _, r := range rows.Read(t, "testdata/ssrf.tsv", 4) {
		ln, fl := r.Line, r.Fields
		cases++
		want, note := fl[0], fl[3]
		p := strconv.Itoa(l.port)
		u := strings.NewReplacer("{PUB}", "https://pub.test:"+p, "{P}", p).Replace(fl[1])
		for _, gate := range []string{"engine", "allow-all"} {
			res := newResolver(fl[2])
			opts := l.options(t, res, &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")})
			if gate == "allow-all" {
				opts.Gate = allowAll{}
			}
			if want == "timeout" {
				opts.Timeout = 500 * time.Millisecond
			}
			before := l.escapes.Load()
			req := fetchCall(u)
			req.Approved = true // asks are approved: the refusals tested here need no human
			out, err := fetch.New(opts).Execute(context.Background(), req)
			if err != nil {
				t.Fatalf("ssrf.tsv:%d %s: %v", ln, note, err)
			}
			ok := false
			switch want {
			case "ok":
				ok = !out.IsError && strings.Contains(out.Text, "hello")
			case "truncated":
				ok = !out.IsError && out.Truncated && len(out.Text) < 70<<10
			case "timeout":
				ok = out.IsError && (strings.Contains(out.Text, "deadline exceeded") || strings.Contains(out.Text, "timeout"))
			case "unresolved":
				ok = out.IsError && strings.HasPrefix(out.Text, "fetch failed: ") && strings.Contains(out.Text, "does not resolve")
			default:
				for _, rule := range strings.Split(want, "|") {
					ok = ok || out.IsError && strings.Contains(out.Text, "["+rule+"]")
				}
				if gate == "engine" {
					ok = out.IsError && strings.HasPrefix(out.Text, "refused by toolwall [")
				}
			}
			if strings.HasPrefix(note, "first answer good") || strings.HasPrefix(note, "later answer") {
				for h, n := range res.lookups {
					if h != "pub.test" && n != 1 {
						ok = false
						t.Errorf("ssrf.tsv:%d: %s resolved %d times; a pinned fetch resolves once", ln, h, n)
					}
				}
			}
			if l.escapes.Load() != before {
				ok = false
				t.Errorf("ssrf.tsv:%d %s (%s gate): ESCAPE: a canary or a non-public dial was reached", ln, note, gate)
			}
			if !ok {
				t.Errorf("ssrf.tsv:%d %s (%s gate): %s → %q, want %s", ln, note, gate, u, out.Text, want)
				continue
			}
			passed++
		}
	}
	if cases < 100 {
		t.Errorf("ssrf.tsv: %d rows, want at least 100", cases)
	}
	t.Logf("SSRF matrix: %d rows × 2 gates, %d runs as expected, %d escapes, %d dials to the public server", cases, passed, l.escapes.Load(), l.dials.Load())
	if l.escapes.Load() != 0 {
		t.Errorf("%d escapes", l.escapes.Load())
	}
}

func readFile(p string) ([]byte, error) { return os.ReadFile(p) }
