package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/mcpproxy"
)

type proxyFlags struct {
	name, upstream, state, cwd string
	noState                    bool
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

Session memory is the hook's state file (--state, $TOOLWALL_STATE, ...);
--no-state keeps none. A broken configuration refuses every call.`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.upstream == "" && len(args) == 0:
				return errors.New("give the server command after --, or --upstream URL")
			case f.upstream != "" && len(args) > 0:
				return errors.New("give either a server command or --upstream, not both")
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
		upstream = &mcp.StreamableClientTransport{Endpoint: f.upstream}
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
		e := engine.New(engine.Options{Config: cfg, ConfigPath: configPath, State: f.state, Memory: mem, Places: engine.Installed, Logger: log})
		defer e.Close()
		shield = e
	}
	p, err := mcpproxy.New(mcpproxy.Options{Name: name, Shield: shield, Cwd: cwd, Project: cwd, Home: engine.UserHome(), Logger: log, ProtocolVersion: protocol, Audit: sink})
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
	if err := p.Serve(ctx, &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
