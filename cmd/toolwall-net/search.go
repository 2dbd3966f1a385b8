package main

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/websearch"
	"github.com/toolwall/toolwall/llm/helper"
)

func newSearch() *cobra.Command {
	var (
		count       int
		yes, asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY...",
		Short: "Search the web through the web_search executor (off unless [search] enabled)",
		Long: `Search the web with the provider of the [search] table (Brave's Web Search
API, the key from the variable api_key_env names) through toolwall's gate
and the fetch executor's SSRF defence, and print the ranked results as the
model would get them: untrusted text in one element. The result URLs are
not opened.
  toolwall search go fuzzing tutorial

Exit status: 0 results (or none), 1 a provider or network failure, or web
search not configured, 2 refused, 3 the gate asks (approve with --yes).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if !cfg.Search.Enabled {
				return errors.New("web search is off: set enabled = true in the [search] table of the configuration, and the key in the variable api_key_env names (default BRAVE_API_KEY)")
			}
			sc := cfg.Search
			opts := websearch.Options{Provider: sc.Provider, Endpoint: sc.Endpoint, APIKeyEnv: sc.APIKeyEnv, MaxResults: sc.MaxResults, Timeout: sc.Timeout.Duration}
			opts.Gate = engine.New(engine.Options{Config: cfg, ConfigPath: configPath, Logger: logger(), Dial: helper.Open, Places: engine.Installed})
			w, err := websearch.New(opts)
			if err != nil {
				return err
			}
			ws, done, err := engine.Guard(cfg, w, helper.Open, logger())
			if err != nil {
				return err
			}
			defer done()
			in := map[string]any{"query": strings.Join(args, " ")}
			if count > 0 {
				in["count"] = count
			}
			b, _ := json.Marshal(in)
			out, err := ws.Execute(cmd.Context(), &executor.Request{Call: toolwall.Call{Tool: websearch.Tool, Input: b}, Approved: yes})
			if err != nil {
				return err
			}
			return printOutput(cmd, out, asJSON, true)
		},
	}
	f := cmd.Flags()
	f.IntVar(&count, "count", 0, "results wanted (default [search] max_results)")
	f.BoolVar(&yes, "yes", false, "a human approves a search the gate would ask about (the SSRF defence still applies)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}
