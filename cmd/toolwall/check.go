package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/host"
)

// Exit statuses of toolwall check.
const (
	exitAllow = 0
	exitUsage = 1
	exitDeny  = 2
	exitAsk   = 3
)

func newCheck() *cobra.Command {
	var (
		cwd, project, home, ctxName, tool, input string
		asJSON                                   bool
	)
	cmd := &cobra.Command{
		Use:   "check [flags] -- COMMAND...",
		Short: "Decide on one tool call (a shell command by default)",
		Long: `Decide on one tool call and print the verdict.

A shell command is given after --, its words joined by spaces:
  toolwall check -- 'rm -rf ~'
Another tool is given by name and JSON input:
  toolwall check --tool Write --input '{"file_path":"/etc/sudoers","content":"x"}'

Exit status: 0 allow or warn, 3 ask, 2 deny, 1 usage or internal error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			call, err := checkCall(tool, input, args)
			if err != nil {
				return err
			}
			wd, _ := os.Getwd()
			if call.Cwd, err = absPath(orDefault(cwd, wd)); err != nil {
				return err
			}
			if call.Project, err = absPath(orDefault(project, call.Cwd)); err != nil {
				return err
			}
			if call.Home, err = absPath(orDefault(home, os.Getenv("HOME"))); err != nil {
				return err
			}
			switch ctxName {
			case "user", "root":
				call.Context = toolwall.ExecContext(ctxName)
			default:
				return fmt.Errorf("--context must be user or root, got %q", ctxName)
			}
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			statePath, _ := engine.StatePath("", cfg)
			stores := engine.StoresFor(cfg, statePath)
			start := time.Now()
			// An MCP tool's call is judged by its arguments, as in a hook.
			v := host.Judge(cmd.Context(), newEngine(cfg, engine.Options{Places: engine.Installed, Protect: stores.Files()}), call)
			id := recordCheck(cmd.Context(), stores, call, v, start)
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				// the verdict with its decision id (for toolwall explain and
				// approve) and rule ids, as the server answers
				err = enc.Encode(struct {
					DecisionID string   `json:"decision_id,omitempty"`
					Rules      []string `json:"rules,omitempty"`
					toolwall.Verdict
				}{id, v.Rules(), v})
			} else {
				err = writeVerdict(out, gate.Normalize(call), v, id)
			}
			if err != nil {
				return err
			}
			switch v.Action {
			case toolwall.Deny:
				return exitError{exitDeny}
			case toolwall.Ask:
				return exitError{exitAsk}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cwd, "cwd", "", "working directory of the call (default: the current directory)")
	f.StringVar(&project, "project", "", "project root (default: --cwd)")
	f.StringVar(&home, "home", "", "the user's home directory (default: $HOME)")
	f.StringVar(&ctxName, "context", "user", "privilege of the call: user or root (root applies only the catastrophic rules)")
	f.StringVar(&tool, "tool", "", "tool name for a non-shell call (Write, Edit, Read, WebFetch, ...)")
	f.StringVar(&input, "input", "", "tool input as a JSON object, with --tool")
	f.BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return cmd
}

// checkCall builds the call from --tool/--input or the command words.
func checkCall(tool, input string, args []string) (toolwall.Call, error) {
	if tool == "" || tool == toolwall.ToolBash && input == "" {
		if input != "" {
			return toolwall.Call{}, fmt.Errorf("--input needs --tool")
		}
		if len(args) == 0 {
			return toolwall.Call{}, fmt.Errorf("nothing to check: give a command after --, or --tool and --input")
		}
		return toolwall.NewBashCall(strings.Join(args, " ")), nil
	}
	if len(args) > 0 {
		return toolwall.Call{}, fmt.Errorf("give either a command or --tool with --input, not both")
	}
	// Input that is not valid JSON is judged as a host's would be: the
	// gate refuses it (input.malformed), a deny with a short reason, not
	// a usage error that echoes it.
	return toolwall.Call{Tool: tool, Input: json.RawMessage(input)}, nil
}

// absPath makes a flag's path absolute ("" stays "").
func absPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	return a, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// recordCheck writes the audit record of a check (driver "check") and
// returns its decision id ("" when auditing is off or failed: the check's
// answer stands either way).
func recordCheck(ctx context.Context, stores engine.Stores, call toolwall.Call, v toolwall.Verdict, start time.Time) string {
	a := stores.Audit()
	if a == nil {
		return ""
	}
	defer a.Close()
	id := audit.NewID()
	if err := a.Record(ctx, audit.New(id, "check", gate.Normalize(call), v, start, time.Since(start))); err != nil {
		logger().Warn("toolwall check: cannot write the audit record", "err", err)
		return ""
	}
	return id
}

// writeVerdict prints a verdict for people, with its decision id when
// it was recorded.
func writeVerdict(w io.Writer, call toolwall.Call, v toolwall.Verdict, id string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (band %s, score %.2f)\n", v.Action, v.Band, v.Score)
	if id != "" {
		fmt.Fprintf(&b, "decision: %s\n", id)
	}
	if rules := v.Rules(); len(rules) > 0 {
		fmt.Fprintf(&b, "rules:   %s\n", strings.Join(rules, ", "))
	}
	if v.Reason != "" {
		fmt.Fprintf(&b, "reason:  %s\n", v.Reason)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(&b, "note:    %s\n", n)
	}
	for _, o := range v.Opinions {
		fmt.Fprintf(&b, "model:   %s %s: %s (%s; %d in + %d out tokens, %v)", o.Analyzer, o.Model, o.Label, o.Action, o.InputTokens, o.OutputTokens, o.Latency.Round(time.Millisecond))
		if o.Explanation != "" {
			fmt.Fprintf(&b, " %s", o.Explanation)
		}
		b.WriteString("\n")
	}
	if call.Tool == toolwall.ToolBash {
		fmt.Fprintf(&b, "cwd:     %s   project: %s   home: %s   context: %s\n", call.Cwd, call.Project, call.Home, call.Context)
		if len(v.Commands) > 0 {
			b.WriteString("commands:\n")
			for _, c := range v.Commands {
				fmt.Fprintf(&b, "  %s\n", c)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
