package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/shell"
	"github.com/toolwall/toolwall/llm/helper"
)

// ExitTimeout is toolwall run's exit status when --timeout killed the
// command: timeout(1)'s.
const ExitTimeout = 124

func newRun() *cobra.Command {
	var (
		cwd, project, ctxName string
		timeout               time.Duration
		maxOutput             int
		sandbox, tx, yes      bool
		asJSON                bool
	)
	cmd := &cobra.Command{
		Use:   "run [flags] -- COMMAND...",
		Short: "Run a shell command through the shell executor, re-checked by the gate",
		Long: `Run a shell command with bash -c after toolwall's gate has judged it (the
re-check at the execution boundary). The command's words after --
are joined by spaces:
  toolwall run -- 'go test ./... 2>&1 | tail -20'

A refused command is not started: toolwall prints the rule and the reason on
stderr and exits 126. A command the gate would ask about is refused the same
way unless --yes says a human approved it (a deny is refused whatever).
Otherwise stdout and stderr are the command's, and so is the exit status
(128+N when signal N ended it). A command still running after --timeout is
killed with its whole process group; toolwall says so on stderr and exits
124, as timeout(1) does.

--sandbox confines the command with Landlock (Linux): it may write only in
the project and the temporary directory, and read only those and the system
directories. --transaction snapshots what the command may change and puts it
back, byte for byte, when it exits non-zero; a command whose snapshot would
exceed 64 MiB or 20000 files is refused (126).

With [adversarial] enabled in the configuration, a model is asked ALLOW or
DENY before the command runs (the adversarial policy gate); a DENY, or no
opinion under on_error = "deny", refuses it (126), and the decision is in
the audit log (toolwall explain ID shows the model's answer).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("nothing to run: give a command after --")
			}
			ctx := toolwall.ExecContext(ctxName)
			if ctx != toolwall.UserContext && ctx != toolwall.RootContext {
				return fmt.Errorf("--context must be user or root, got %q", ctxName)
			}
			wd, _ := os.Getwd()
			dir, err := absPath(orDefault(cwd, wd))
			if err != nil {
				return err
			}
			proj, err := absPath(orDefault(project, dir))
			if err != nil {
				return err
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			opts := shell.Options{
				Gate:         newEngine(cfg, engine.Options{Places: engine.Installed}),
				Context:      ctx,
				Project:      proj,
				Timeout:      timeout,
				MaxOutput:    maxOutput,
				Environments: executor.Environments{Cwd: dir},
			}
			if sandbox {
				opts.Sandbox = &shell.Sandbox{}
			}
			if tx {
				opts.Transaction = &shell.Transaction{}
			}
			req := &executor.Request{Call: toolwall.NewBashCall(strings.Join(args, " ")), Approved: yes}
			req.Call.Cwd, req.Call.Project = dir, proj
			ex, done, err := engine.Guard(cfg, shell.New(opts), helper.Open, logger())
			if err != nil {
				return err
			}
			defer done()
			out, err := ex.Execute(cmd.Context(), req)
			if err != nil {
				return err
			}
			p := out.Process
			if p == nil {
				// Refused before the shell executor: by the adversarial
				// policy gate.
				if asJSON {
					enc := json.NewEncoder(cmd.OutOrStdout())
					enc.SetIndent("", "  ")
					_ = enc.Encode(struct {
						Text    string            `json:"text"`
						Verdict *toolwall.Verdict `json:"verdict,omitempty"`
					}{out.Text, out.Verdict})
				} else {
					fmt.Fprintln(cmd.ErrOrStderr(), out.Text)
				}
				return exitError{shell.ExitRefused}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(struct {
					*executor.Envelope
					Verdict *toolwall.Verdict `json:"verdict,omitempty"`
				}{p, out.Verdict}); err != nil {
					return err
				}
			} else {
				fmt.Fprint(cmd.OutOrStdout(), p.Stdout)
				fmt.Fprint(cmd.ErrOrStderr(), p.Stderr)
				if p.ExitCode == shell.ExitRefused && p.Duration == 0 {
					fmt.Fprintln(cmd.ErrOrStderr())
				}
				if p.RolledBack {
					fmt.Fprintf(cmd.ErrOrStderr(), "toolwall: the command failed; its file changes were rolled back (checkpoint %s)\n", p.Checkpoint)
				}
			}
			if p.TimedOut && cmd.Context().Err() == nil {
				// The timeout, not an interrupt of toolwall itself.
				if !asJSON {
					fmt.Fprintf(cmd.ErrOrStderr(), "toolwall: the command was still running after --timeout %v and was killed (its whole process group)\n", timeout)
				}
				return exitError{ExitTimeout}
			}
			if p.ExitCode != 0 {
				return exitError{p.ExitCode}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cwd, "cwd", "", "working directory (default: the current directory)")
	f.StringVar(&project, "project", "", "project root the gate, the sandbox and transactions use (default: --cwd)")
	f.StringVar(&ctxName, "context", "user", "privilege the command runs with: user or root (root: only the catastrophic rules)")
	f.DurationVar(&timeout, "timeout", shell.DefaultTimeout, "kill the command's whole process group after this long")
	f.IntVar(&maxOutput, "max-output", shell.DefaultMaxOutput, "bytes kept of each of stdout and stderr (head and tail)")
	f.BoolVar(&sandbox, "sandbox", false, "confine the command with Landlock (writes only in the project and temp)")
	f.BoolVar(&tx, "transaction", false, "roll back the command's file changes when it fails")
	f.BoolVar(&yes, "yes", false, "a human approves a command the gate would ask about (never a denied one)")
	f.BoolVar(&asJSON, "json", false, "print the output envelope and the verdict as JSON")
	return cmd
}
