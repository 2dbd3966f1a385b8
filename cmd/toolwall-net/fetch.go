package main

import (
	"encoding/json"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/fetch"
	"github.com/toolwall/toolwall/llm/helper"
)

// newFetch is `toolwall fetch`: one URL through the fetch executor. It
// lives here, not in the hook's binary, for net/http and crypto/tls.
func newFetch() *cobra.Command {
	var (
		maxBytes         int64
		timeout          time.Duration
		allowHTTP, yes   bool
		asJSON           bool
		maxRedirectsFlag int
	)
	cmd := &cobra.Command{
		Use:   "fetch [flags] URL",
		Short: "Fetch a URL through the fetch executor, with the SSRF defence",
		Long: `Fetch a public https URL and print its body, through toolwall's gate and the
fetch executor's SSRF defence: https only, no internal names, every resolved
address checked and the connection pinned to it, at most 3 redirects each
checked again, size and time bounded.
  toolwall fetch https://go.dev/doc/

Exit status: 0 fetched (2xx or 3xx without Location), 1 an HTTP error status
or a network failure, 2 refused, 3 the gate asks (approve with --yes).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			f := fetch.New(fetch.Options{
				Gate:         engine.New(engine.Options{Config: cfg, ConfigPath: configPath, Logger: logger(), Dial: helper.Open, Places: engine.Installed}),
				AllowHTTP:    allowHTTP,
				MaxBytes:     maxBytes,
				Timeout:      timeout,
				MaxRedirects: maxRedirectsFlag,
			})
			e, done, err := engine.Guard(cfg, f, helper.Open, logger())
			if err != nil {
				return err
			}
			defer done()
			in, _ := json.Marshal(map[string]string{"url": args[0]})
			out, err := e.Execute(cmd.Context(), &executor.Request{Call: toolwall.Call{Tool: toolwall.ToolWebFetch, Input: in}, Approved: yes})
			if err != nil {
				return err
			}
			return printOutput(cmd, out, asJSON, false)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&maxBytes, "max-bytes", fetch.DefaultMaxBytes, "bytes of the body kept")
	f.DurationVar(&timeout, "timeout", fetch.DefaultTimeout, "bound on the whole fetch, redirects included")
	f.IntVar(&maxRedirectsFlag, "max-redirects", fetch.DefaultMaxRedirects, "redirects followed, each re-validated (-1 for none)")
	f.BoolVar(&allowHTTP, "allow-http", false, "also fetch http:// URLs")
	f.BoolVar(&yes, "yes", false, "a human approves a fetch the gate would ask about (the SSRF defence still applies)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}
