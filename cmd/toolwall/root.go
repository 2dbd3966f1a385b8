package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/analyzers/self"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/session"
)

// version is set at link time with -ldflags "-X main.version=v1.2.3"; the
// module version from the build info is used otherwise.
var version = ""

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "toolwall",
		Short:         "Decide on an AI agent's tool calls before they run",
		Long:          "toolwall stands between an AI agent and its tools: before a tool call runs it allows, warns, asks a human, or denies with a reason the model can act on.",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVar(&configPath, "config", "", "configuration file (default $TOOLWALL_CONFIG, else $XDG_CONFIG_HOME/toolwall/config.toml, else ~/.config/toolwall/config.toml)")
	root.AddCommand(newCheck(), newHook(), newEval(), newVersion())
	return root
}

// configPath is the --config flag.
var configPath string

// loadConfig reads the configuration named by --config or found at the
// default place.
func loadConfig() (*policy.Config, error) { return policy.Load(configPath) }

// logger writes warnings and errors to stderr (hosts show a hook's
// stderr in their debug logs, never to the model).
func logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// newGate builds the gate every command uses: all built-in analyzers plus
// the self analyzer guarding toolwall's own files (state is the state
// file in use, "" for the default), thresholds, disabled rules and chain
// window from cfg, the given session store (nil: no memory) or the reason
// there is none.
func newGate(cfg *policy.Config, state string, store session.Store, storeErr error) *gate.Gate {
	state, _ = statePath(state, cfg)
	w := gate.ChainWindow
	if cfg.Memory.Calls > 0 {
		w.Calls = cfg.Memory.Calls
	}
	if cfg.Memory.Turns > 0 {
		w.Turns = cfg.Memory.Turns
	}
	return gate.New(gate.Options{
		Analyzers:  append(analyzers.All(), self.New(ownFiles(cfg, state))),
		Thresholds: cfg.ThresholdsOr(toolwall.DefaultThresholds()), // checked by policy.Parse
		Disabled:   cfg.Rules.Disable,
		Window:     w,
		Logger:     logger(),
		Store:      store,
		StoreErr:   storeErr,
	})
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the toolwall version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && v == "" {
				v = bi.Main.Version
			}
			if v == "" {
				v = "(devel)"
			}
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "toolwall", v)
			return err
		},
	}
}

// statePath resolves the session state file: the --state flag, then
// $TOOLWALL_STATE, then memory.state of the configuration, then the
// default place (session.DefaultPath).
func statePath(flag string, cfg *policy.Config) (string, error) {
	switch {
	case flag != "":
		return flag, nil
	case os.Getenv("TOOLWALL_STATE") != "":
		return os.Getenv("TOOLWALL_STATE"), nil
	}
	if p := cfg.StatePath(userHome()); p != "" {
		return p, nil
	}
	return session.DefaultPath()
}

// ownFiles lists toolwall's own files, which the self analyzer protects:
// the configuration (where it is or would be read from), the state
// database with its WAL and shared-memory files, this binary, and its
// name in every PATH directory.
func ownFiles(cfg *policy.Config, state string) []string {
	var out []string
	conf := cfg.Source
	if conf == "" {
		conf = configPath
	}
	if conf == "" {
		conf, _ = policy.DefaultPath()
	}
	if abs, err := filepath.Abs(conf); err == nil && conf != "" {
		out = append(out, abs)
	}
	if abs, err := filepath.Abs(state); err == nil && state != "" {
		out = append(out, abs, abs+"-wal", abs+"-shm")
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		out = append(out, exe)
		// A program of the same name earlier on the PATH would run in
		// place of this one when the host calls "toolwall".
		for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
			if filepath.IsAbs(dir) {
				out = append(out, filepath.Join(dir, filepath.Base(exe)))
			}
		}
	}
	return out
}

// userHome is the user's home directory: $HOME, else the account's home
// directory, else "" (then "~" is unknown and asked about).
func userHome() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}
