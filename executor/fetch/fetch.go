package fetch

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/fetch/netguard"
	"github.com/toolwall/toolwall/pipeline"
	"github.com/toolwall/toolwall/places"
)

// Rule ids of the executor's SSRF refusals.
const (
	RuleScheme    = "fetch.scheme"           // not https (or http when allowed)
	RuleMalformed = "fetch.malformed"        // a URL that cannot be read
	RuleUserinfo  = "fetch.userinfo"         // user:password@ before the host
	RuleHost      = "fetch.blocked-host"     // pre-DNS: a blocked name or literal address
	RuleAddress   = "fetch.blocked-address"  // post-DNS: a resolved address is blocked
	RuleDNS       = "fetch.dns"              // no longer a refusal: a name that does not resolve is a network failure (see ErrUnresolved)
	RuleRedirects = "fetch.redirects"        // more redirects than allowed
	RuleHop       = "fetch.redirect-refused" // the gate refused a redirect target
)

// Defaults of [Options].
const (
	DefaultMaxBytes     = 2 << 20
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 3
)

// Resolver looks up a host's addresses; *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Options configure [New].
type Options struct {
	// Gate judges every fetch (the WebFetch call) before anything is
	// resolved, and every redirect target; nil refuses every fetch.
	Gate toolwall.Shield
	// Context is the executor's privilege (see executor.Boundary).
	Context toolwall.ExecContext
	// Audit receives the call's record before any network activity, and
	// one egress record per hop before that hop connects; nil writes none.
	Audit audit.Sink
	// Remember records fetches in the gate's session memory.
	Remember bool
	// Resolver resolves host names (default net.DefaultResolver). Every
	// answer is checked, and the connection is pinned to the checked
	// addresses: nothing is resolved twice.
	Resolver Resolver
	// AllowHTTP permits http:// URLs (default: https only).
	AllowHTTP bool
	// Allow lists address prefixes the operator vouches for; they pass
	// the post-DNS check (see netguard.Policy). Names on the pre-DNS
	// blocklist stay blocked.
	Allow []netip.Prefix
	// MaxBytes bounds the body read (default DefaultMaxBytes); a longer
	// body is cut and the response marked Truncated.
	MaxBytes int64
	// Timeout bounds the whole fetch, redirects included (default
	// DefaultTimeout).
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed, each re-validated
	// (default 3; negative follows none).
	MaxRedirects int
	// TLS is the TLS configuration (nil: the system roots).
	TLS *tls.Config
	// Dial makes the TCP connection to a validated address and port; nil
	// means a net.Dialer. It is never handed a name.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
	// UserAgent is sent with each request (default "toolwall-fetch").
	UserAgent string
	// Reuse keeps one pinned client per resolved address set — the
	// addresses sorted and without repeats, with the scheme and port —
	// and reuses it, idle connections included, for every request whose
	// host resolves to the same set (the search client "is
	// cached and reused across calls keyed by the resolved (sorted,
	// deduplicated) address set … while preserving SSRF address-pinning on
	// every resolution change"). At most MaxClients are kept. Without it
	// every request gets a fresh client and connection.
	Reuse bool
}

// MaxClients is how many pinned clients Options.Reuse keeps; the least
// recently used one is dropped, its idle connections closed.
const MaxClients = 8

// Executor is the fetch executor (the tool-executor framework's WebScrapeExecutor with its
// SSRF defence). It implements executor.Executor with one tool,
// "WebFetch", whose input is {"url": string}. Safe for concurrent use.
type Executor struct {
	opts     Options
	policy   netguard.Policy
	boundary executor.Boundary

	mu      sync.Mutex
	clients []*pinnedClient // Options.Reuse: most recently used last
}

// pinnedClient is a client whose connections go to one address set.
type pinnedClient struct {
	key    string
	client *http.Client
}

// New returns a fetch executor for opts.
func New(opts Options) *Executor {
	if opts.Resolver == nil {
		opts.Resolver = net.DefaultResolver
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRedirects == 0 {
		opts.MaxRedirects = DefaultMaxRedirects
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "toolwall-fetch"
	}
	return &Executor{opts: opts, policy: netguard.Policy{Allow: opts.Allow}, boundary: executor.Boundary{
		Gate: opts.Gate, Context: opts.Context, Audit: opts.Audit, Driver: "executor:fetch", Remember: opts.Remember,
	}}
}

var fetchSchema = json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","description":"the https URL to fetch"}},"required":["url"]}`)

// Definitions defines the "WebFetch" tool.
func (e *Executor) Definitions() []executor.Definition {
	return []executor.Definition{{Name: toolwall.ToolWebFetch, InputSchema: fetchSchema,
		Description: "Fetch a public https URL and return its body. Internal, loopback and metadata addresses are refused, before and after DNS and on every redirect."}}
}

// Confirmation is the gate's Ask for the fetch.
func (e *Executor) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	if call.Tool != toolwall.ToolWebFetch {
		return nil
	}
	return e.boundary.Confirmation(ctx, call)
}

// Speculatable is false: a fetch sends a request out (egress), which is
// an effect of its own.
func (e *Executor) Speculatable(toolwall.Call) bool { return false }

// Hop is one request of a fetch: the egress event of the tool-executor framework's audit
// log ("EgressEvent with per-hop emission").
type Hop struct {
	// URL is the URL requested.
	URL string `json:"url"`
	// Addrs are the validated addresses the connection was pinned to.
	Addrs []netip.Addr `json:"addrs,omitempty"`
	// Status is the HTTP status (0 when no response).
	Status int `json:"status,omitempty"`
	// Location is a redirect's target as sent.
	Location string `json:"location,omitempty"`
	// Refused holds the rule and reason when this hop was blocked.
	Refused *Refusal `json:"refused,omitempty"`
	// AuditID is the id of the hop's egress record ("" without a sink).
	AuditID string `json:"audit_id,omitempty"`
}

// Refusal is the executor's SSRF refusal of a hop. It is an error.
type Refusal struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

func (r *Refusal) Error() string { return r.Rule + ": " + r.Reason }

// Response is the result of a fetch.
type Response struct {
	// URL is the final URL.
	URL string
	// Status and Header are the final response's.
	Status int
	Header http.Header
	// Body is the body, at most MaxBytes; Truncated says it was cut.
	Body      []byte
	Truncated bool
	// Hops lists every request made or refused, in order.
	Hops []Hop
}

// Execute runs one WebFetch call: the gate judges it (before any DNS),
// the audit record is written, then [Executor.Fetch] does the SSRF-safe
// fetch. A refusal at any step is a soft error naming the rule.
func (e *Executor) Execute(ctx context.Context, req *executor.Request) (*executor.Output, error) {
	if req.Call.Tool != toolwall.ToolWebFetch {
		return executor.UnknownTool(req.Call.Tool), nil
	}
	raw, ok := req.Call.Field("url")
	if !ok {
		v := toolwall.Refusal("executor", toolwall.RuleMalformed, "the fetch was refused: the call has no string \"url\" field. Send {\"url\": \"https://...\"}.")
		return e.boundary.Refuse(ctx, req.Call, v), nil
	}
	a := e.boundary.Admit(ctx, req, req.Call)
	if a.Refusal != nil {
		return a.Refusal, nil
	}
	resp, err := e.Get(ctx, Request{URL: raw, Call: a.Call, Parent: a.AuditID})
	out := &executor.Output{Tool: req.Call.Tool, Verdict: &a.Verdict, AuditID: a.AuditID}
	var ref *Refusal
	switch {
	case errors.As(err, &ref):
		out.IsError, out.Text = true, "refused by toolwall ["+ref.Rule+"]: "+ref.Reason
	case err != nil:
		out.IsError, out.Text = true, "fetch failed: "+err.Error()
	default:
		out.Text, out.Truncated = render(resp), resp.Truncated
		out.IsError = resp.Status >= 400
	}
	o := audit.Outcome{Success: !out.IsError, Truncated: out.Truncated, Refused: ref != nil}
	if out.IsError {
		o.Error = out.Text
	}
	e.boundary.Done(ctx, a, o)
	return out, nil
}

// Fetch fetches rawURL with the SSRF defence but without the gate and the
// call's audit record (Execute adds those); hops are still audited when
// a sink is configured. The error is a *Refusal when a hop was blocked.
func (e *Executor) Fetch(ctx context.Context, rawURL string) (*Response, error) {
	return e.Get(ctx, Request{URL: rawURL, Call: toolwall.Call{Tool: toolwall.ToolWebFetch}})
}

// Request is one GET made with the fetch executor's SSRF defence on
// behalf of a tool call that was already admitted (the web_search
// executor's request to its provider, a WebFetch call's URL).
type Request struct {
	// URL is the URL to GET (https, or http with Options.AllowHTTP).
	URL string
	// Header is sent with the request to URL's origin (scheme, host and
	// port) and to no other: a redirect to another origin is followed
	// without it, so a credential header never leaves its host. Host,
	// User-Agent and the hop-by-hop headers are set by the executor.
	Header http.Header
	// Call is the tool call the request is made for: its tool, session,
	// turn and caller go in the egress records, and a redirect target is
	// judged by the gate as a WebFetch in its session.
	Call toolwall.Call
	// Parent is the audit id of the call's record, named by every egress
	// record ("" without one).
	Parent string
}

// Get makes the request r with the SSRF defence — pre-DNS checks, one
// resolution with every address checked, a connection pinned to them, up
// to MaxRedirects redirects followed by hand and each checked again (and
// judged by the gate), the body bounded by MaxBytes and the whole by
// Timeout — and one egress record per hop. It does not ask the gate
// about r.URL itself nor write the call's record: Execute does both for a
// WebFetch call. The error is a *Refusal when a hop was blocked.
func (e *Executor) Get(ctx context.Context, req Request) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	call, parent := req.Call, req.Parent
	if call.Tool == "" {
		call.Tool = toolwall.ToolWebFetch
	}
	resp := &Response{}
	cur := req.URL
	var origin string
	for hop := 0; ; hop++ {
		h := Hop{URL: cur}
		u, addrs, verr := e.validate(ctx, cur, hop > 0, call)
		if hop == 0 && u != nil {
			origin = originOf(u)
		}
		h.Addrs = addrs
		var ref *Refusal
		errors.As(verr, &ref)
		var unresolved *ErrUnresolved
		if errors.As(verr, &unresolved) {
			// Not a refusal: the hop was allowed and failed.
			h.AuditID = e.egress(ctx, call, parent, hop, h)
			e.hopOutcome(ctx, h.AuditID, 0, unresolved)
			resp.Hops = append(resp.Hops, h)
			return resp, unresolved
		}
		if ref == nil && hop > e.opts.MaxRedirects {
			ref = &Refusal{Rule: RuleRedirects, Reason: fmt.Sprintf("the fetch was refused: it was redirected more than %d times; fetch the final URL directly if it is public", max(e.opts.MaxRedirects, 0))}
		}
		h.Refused = ref
		h.AuditID = e.egress(ctx, call, parent, hop, h)
		if ref != nil {
			resp.Hops = append(resp.Hops, h)
			return resp, ref
		}
		var header http.Header
		if originOf(u) == origin {
			header = req.Header
		}
		r, err := e.request(ctx, u, addrs, header)
		if err != nil {
			e.hopOutcome(ctx, h.AuditID, 0, err)
			resp.Hops = append(resp.Hops, h)
			var rr *Refusal
			if errors.As(err, &rr) {
				return resp, rr
			}
			return resp, fmt.Errorf("fetching %s: %w", cur, err)
		}
		h.Status = r.StatusCode
		loc := r.Header.Get("Location")
		if r.StatusCode >= 300 && r.StatusCode < 400 && loc != "" {
			h.Location = loc
			r.Body.Close()
			e.hopOutcome(ctx, h.AuditID, r.StatusCode, nil)
			resp.Hops = append(resp.Hops, h)
			next, err := u.Parse(loc)
			if err != nil {
				return resp, &Refusal{Rule: RuleMalformed, Reason: fmt.Sprintf("the fetch was refused: %s redirected to %q, which is not a URL", cur, loc)}
			}
			cur = next.String()
			continue
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, e.opts.MaxBytes+1))
		r.Body.Close()
		e.hopOutcome(ctx, h.AuditID, r.StatusCode, err)
		resp.Hops = append(resp.Hops, h)
		if err != nil {
			return resp, fmt.Errorf("reading %s: %w", cur, err)
		}
		if int64(len(body)) > e.opts.MaxBytes {
			body, resp.Truncated = body[:e.opts.MaxBytes], true
		}
		resp.URL, resp.Status, resp.Header, resp.Body = cur, r.StatusCode, r.Header, body
		return resp, nil
	}
}

// ErrUnresolved is the failure of a fetch whose host does not resolve: a
// network failure, not a refusal.
type ErrUnresolved struct {
	URL, Host string
	Err       error
}

func (e *ErrUnresolved) Error() string {
	return fmt.Sprintf("%s: its host %q does not resolve (%v)", e.URL, e.Host, e.Err)
}

func (e *ErrUnresolved) Unwrap() error { return e.Err }

// validate runs the pre-DNS checks on raw, then resolves its host and
// checks every address. A redirect hop is judged by the gate too. The
// error is a *Refusal, or an *ErrUnresolved when the host does not
// resolve.
func (e *Executor) validate(ctx context.Context, raw string, redirect bool, call toolwall.Call) (*url.URL, []netip.Addr, error) {
	refuse := func(rule, format string, args ...any) (*url.URL, []netip.Addr, error) {
		return nil, nil, &Refusal{Rule: rule, Reason: "fetching " + strconv.Quote(raw) + " was refused: " + fmt.Sprintf(format, args...)}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return refuse(RuleMalformed, "it is not a URL (%v). Send a plain https://host/path URL.", errors.Unwrap(err))
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && e.opts.AllowHTTP:
	default:
		return refuse(RuleScheme, "only https:// URLs are fetched%s, and %q is not one. Use the https:// form of the page.", map[bool]string{true: " (and http://)"}[e.opts.AllowHTTP], u.Scheme+":")
	}
	if u.User != nil {
		return refuse(RuleUserinfo, "it carries user information before the host (%q), a known way to disguise the real host and to leak credentials. Remove it.", u.User.Username()+"@")
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return refuse(RuleMalformed, "it names no host.")
	}
	// Pre-DNS: the host as Go will dial it, and as other URL parsers read
	// it (places.ParseURL: every IPv4 spelling, IPv6 forms, Unicode tricks).
	var literal netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		literal = a
	} else if t, perr := places.ParseURL(raw); perr == nil && t.Addr.IsValid() {
		return refuse(RuleHost, "its host %q is the address %s in a disguised spelling (%s). Name the host plainly.", host, t.Addr, t.Odd)
	}
	if t, perr := places.ParseURL(raw); perr != nil {
		return refuse(RuleMalformed, "its host cannot be read unambiguously (%v).", errors.Unwrap(perr))
	} else if !literal.IsValid() && t.Network != places.Public {
		return refuse(RuleHost, "its host %q is %s address space before DNS is even asked. Fetch public hosts only.", t.Host, t.Network)
	}
	if literal.IsValid() {
		if err := e.policy.Check(literal); err != nil {
			return refuse(RuleHost, "its host is %v, which a fetch must not reach. Fetch public hosts only.", err)
		}
	} else if why, blocked := netguard.BlockedName(host); blocked {
		return refuse(RuleHost, "its host %q is %s. Fetch public hosts only.", host, why)
	}
	// A redirect target is a fetch no one asked the gate about yet.
	if redirect {
		v := e.boundary.Gate
		if v == nil {
			return refuse(RuleHop, "there is no gate to judge the redirect target.")
		}
		hc := call
		hc.Tool, hc.Input = toolwall.ToolWebFetch, mustJSON(map[string]string{"url": raw})
		if verdict := v.Evaluate(ctx, hc); verdict.Action.Stops() {
			return refuse(RuleHop, "it is a redirect target the gate does not allow (%s): %s", strings.Join(verdict.Rules(), ", "), verdict.Reason)
		}
	}
	if literal.IsValid() {
		return u, []netip.Addr{literal.Unmap()}, nil
	}
	// DNS, once; every answer must pass, and the connection is pinned to
	// these answers.
	addrs, err := e.opts.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		if err == nil {
			err = errors.New("no address")
		}
		return nil, nil, &ErrUnresolved{URL: raw, Host: host, Err: err}
	}
	var bad []string
	for _, a := range addrs {
		if err := e.policy.Check(a); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) > 0 {
		return refuse(RuleAddress, "%q resolves to %s, which a fetch must not reach (a name pointing inside is how DNS rebinding works). Fetch public hosts only.", host, strings.Join(bad, "; "))
	}
	pinned := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		pinned[i] = a.Unmap()
	}
	return u, pinned, nil
}

// originOf is u's scheme, host and port, as a redirect compares them.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	return u.Scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// request makes one request to u over a connection pinned to addrs, with
// redirects off, sending header.
func (e *Executor) request(ctx context.Context, u *url.URL, addrs []netip.Addr, header http.Header) (*http.Response, error) {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	pn, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return nil, &Refusal{Rule: RuleMalformed, Reason: fmt.Sprintf("the port %q is not a number", port)}
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	r.Header.Set("User-Agent", e.opts.UserAgent)
	if e.opts.Reuse {
		return e.pinned(u.Scheme, uint16(pn), addrs).Do(r)
	}
	client := e.newClient(uint16(pn), addrs, false)
	defer client.CloseIdleConnections()
	return client.Do(r)
}

// pinned returns the kept client for the address set addrs on port (see
// Options.Reuse), making it when there is none.
func (e *Executor) pinned(scheme string, port uint16, addrs []netip.Addr) *http.Client {
	set := slices.Clone(addrs)
	slices.SortFunc(set, netip.Addr.Compare)
	set = slices.Compact(set)
	parts := make([]string, len(set))
	for i, a := range set {
		parts[i] = a.String()
	}
	key := scheme + " " + strconv.Itoa(int(port)) + " " + strings.Join(parts, ",")
	e.mu.Lock()
	defer e.mu.Unlock()
	if i := slices.IndexFunc(e.clients, func(c *pinnedClient) bool { return c.key == key }); i >= 0 {
		c := e.clients[i]
		e.clients = append(slices.Delete(e.clients, i, i+1), c)
		return c.client
	}
	c := &pinnedClient{key: key, client: e.newClient(port, set, true)}
	e.clients = append(e.clients, c)
	if len(e.clients) > MaxClients {
		e.clients[0].client.CloseIdleConnections()
		e.clients = slices.Delete(e.clients, 0, 1)
	}
	return c.client
}

// Clients returns how many pinned clients Options.Reuse keeps now.
func (e *Executor) Clients() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.clients)
}

// newClient returns a client whose every connection goes to one of addrs
// on port, with no proxy and redirects off; keep says whether idle
// connections are kept for reuse.
func (e *Executor) newClient(pn uint16, addrs []netip.Addr, keep bool) *http.Client {
	dial := e.opts.Dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: 10 * time.Second, Control: pinnedControl(addrs)}).DialContext
	}
	tr := &http.Transport{
		Proxy: nil, // a proxy would resolve the name again
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var errs []error
			for _, a := range addrs {
				c, err := dial(ctx, "tcp", netip.AddrPortFrom(a, pn).String())
				if err == nil {
					return c, nil
				}
				errs = append(errs, err)
			}
			return nil, errors.Join(errs...)
		},
		TLSClientConfig:        e.opts.TLS.Clone(),
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  e.opts.Timeout,
		MaxResponseHeaderBytes: 64 << 10,
		DisableKeepAlives:      !keep,
		IdleConnTimeout:        90 * time.Second,
		ForceAttemptHTTP2:      true,
	}
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// pinnedControl refuses a connection to any address outside addrs: a
// second line behind the pinned dial.
func pinnedControl(addrs []netip.Addr) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !slices.Contains(addrs, ap.Addr().Unmap()) {
			return &Refusal{Rule: RuleAddress, Reason: fmt.Sprintf("the connection to %s is not to a validated address", address)}
		}
		return nil
	}
}

// egress writes a hop's egress record, before it connects.
func (e *Executor) egress(ctx context.Context, call toolwall.Call, parent string, hop int, h Hop) string {
	if e.opts.Audit == nil {
		return ""
	}
	v := toolwall.Verdict{Action: toolwall.Allow}
	if h.Refused != nil {
		v = toolwall.Verdict{Action: toolwall.Deny, Band: toolwall.Critical, Score: 1, Reason: h.Refused.Reason,
			Findings: []toolwall.Finding{{Analyzer: "executor:fetch", Rule: h.Refused.Rule, Category: "ssrf", Score: 1, Action: toolwall.Deny, Reason: h.Refused.Reason}}}
	}
	in := mustJSON(struct {
		URL    string       `json:"url"`
		Hop    int          `json:"hop"`
		Addrs  []netip.Addr `json:"addrs,omitempty"`
		Parent string       `json:"parent,omitempty"`
	}{h.URL, hop, h.Addrs, parent})
	id := audit.NewID()
	rec := audit.Record{ID: id, At: time.Now(), Driver: "executor:fetch:egress", Session: call.Session, Turn: call.Turn,
		Caller: call.Caller, Tool: call.Tool, Input: in, Verdict: v}
	if err := e.opts.Audit.Record(ctx, rec); err != nil {
		return ""
	}
	return id
}

func (e *Executor) hopOutcome(ctx context.Context, id string, status int, err error) {
	if id == "" {
		return
	}
	o := audit.Outcome{Success: err == nil && status < 400}
	if err != nil {
		o.Error = err.Error()
	} else {
		o.Error = map[bool]string{true: "HTTP " + strconv.Itoa(status)}[status >= 400]
	}
	_ = e.opts.Audit.Outcome(context.WithoutCancel(ctx), id, o)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// render is the text the model sees: the body when it is text, a note
// otherwise, with the status for an error and a note when cut.
func render(r *Response) string {
	var b strings.Builder
	if r.Status >= 400 {
		fmt.Fprintf(&b, "HTTP %d %s\n", r.Status, http.StatusText(r.Status))
	}
	if utf8.Valid(r.Body) {
		b.Write(r.Body)
	} else {
		fmt.Fprintf(&b, "[binary body: %d bytes of %s]", len(r.Body), r.Header.Get("Content-Type"))
	}
	if r.Truncated {
		fmt.Fprintf(&b, "\n[toolwall: body cut at %d bytes]", len(r.Body))
	}
	return b.String()
}
