package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"golang.org/x/net/http/httpguts"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/mcpproxy"
)

// envUpstreamToken names the environment variable whose value is sent
// to an --upstream server as "Authorization: Bearer <value>" when
// --bearer-token-file is not given.
const envUpstreamToken = "TOOLWALL_UPSTREAM_TOKEN"

type proxyFlags struct {
	name, upstream, state, cwd string
	noState                    bool
	headers                    []string // --header "Name: value"
	tokenFile                  string   // --bearer-token-file
}

func newMCPProxy() *cobra.Command {
	var f proxyFlags
	cmd := &cobra.Command{
		Use:   "mcp-proxy [--name NAME] (-- SERVER-COMMAND [ARGS...] | --upstream URL)",
		Short: "Stand between an MCP client and an MCP server, judging every tools/call",
		Long: `Speak MCP on stdin/stdout to the client and forward to the real server:
a command started as a process (after --) or a streamable HTTP URL
(--upstream). Every tools/call is judged first, under the tool id
mcp:NAME/TOOL; a refused call comes back as a tool result with isError and
the reason and never reaches the server. tools/list passes through; a tool
list that changes after the first listing is reported on stderr and in
the audit log.

Credentials for an --upstream server: --header "Name: value" (repeatable)
sends a header with every request to it, and a bearer token read from
--bearer-token-file, else from $TOOLWALL_UPSTREAM_TOKEN, is sent as
"Authorization: Bearer TOKEN", so a secret need not be on the command
line (an MCP client's server entry can set the variable in its "env").
Headers go only to the upstream's own origin (scheme, host and port),
never after a redirect elsewhere; their values are never logged.

Session memory is the hook's state file (--state, $TOOLWALL_STATE, ...);
--no-state keeps none. A broken configuration refuses every call.`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.upstream == "" && len(args) == 0:
				return errors.New("give the server command after --, or --upstream URL")
			case f.upstream != "" && len(args) > 0:
				return errors.New("give either a server command or --upstream, not both")
			case f.upstream == "" && (len(f.headers) > 0 || f.tokenFile != ""):
				return errors.New("--header and --bearer-token-file are sent to an --upstream server; a server command gets its credentials from its own environment or arguments")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runProxy(cmd.Context(), f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.name, "name", "", "the server's name in tool ids mcp:NAME/TOOL (default: the command's base name, or the URL's host)")
	fl.StringVar(&f.upstream, "upstream", "", "URL of a streamable HTTP MCP server")
	fl.StringVar(&f.state, "state", "", "session state database (default $TOOLWALL_STATE, else the hook's)")
	fl.BoolVar(&f.noState, "no-state", false, "keep no session memory")
	fl.StringVar(&f.cwd, "cwd", "", "directory relative paths and the project are judged against (default: the current directory)")
	fl.StringArrayVar(&f.headers, "header", nil, `header sent with every request to the --upstream server, "Name: value" (repeatable; values are never logged)`)
	fl.StringVar(&f.tokenFile, "bearer-token-file", "", "file holding a bearer token sent to the --upstream server as Authorization: Bearer (default $"+envUpstreamToken+")")
	return cmd
}

func runProxy(ctx context.Context, f proxyFlags, args []string) error {
	log := logger()
	name := f.name
	var upstream mcp.Transport
	protocol := ""
	if f.upstream != "" {
		protocol = mcpproxy.LegacyProtocol
		u, err := url.Parse(f.upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return fmt.Errorf("--upstream %q: want an http or https URL", f.upstream)
		}
		if name == "" {
			name = u.Hostname()
		}
		header, err := upstreamHeader(f.headers, f.tokenFile)
		if err != nil {
			return err
		}
		st := &mcp.StreamableClientTransport{Endpoint: f.upstream}
		if len(header) > 0 {
			var names []string
			for k := range header {
				names = append(names, k)
			}
			slices.Sort(names)
			log.Info("toolwall mcp-proxy: sending headers to the upstream server", "upstream", u.Host, "headers", names)
			if u.Scheme == "http" && !loopback(u.Hostname()) {
				log.Warn("toolwall mcp-proxy: credentials go to the upstream server over plain http, readable by anyone on the path; use https", "upstream", u.Host, "headers", names)
			}
			st.HTTPClient = &http.Client{Transport: &headerTransport{base: http.DefaultTransport, origin: u, header: header}}
		}
		upstream = st
	} else {
		if name == "" {
			name = filepath.Base(args[0])
		}
		c := exec.Command(args[0], args[1:]...)
		c.Stderr = os.Stderr
		upstream = &mcp.CommandTransport{Command: c}
	}
	cwd := f.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	var shield toolwall.Shield
	var sink audit.Sink
	var approvals host.Approver
	cfg, err := loadConfig()
	if err != nil {
		// Fail closed, visibly, as the hook does.
		log.Error("toolwall mcp-proxy: configuration error; every call will be refused", "err", err)
		shield = engine.Broken{Err: err}
	} else {
		var as audit.Store
		if sink, as, err = openAudit(cfg, f.state); err != nil {
			return fmt.Errorf("audit store: %w", err)
		}
		if as != nil {
			defer as.Close()
		}
		mem := engine.Persistent
		if f.noState {
			mem = engine.NoMemory
		}
		if path, err := engine.StatePath(f.state, cfg); err == nil {
			if ap := engine.StoresFor(cfg, path).Approvals(); ap != nil {
				approvals = ap
			}
		}
		e := engine.New(engine.Options{Config: cfg, ConfigPath: configPath, State: f.state, Memory: mem, Places: engine.Installed, Logger: log})
		defer e.Close()
		shield = e
	}
	p, err := mcpproxy.New(mcpproxy.Options{Name: name, Shield: shield, Cwd: cwd, Project: cwd, Home: engine.UserHome(), Logger: log, ProtocolVersion: protocol, Audit: sink, Approvals: approvals})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := p.Connect(ctx, upstream); err != nil {
		return err
	}
	defer p.Close()
	log.Info("toolwall mcp-proxy: serving on stdio", "server", name, "session", p.Session())
	if err := p.Serve(ctx, p.Lines(os.Stdin, stdout{})); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// transportHeaders are the headers the MCP streamable HTTP transport sets
// itself; a --header naming one would break the protocol.
var transportHeaders = []string{"Accept", "Connection", "Content-Length", "Content-Type", "Host", "Last-Event-Id", "Mcp-Protocol-Version", "Mcp-Session-Id", "Transfer-Encoding"}

// upstreamHeader returns the headers sent to an --upstream server: each
// --header "Name: value", and "Authorization: Bearer TOKEN" with the
// token read from tokenFile, else from $TOOLWALL_UPSTREAM_TOKEN. Errors
// name a header by its name or position, never by its value.
func upstreamHeader(headers []string, tokenFile string) (http.Header, error) {
	h := http.Header{}
	for i, line := range headers {
		name, value, ok := strings.Cut(line, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok || !httpguts.ValidHeaderFieldName(name):
			return nil, fmt.Errorf("--header number %d: want \"Name: value\", a header name, a colon and the value", i+1)
		case !httpguts.ValidHeaderFieldValue(value):
			return nil, fmt.Errorf("--header %s: the value holds a line break or another control character", name)
		case slices.Contains(transportHeaders, http.CanonicalHeaderKey(name)):
			return nil, fmt.Errorf("--header %s: the MCP transport sets this header itself", name)
		}
		h.Add(name, value)
	}
	token, from := "", ""
	if tokenFile != "" {
		b, err := os.ReadFile(tokenFile)
		if err != nil {
			return nil, fmt.Errorf("--bearer-token-file: %w", err)
		}
		token, from = strings.TrimSpace(string(b)), "--bearer-token-file "+tokenFile
	} else if v, ok := os.LookupEnv(envUpstreamToken); ok {
		token, from = strings.TrimSpace(v), "$"+envUpstreamToken
	}
	switch {
	case from == "":
		return h, nil
	case token == "" && tokenFile != "":
		return nil, fmt.Errorf("%s holds no token", from)
	case token == "":
		return h, nil // the variable set empty: no token
	case strings.ContainsAny(token, " \t\r\n") || !httpguts.ValidHeaderFieldValue(token):
		return nil, fmt.Errorf("%s: the token holds white space or a control character (one token, on one line)", from)
	case h.Get("Authorization") != "":
		return nil, fmt.Errorf("an Authorization --header and a bearer token from %s: give one", from)
	}
	h.Set("Authorization", "Bearer "+token)
	return h, nil
}

// headerTransport adds header to every request to origin, the --upstream
// URL's scheme, host and port, and to no other: a redirect to another
// origin, or to plain http, does not carry the credentials.
type headerTransport struct {
	base   http.RoundTripper
	origin *url.URL
	header http.Header
}

// RoundTrip implements http.RoundTripper.
func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if !sameOrigin(r.URL, t.origin) {
		return t.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, vs := range t.header {
		r.Header[k] = slices.Clone(vs)
	}
	return t.base.RoundTrip(r)
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (the scheme's default port when none is given), as RFC 6454 compares
// origins.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// loopback reports whether host is a loopback name or address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// stdout is the client's side of the proxy's output; closing the
// connection leaves it open for the process's own messages.
type stdout struct{}

func (stdout) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdout) Close() error                { return nil }
