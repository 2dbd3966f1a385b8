// Command toolwall-llm is toolwall's model helper: it answers one chat
// completion for the later stage (the guardrail and the advisor) in a
// process of its own, so that the toolwall command links no model SDK
// and its hook starts as fast without them. toolwall runs it from its own
// directory; install both with `go install ./cmd/...`. It reads
// {"config": ..., "request": ...} on stdin and writes {"response": ...}
// or {"error": ...} on stdout (package llm/helper); the API key comes
// from the environment variable the configuration names. Given
// {"detect": [ports]} it finds MCP servers on those loopback ports
// (package mcpscan) and answers {"servers": [their names]}.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolwall/toolwall/advisors/guardrail/mcpscan"
	"github.com/toolwall/toolwall/llm/helper"
	"github.com/toolwall/toolwall/llm/providers"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	detect := func(ctx context.Context, ports []int) []string { return mcpscan.Detect(ctx, ports, log) }
	if err := helper.Serve(ctx, os.Stdin, os.Stdout, providers.Open, detect); err != nil {
		fmt.Fprintln(os.Stderr, "toolwall-llm:", err)
		os.Exit(1)
	}
}
