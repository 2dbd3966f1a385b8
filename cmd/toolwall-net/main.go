package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/policy"
)

func main() { os.Exit(run(os.Args[1:])) }

// run executes the command line and returns the exit status: 0, or 1
// with the error on stderr.
func run(args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "toolwall:", err)
	return 1
}

// exitError carries a command's exit status out of it (toolwall fetch:
// 1 an HTTP or network failure, 2 refused, 3 the gate asks).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// configPath is the --config flag.
var configPath string

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "toolwall-net",
		Short:         "toolwall's network drivers: the HTTP decision server and the MCP proxy",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVar(&configPath, "config", "", "configuration file (default $TOOLWALL_CONFIG, else $XDG_CONFIG_HOME/toolwall/config.toml, else ~/.config/toolwall/config.toml)")
	root.AddCommand(newServe(), newMCPProxy(), newFetch(), newSearch(), newAuditServe(), newAudit(), newExplain())
	return root
}

// logger writes Info and above to stderr (stdout is the MCP proxy's
// protocol stream).
func logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// loadConfig reads the configuration of --config or the default place.
func loadConfig() (*policy.Config, error) { return policy.Load(configPath) }

// openAudit opens the audit store the configuration names ([audit]),
// beside the state database of --state (the hook's by default): a nil
// Sink when auditing is off. The caller closes the returned Store.
func openAudit(cfg *policy.Config, state string) (audit.Sink, audit.Store, error) {
	path, err := engine.StatePath(state, cfg)
	if err != nil {
		return nil, nil, err
	}
	st := engine.StoresFor(cfg, path).Audit()
	if st == nil {
		return nil, nil, nil
	}
	return st, st, nil
}

// printOutput prints an executor's output for `toolwall fetch` and
// `search`: the text on stdout (an error on stderr; newline adds a final
// newline), or with asJSON the text, the flags and the verdict; and
// returns the exit status: 0 done, 1 an HTTP or network failure, 2
// refused, 3 the gate asks (--yes approves).
func printOutput(cmd *cobra.Command, out *executor.Output, asJSON, newline bool) error {
	switch {
	case asJSON:
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Text      string            `json:"text"`
			IsError   bool              `json:"is_error"`
			Truncated bool              `json:"truncated"`
			Verdict   *toolwall.Verdict `json:"verdict,omitempty"`
		}{out.Text, out.IsError, out.Truncated, out.Verdict}); err != nil {
			return err
		}
	case out.IsError:
		fmt.Fprintln(cmd.ErrOrStderr(), out.Text)
	case newline:
		fmt.Fprintln(cmd.OutOrStdout(), out.Text)
	default:
		fmt.Fprint(cmd.OutOrStdout(), out.Text)
	}
	switch {
	case out.Confirm != nil:
		return exitError{3}
	case out.IsError && strings.HasPrefix(out.Text, "refused by toolwall ["):
		return exitError{2}
	case out.IsError:
		return exitError{1}
	}
	return nil
}
