package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/host/hosts"
	"github.com/toolwall/toolwall/internal/resident"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

func newHook() *cobra.Command {
	var (
		state   string
		noState bool
	)
	h := &cobra.Command{
		Use:   "hook [HOST]",
		Short: "Run as an agent host's hook (" + strings.Join(hosts.Names(), ", ") + ")",
		Long: `Reads one hook payload on stdin and answers in the host's protocol:
` + strings.Join(hosts.Names(), ", ") + `.
Without HOST, the host is told apart by the payload's shape.

Every problem — a malformed or oversized payload, a broken configuration,
an internal error, a decision that takes longer than 4 s — is answered as a
deny in the host's protocol: hosts treat a failing hook as "allow".

The project root is the host's project variable ($CLAUDE_PROJECT_DIR,
$GEMINI_PROJECT_DIR, …) or the payload's workspace, else its cwd; home is
$HOME.`,
		Args: cobra.MaximumNArgs(1),
		// A mistyped host name in a settings file ("claude_code") must not
		// turn into help text and exit 0, which the host reads as allow.
		RunE: func(cmd *cobra.Command, args []string) error {
			var a host.Adapter // nil: told apart by the payload
			if len(args) == 1 {
				var ok bool
				if a, ok = hosts.Lookup(args[0]); !ok {
					in, _ := readStdin()
					return hookFail(hosts.Detect(in, os.Getenv), fmt.Sprintf("toolwall hook is misconfigured: unknown host %q (known: %s); fix the hook command in the host's settings.", args[0], strings.Join(hosts.Names(), ", ")))
				}
			}
			return answerHook(cmd.Context(), a, state, noState)
		},
	}
	h.Flags().StringVar(&state, "state", "", "session state database (default $TOOLWALL_STATE, else $XDG_STATE_HOME/toolwall/state.db, else ~/.local/state/toolwall/state.db)")
	h.Flags().BoolVar(&noState, "no-state", false, "keep no session memory (single-call analysis only)")
	// A flag mistake in a settings file must not turn into "allow":
	// answer with a deny that names it.
	h.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		in, _ := readStdin()
		return hookFail(hosts.Detect(in, os.Getenv), fmt.Sprintf("toolwall hook is misconfigured (%v); fix the hook command in the host's settings.", err))
	})
	return h
}

// openState opens the state database for the hook's engine: nil (the
// engine's own, a fresh open per process) or, in a resident process, one
// that keeps it open across calls.
var openState func(string, session.Options, *slog.Logger) (session.Store, error)

// keepEngine, in a resident process, returns the engine an earlier call
// built from the same inputs, renewed, or builds one and keeps it; nil
// (a hook process) builds one per call.
var keepEngine func(*policy.Config, engine.Options) *engine.Engine

// later receives the hook's audit writes in a resident process, which
// runs them after replying (host.Hook.Later); nil writes them at once.
var later func(func())

// stdin is where the hook reads its payload: the process's standard
// input, or the payload a resident process read for its client.
var stdin io.Reader = os.Stdin

// readStdin reads the payload from stdin within the hook's deadline
// (host.DefaultTimeout; host.ErrLate when the input stays open), at most
// host.DefaultMaxPayload+1 bytes.
// When the hook client says the payload did not end in time (it keeps
// what came and hands it over), the read is late too: only ever a deny.
func readStdin() ([]byte, error) {
	in, err := host.ReadPayload(stdin, host.DefaultMaxPayload, host.DefaultTimeout)
	if err == nil && os.Getenv(resident.EnvInputLate) == "1" {
		err = host.ErrLate
	}
	return in, err
}

// answerHook answers the payload on stdin for host a (nil: the host the
// payload's shape says), with state and noState as the hook's flags.
func answerHook(ctx context.Context, a host.Adapter, state string, noState bool) error {
	in, err := readStdin()
	if a == nil {
		a = hosts.Detect(in, os.Getenv)
	}
	var r io.Reader = bytes.NewReader(in)
	if err != nil {
		r = io.MultiReader(bytes.NewReader(in), errReader{err})
	}
	return serveHook(ctx, a, r, state, noState)
}

type errReader struct{ err error }

// Read fails with the error.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// serveHook handles one event of host a. Session memory lives in a SQLite
// file shared by every hook process; if it cannot be opened, single-call
// analysis goes on and verdicts say chain memory is off.
func serveHook(ctx context.Context, a host.Adapter, stdin io.Reader, state string, noState bool) error {
	h := &host.Hook{Adapter: a, Home: engine.UserHome(), Logger: logger(), Later: later, Probe: os.Getenv(host.ProbeEnv) == "1"}
	if env := a.ProjectEnv(); env != "" {
		h.ProjectDir = os.Getenv(env)
	}
	cfg, err := loadConfig()
	if err != nil {
		// Fail closed, visibly: a broken configuration must not become
		// "allow", nor silently fall back to weaker defaults.
		logger().Error("toolwall hook: configuration error", "err", err)
		h.Shield = engine.Broken{Err: err}
		return hookExit(h.Handle(ctx, stdin, os.Stdout, os.Stderr))
	}
	mem := engine.Persistent
	if noState {
		mem = engine.NoMemory
	}
	statePath, _ := engine.StatePath(state, cfg)
	stores := engine.StoresFor(cfg, statePath)
	opts := engine.Options{State: state, Memory: mem, Places: engine.Installed, Protect: stores.Files(), OpenState: openState}
	var e *engine.Engine
	if keepEngine != nil {
		e = keepEngine(cfg, opts)
	} else {
		e = newEngine(cfg, opts)
		defer e.Close()
	}
	h.Shield, h.Turns, h.Decisions = e, e, e
	if au := stores.Audit(); au != nil {
		if later != nil {
			defer later(func() { au.Close() })
		} else {
			defer au.Close()
		}
		h.Audit = au
	}
	if ap := stores.Approvals(); ap != nil {
		h.Approvals = ap
	}
	v, exit := h.Handle(ctx, stdin, os.Stdout, os.Stderr)
	if slices.Contains(v.Rules(), toolwall.RuleTimeout) {
		abandoned = true
	}
	return hookExit(v, exit)
}

// abandoned is set when a decision ran out of time: its evaluation may
// still be running. A process ends with the call anyway; a resident
// process retires (see resident_linux.go).
var abandoned bool

// hookExit turns the hook's exit status into the command's.
func hookExit(_ toolwall.Verdict, exit int) error {
	if exit != 0 {
		return exitError{exit}
	}
	return nil
}

// hookFail answers with a deny with reason in host a's protocol and
// returns the exit status as an error (nil for 0).
func hookFail(a host.Adapter, reason string) error {
	if a == nil {
		a = claudecode.Adapter{}
	}
	r := a.Encode(host.Answer{Event: host.PreToolUse, Action: toolwall.Deny, Reason: reason})
	fmt.Fprint(os.Stdout, r.Stdout)
	fmt.Fprint(os.Stderr, r.Stderr)
	if r.Exit != 0 {
		return exitError{r.Exit}
	}
	return nil
}
