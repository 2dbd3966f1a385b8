package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/hook"
)

func newHook() *cobra.Command {
	var (
		state   string
		noState bool
	)
	h := &cobra.Command{
		Use:   "hook",
		Short: "Run as an agent host's hook",
		Args:  cobra.ArbitraryArgs,
		// A mistyped host name in settings.json ("claude_code") must not
		// turn into help text and exit 0, which the host reads as allow.
		RunE: func(_ *cobra.Command, args []string) error {
			hookFail(fmt.Sprintf("toolwall hook is misconfigured: unknown host %q (known: claude-code); fix the hook command in settings.json.", strings.Join(args, " ")))
			return nil
		},
	}
	cc := &cobra.Command{
		Use:   "claude-code",
		Short: "Claude Code hook: PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit",
		Long: `Reads one Claude Code hook payload on stdin and answers in the hook protocol.

PreToolUse: allow prints nothing; ask and deny print
  {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"..."}}
It always exits 0: Claude Code treats a failing hook as allow, so every
problem, including a malformed payload, is answered as a deny.

The project root is $CLAUDE_PROJECT_DIR (else the payload's cwd); home is $HOME.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			runClaudeHook(cmd.Context(), state, noState)
			return nil
		},
	}
	cc.Flags().StringVar(&state, "state", "", "session state database (default $TOOLWALL_STATE, else $XDG_STATE_HOME/toolwall/state.db, else ~/.local/state/toolwall/state.db)")
	cc.Flags().BoolVar(&noState, "no-state", false, "keep no session memory (single-call analysis only)")
	// A flag mistake in settings.json must not turn into "allow": answer
	// with a deny that names it.
	cc.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		hookFail(fmt.Sprintf("toolwall hook is misconfigured (%v); fix the hook command in settings.json.", err))
		return nil
	})
	h.AddCommand(cc)
	return h
}

// runClaudeHook handles one event on stdin/stdout. Session memory lives
// in a SQLite file shared by every hook process; if it cannot be opened,
// single-call analysis goes on and verdicts say chain memory is off.
func runClaudeHook(ctx context.Context, state string, noState bool) {
	cfg, err := loadConfig()
	if err != nil {
		// Fail closed, visibly: a broken configuration must not become
		// "allow", nor silently fall back to weaker defaults.
		logger().Error("toolwall hook: configuration error", "err", err)
		(&hook.ClaudeCode{Shield: engine.Broken{Err: err}, Logger: logger()}).Handle(ctx, os.Stdin, os.Stdout)
		return
	}
	mem := engine.Persistent
	if noState {
		mem = engine.NoMemory
	}
	statePath, _ := engine.StatePath(state, cfg)
	stores := engine.StoresFor(cfg, statePath)
	e := newEngine(cfg, engine.Options{State: state, Memory: mem, Places: engine.Installed, Protect: stores.Files()})
	defer e.Close()
	drv := &hook.ClaudeCode{
		Shield:     e,
		Turns:      e,
		ProjectDir: os.Getenv("CLAUDE_PROJECT_DIR"),
		Home:       engine.UserHome(),
		Logger:     logger(),
	}
	if a := stores.Audit(); a != nil {
		defer a.Close()
		drv.Audit = a
	}
	if ap := stores.Approvals(); ap != nil {
		drv.Approvals = ap
	}
	drv.Handle(ctx, os.Stdin, os.Stdout)
}

// hookFail prints a PreToolUse deny with reason.
func hookFail(reason string) {
	if err := hook.WriteDecision(os.Stdout, toolwall.Deny, reason); err != nil {
		logger().Error("toolwall hook: cannot write answer", "err", err)
	}
}
