package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/llm/helper"
	"github.com/toolwall/toolwall/policy"
)

// version is set at link time with -ldflags "-X main.version=v1.2.3"; the
// module version from the build info is used otherwise.
var version = ""

// newRoot is the whole command tree.
func newRoot() *cobra.Command {
	root := newBareRoot()
	root.AddCommand(newCheck(), newHook(), newEval(), newRun(), newVersion(), newPolicy(), newAudit(), newExplain(), newApprove(), newPrograms(), newInstall(), newUninstall(), newDoctor(), newRules(), newResident())
	root.AddCommand(newNet()...)
	return root
}

// newHookRoot is the tree a hook call needs: the root's flags and the
// hook command. Building every command's flags would cost a hook call
// about 70 µs.
func newHookRoot() *cobra.Command {
	root := newBareRoot()
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(newHook())
	return root
}

// newBareRoot is the root command with its persistent flags.
func newBareRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "toolwall",
		Short:         "Decide on an AI agent's tool calls before they run",
		Long:          "toolwall stands between an AI agent and its tools: before a tool call runs it allows, warns, asks a human, or denies with a reason the model can act on.",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       versionString(),
	}
	root.SetVersionTemplate("toolwall {{.Version}}\n")
	root.PersistentFlags().StringVar(&configPath, "config", "", "configuration file (default $TOOLWALL_CONFIG, else $XDG_CONFIG_HOME/toolwall/config.toml, else ~/.config/toolwall/config.toml)")
	return root
}

// configPath is the --config flag.
var configPath string

// loadConfig reads the configuration named by --config or found at the
// default place; a rules.disable id that is no rule is an error.
func loadConfig() (*policy.Config, error) {
	cfg, err := policy.Load(configPath)
	if err != nil {
		return nil, err
	}
	if err := engine.CheckDisabled(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// logger writes warnings and errors to stderr (hosts show a hook's
// stderr in their debug logs, never to the model): to os.Stderr as it is
// when a line is written, so that an engine a resident keeps across calls
// logs to the call it serves.
func logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// stderr writes to os.Stderr.
type stderr struct{}

func (stderr) Write(p []byte) (int, error) { return os.Stderr.Write(p) }

// newEngine builds the engine a command uses, with the configuration file
// of --config protected as one of toolwall's own files, and the model
// clients of the later stage: the toolwall-llm helper beside this binary,
// run only when a stage asks a model, so this binary links no model SDK
// and the hook starts as fast as without the stage.
func newEngine(cfg *policy.Config, opts engine.Options) *engine.Engine {
	opts.Config = cfg
	opts.ConfigPath = configPath
	opts.Logger = logger()
	opts.Dial = helper.Open
	opts.DetectMCP = helper.Detector(opts.Logger)
	return engine.New(opts)
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the toolwall version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "toolwall", versionString())
			return err
		},
	}
}

// versionString is the version set at link time, else the module's from
// the build info, followed by the commit it was built from (see
// describeBuild).
var versionString = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return describeBuild(version, bi)
})

// describeBuild says which toolwall bi is: the version (set at link time,
// else the main module's, else "(devel)"), then the VCS commit, its time
// and whether the tree had uncommitted changes, and the Go version and
// platform. A build without VCS information (-buildvcs=false, or a
// source tree that is no repository) says so instead of naming a commit.
func describeBuild(version string, bi *debug.BuildInfo) string {
	v := version
	if v == "" && bi != nil {
		v = bi.Main.Version
	}
	if v == "" {
		v = "(devel)"
	}
	if bi == nil {
		return v + " (no build information)"
	}
	var rev, at, goos, goarch string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	var parts []string
	if rev == "" {
		parts = append(parts, "commit unknown: built without VCS information")
	} else {
		c := "commit " + rev[:min(len(rev), 12)]
		if at != "" {
			c += " " + at
		}
		if modified {
			c += ", modified"
		}
		parts = append(parts, c)
	}
	if p := strings.TrimSpace(bi.GoVersion + " " + strings.Trim(goos+"/"+goarch, "/")); p != "" {
		parts = append(parts, p)
	}
	return v + " (" + strings.Join(parts, "; ") + ")"
}
