package mcpproxy

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/internal/mcprules"
)

// DefaultTimeout bounds one decision (4 s, as the hook's); past it the
// call is refused.
const DefaultTimeout = 4 * time.Second

// RuleToolListChanged is the id under which a changed tool list is
// reported and recorded (the audit record's finding): a tool whose name,
// description, schemas or annotations differ from the first listing, a
// tool added after it, or one removed ("rug pull"). It is listed by
// `toolwall rules` from package mcprules.
const RuleToolListChanged = mcprules.ToolListChanged

// Options configure a Proxy.
type Options struct {
	// Name is the upstream server's name in tool ids:
	// "mcp:<Name>/<tool>" (default "server").
	Name string
	// Shield judges every call and records what ran; the engine of
	// engine.New. Required.
	Shield toolwall.Shield
	// Audit receives one record per decision, the outcome of each call
	// that ran, and each tool list change; nil means audit.Discard.
	Audit audit.Sink
	// Approvals, when set, lets a person approve an ask the client
	// cannot put to its user (`toolwall approve DECISION-ID`, the id the
	// refusal names): the same call in the same session then passes. It
	// is also where an approval granted earlier is found.
	Approvals host.Approver
	// Session is the session id chain memory is kept under (default
	// "mcp:<Name>:<random>", new for each proxy).
	Session string
	// Cwd, Project and Home are the places calls are judged against
	// (relative paths, "~", the project folder).
	Cwd, Project, Home string
	// Timeout bounds one decision (default DefaultTimeout).
	Timeout time.Duration
	// ProtocolVersion, when set, is the MCP protocol version the proxy
	// asks the upstream server for ("2025-11-25"); empty means the SDK's
	// latest, with its fallback. The SDK's stateful streamable HTTP
	// servers refuse requests in the newest version after accepting
	// server/discover, so toolwall-net pins LegacyProtocol for --upstream.
	ProtocolVersion string
	// Logger receives warnings (refusals, tool list changes) and errors;
	// nil means slog.Default().
	Logger *slog.Logger
}

// Change is one difference between the first tool listing and a later
// one.
type Change struct {
	// Tool is the tool's name.
	Tool string
	// Kind is "changed", "added" or "removed".
	Kind string
}

// Proxy is an MCP server in front of another MCP server: tools/list passes
// through, every tools/call is judged before it is forwarded. Create it
// with New, connect it to the upstream server with Connect, then Serve a
// client.
type Proxy struct {
	opts     Options
	log      *slog.Logger
	audit    audit.Sink
	client   *mcp.Client
	server   *mcp.Server
	upstream *mcp.ClientSession

	mu      sync.Mutex
	first   map[string]string // tool name → fingerprint at the first full listing
	known   bool              // the first listing is complete
	changes []Change

	regMu      sync.Mutex
	registered map[string]bool // names in the SDK's tool set

	pendMu  sync.Mutex
	pending map[string]*pending // asks put to the client's user, by request state
}

// New returns a proxy for opts.
func New(opts Options) (*Proxy, error) {
	if opts.Shield == nil {
		return nil, errors.New("mcpproxy: Options.Shield is required")
	}
	if opts.Name == "" {
		opts.Name = "server"
	}
	if opts.Session == "" {
		opts.Session = "mcp:" + opts.Name + ":" + audit.NewID()[:16]
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	p := &Proxy{opts: opts, log: opts.Logger, audit: opts.Audit}
	if p.log == nil {
		p.log = slog.Default()
	}
	if p.audit == nil {
		p.audit = audit.Discard{}
	}
	p.client = mcp.NewClient(&mcp.Implementation{Name: "toolwall-mcp-proxy", Version: "v1"}, &mcp.ClientOptions{
		Capabilities:           &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(ctx context.Context, _ *mcp.ToolListChangedRequest) { p.refresh(ctx) },
	})
	p.server = mcp.NewServer(&mcp.Implementation{Name: "toolwall-mcp-proxy:" + opts.Name, Version: "v1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		// The SDK's own activity ("server run start") is not the user's
		// business; its warnings and errors are.
		Logger: slog.New(atLeast{p.log.Handler(), slog.LevelWarn}),
	})
	p.server.AddReceivingMiddleware(p.middleware)
	return p, nil
}

// atLeast is a log handler that passes on records of level min and above.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h atLeast) WithAttrs(as []slog.Attr) slog.Handler {
	return atLeast{h.Handler.WithAttrs(as), h.min}
}

func (h atLeast) WithGroup(name string) slog.Handler {
	return atLeast{h.Handler.WithGroup(name), h.min}
}

// ToolID is the id of an MCP tool in toolwall's decisions and audit
// records: "mcp:<server>/<tool>".
func ToolID(server, tool string) string { return "mcp:" + server + "/" + tool }

// LegacyProtocol is the MCP protocol version of the initialize handshake
// that every current server accepts.
const LegacyProtocol = "2025-11-25"

// Connect connects to the upstream server over t (an mcp.CommandTransport
// for a server process, an mcp.StreamableClientTransport for a URL) and
// takes its first tool listing, the one later listings are compared with.
func (p *Proxy) Connect(ctx context.Context, t mcp.Transport) error {
	var opts *mcp.ClientSessionOptions
	if p.opts.ProtocolVersion != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: p.opts.ProtocolVersion}
	}
	cs, err := p.client.Connect(ctx, t, opts)
	if err != nil {
		return fmt.Errorf("mcpproxy: connecting to the upstream server: %w", err)
	}
	p.upstream = cs
	if caps := cs.InitializeResult().Capabilities; caps != nil && caps.Tools != nil {
		p.refresh(ctx)
	}
	return nil
}

// Serve answers one client over t until it disconnects or ctx is done.
func (p *Proxy) Serve(ctx context.Context, t mcp.Transport) error {
	if p.upstream == nil {
		return errors.New("mcpproxy: Serve before Connect")
	}
	return p.server.Run(ctx, t)
}

// Server returns the downstream MCP server, for callers that connect
// their own transports (mcp.NewStreamableHTTPHandler, tests).
func (p *Proxy) Server() *mcp.Server { return p.server }

// Session returns the session id calls are judged and recorded under.
func (p *Proxy) Session() string { return p.opts.Session }

// Changes returns the tool list changes seen since the first listing.
func (p *Proxy) Changes() []Change {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.changes)
}

// Close closes the connection to the upstream server (and so stops a
// server process the proxy started).
func (p *Proxy) Close() error {
	if p.upstream == nil {
		return nil
	}
	return p.upstream.Close()
}

// middleware answers tools/list from upstream, as upstream lists its
// tools; every other method is the SDK's. A tools/call reaches the tool
// the proxy registered under the same name (see register), through the
// SDK's multi-round-trip handling, which carries an elicitation to the
// client whatever protocol version it speaks.
func (p *Proxy) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.ListToolsRequest); ok {
			return p.listTools(ctx, r)
		}
		return next(ctx, method, req)
	}
}

// register keeps the SDK's tool set in step with upstream's tools, so that
// every tools/call reaches callTool: new names are added, changed ones
// added again, removed ones removed. Each change notifies the client that
// the list changed. The registered schema accepts any object: the client
// sees upstream's own definitions (tools/list is passed through), and
// arguments are checked by upstream.
func (p *Proxy) register(tools []*mcp.Tool, changed []Change) {
	p.regMu.Lock()
	defer p.regMu.Unlock()
	if p.registered == nil {
		p.registered = map[string]bool{}
	}
	add := func(name string) {
		p.server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, p.callTool)
		p.registered[name] = true
	}
	for _, t := range tools {
		if t != nil && !p.registered[t.Name] {
			add(t.Name)
		}
	}
	for _, c := range changed {
		switch c.Kind {
		case "changed":
			add(c.Tool)
		case "removed":
			p.server.RemoveTools(c.Tool)
			delete(p.registered, c.Tool)
		}
	}
}

// listTools passes a tools/list through, noting changes.
func (p *Proxy) listTools(ctx context.Context, req *mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	params := req.Params
	if params == nil {
		params = &mcp.ListToolsParams{}
	}
	res, err := p.upstream.ListTools(ctx, &mcp.ListToolsParams{Cursor: params.Cursor})
	if err != nil {
		return nil, err
	}
	p.observe(ctx, res.Tools, params.Cursor == "" && res.NextCursor == "")
	return res, nil
}

// refresh lists every upstream tool, notes changes, and tells the client
// its list changed (after an upstream notification).
func (p *Proxy) refresh(ctx context.Context) {
	if p.upstream == nil {
		return
	}
	var tools []*mcp.Tool
	for t, err := range p.upstream.Tools(ctx, nil) {
		if err != nil {
			p.log.Warn("toolwall mcp-proxy: cannot list the upstream tools", "server", p.opts.Name, "err", err)
			return
		}
		tools = append(tools, t)
	}
	p.observe(ctx, tools, true)
}

// fingerprint identifies everything the model reads of a tool.
func fingerprint(t *mcp.Tool) string {
	b, err := json.Marshal(struct {
		Title        string               `json:"title"`
		Description  string               `json:"description"`
		InputSchema  any                  `json:"inputSchema"`
		OutputSchema any                  `json:"outputSchema"`
		Annotations  *mcp.ToolAnnotations `json:"annotations"`
		Meta         map[string]any       `json:"_meta"`
	}{t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations, t.Meta})
	if err != nil {
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// observe compares a listing with the first one; complete says tools is
// the whole list (so a missing tool was removed).
func (p *Proxy) observe(ctx context.Context, tools []*mcp.Tool, complete bool) {
	p.mu.Lock()
	if !p.known {
		if p.first == nil {
			p.first = map[string]string{}
		}
		for _, t := range tools {
			if t != nil {
				p.first[t.Name] = fingerprint(t)
			}
		}
		p.known = complete
		p.mu.Unlock()
		p.register(tools, nil)
		return
	}
	var found []Change
	seen := map[string]bool{}
	for _, t := range tools {
		if t == nil {
			continue
		}
		seen[t.Name] = true
		fp, ok := p.first[t.Name]
		switch {
		case !ok:
			found = append(found, Change{Tool: t.Name, Kind: "added"})
		case fp != fingerprint(t):
			found = append(found, Change{Tool: t.Name, Kind: "changed"})
		}
	}
	if complete {
		for name := range p.first {
			if !seen[name] {
				found = append(found, Change{Tool: name, Kind: "removed"})
			}
		}
	}
	slices.SortFunc(found, func(a, b Change) int { return cmp.Or(cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Kind, b.Kind)) })
	var fresh []Change
	for _, c := range found {
		if !slices.Contains(p.changes, c) {
			fresh = append(fresh, c)
			p.changes = append(p.changes, c)
		}
	}
	p.mu.Unlock()
	p.register(tools, fresh)
	if len(fresh) > 0 {
		p.report(ctx, fresh)
	}
}

// report logs and records tool list changes.
func (p *Proxy) report(ctx context.Context, changes []Change) {
	var parts []string
	for _, c := range changes {
		parts = append(parts, c.Kind+" "+strconv.Quote(c.Tool))
	}
	reason := fmt.Sprintf("The MCP server %q changed its tool list after the first listing (%s). A tool that changes its description or schema after it was approved can smuggle new instructions to the model (a \"rug pull\"); review the server before relying on it.", p.opts.Name, strings.Join(parts, ", "))
	p.log.Warn("toolwall mcp-proxy: tool list changed after the first listing", "server", p.opts.Name, "changes", strings.Join(parts, ", "))
	f := toolwall.Finding{Analyzer: mcprules.Analyzer, Rule: RuleToolListChanged, Category: "mcp", Score: 0.4, Action: toolwall.Warn, Reason: reason}
	rec := audit.Record{
		ID: audit.NewID(), At: time.Now().UTC(), Driver: "mcp-proxy", Session: p.opts.Session,
		Tool:    ToolID(p.opts.Name, "tools/list"),
		Verdict: toolwall.Verdict{Action: toolwall.Warn, Band: toolwall.Medium, Score: f.Score, Reason: reason, Findings: []toolwall.Finding{f}},
	}
	if err := p.audit.Record(ctx, rec); err != nil {
		p.log.Error("toolwall mcp-proxy: audit record not written", "err", err)
	}
}
