package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/hook"
	"github.com/toolwall/toolwall/session"
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
		(&hook.ClaudeCode{Shield: configError{err}, Logger: logger()}).Handle(ctx, os.Stdin, os.Stdout)
		return
	}
	var (
		store    session.Store
		storeErr error
	)
	if !noState {
		state, storeErr = statePath(state, cfg)
		if storeErr == nil {
			// Opened on first use: a call with no risk tags never
			// touches the file.
			lazy := session.NewLazy(func() (session.Store, error) {
				db, err := session.Open(state, session.Options{
					Calls:     max(cfg.Memory.Calls, gate.ChainWindow.Calls),
					Retention: cfg.Memory.Retention.Duration,
					// Parallel hooks wait briefly for each other; a long wait
					// would run into the decision timeout.
					BusyTimeout: 500 * time.Millisecond,
				})
				if err != nil {
					logger().Warn("toolwall hook: session memory unavailable; single-call analysis only", "err", err)
					return nil, err
				}
				return db, nil
			})
			store = lazy
			defer lazy.Close()
		} else {
			logger().Warn("toolwall hook: session memory unavailable; single-call analysis only", "err", storeErr)
		}
	}
	g := newGate(cfg, state, store, storeErr)
	drv := &hook.ClaudeCode{
		Shield:     g,
		Turns:      g,
		ProjectDir: os.Getenv("CLAUDE_PROJECT_DIR"),
		Home:       userHome(),
		Logger:     logger(),
	}
	drv.Handle(ctx, os.Stdin, os.Stdout)
}

// hookFail prints a PreToolUse deny with reason.
func hookFail(reason string) {
	if err := hook.WriteDecision(os.Stdout, toolwall.Deny, reason); err != nil {
		logger().Error("toolwall hook: cannot write answer", "err", err)
	}
}

// configError is the shield of a hook whose configuration is broken: it
// denies every call with the error, and records nothing.
type configError struct{ err error }

func (c configError) Evaluate(context.Context, toolwall.Call) toolwall.Verdict {
	reason := fmt.Sprintf("toolwall's configuration is broken (%v), so every tool call is refused until it is fixed. Tell the user; `toolwall check -- true` shows the error.", c.err)
	return toolwall.Verdict{Action: toolwall.Deny, Band: toolwall.Critical, Score: 1, Reason: reason,
		Findings: []toolwall.Finding{{Analyzer: "policy", Rule: "config.invalid", Category: "internal", Score: 1, Action: toolwall.Deny, Reason: reason}}}
}

func (configError) RecordInvocation(context.Context, toolwall.Call, bool) {}

func (configError) WatchedTools() []string { return nil }
