package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"
)

// netBinary is the program that runs the network drivers. They live in a
// binary of their own (cmd/toolwall-net) so that this one, which the hook
// starts for every tool call, does not initialize their libraries
// (Prometheus, pgx, the MCP SDK: about 2 ms at start-up).
const netBinary = "toolwall-net"

// newNet returns `toolwall serve`, `mcp-proxy`, `fetch` and `search`,
// which run toolwall-net with the same arguments.
func newNet() []*cobra.Command {
	return []*cobra.Command{
		netCommand("serve", "Run the HTTP decision server", "serve"),
		netCommand("mcp-proxy", "Stand between an MCP client and an MCP server, judging every tools/call", "mcp-proxy"),
		netCommand("fetch", "Fetch a URL through the fetch executor, with the SSRF defence", "fetch"),
		netCommand("search", "Search the web through the web_search executor (off unless [search] enables it)", "search"),
	}
}

// netCommand is a command named use that runs toolwall-net's command
// netName with its arguments (and --config): everything that needs
// net/http lives there (audit serve, fetch, the server, the proxy), so
// that this binary, which the hook starts for every tool call, neither
// links nor initializes it.
func netCommand(use, short, netName string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short + " (runs " + netBinary + ")",
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			args = append([]string{netName}, args...)
			if configPath != "" {
				args = append([]string{"--config", configPath}, args...)
			}
			return runNet(args)
		},
	}
}

// findNet finds toolwall-net beside this executable, else on the PATH.
func findNet() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), netBinary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(netBinary)
	if err != nil {
		return "", fmt.Errorf("%s is not installed beside toolwall nor on the PATH; install it with `go install ./cmd/toolwall-net` (or `go install ./cmd/...`)", netBinary)
	}
	return p, nil
}

// runNet runs toolwall-net with args, passing stdin, stdout, stderr and
// signals through, and returns its exit status.
func runNet(args []string) error {
	p, err := findNet()
	if err != nil {
		return err
	}
	return execNet(p, args)
}
