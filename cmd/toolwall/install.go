package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/install"
)

// installFlags are the flags install and uninstall share.
type installFlags struct {
	project bool
	dir     string
	binary  string
}

func (f *installFlags) add(cmd *cobra.Command, verb string) {
	cmd.Flags().BoolVar(&f.project, "project", false, verb+" the current project's configuration instead of the user's")
	cmd.Flags().StringVar(&f.dir, "dir", "", "the project directory for --project (default: the current directory)")
}

// options resolves the flags into install.Options.
func (f *installFlags) options() (install.Options, error) {
	o := install.Options{Home: engine.UserHome(), Binary: f.binary, Getenv: os.Getenv, Version: install.Memo(install.ProgramVersion)}
	if o.Home == "" {
		return o, errors.New("the home directory is unknown (set HOME)")
	}
	if f.project || f.dir != "" {
		d := f.dir
		if d == "" {
			d, _ = os.Getwd()
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return o, err
		}
		o.Project = abs
	}
	if o.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("cannot tell where this toolwall binary is: %w", err)
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		o.Binary = hookBinary(exe)
	}
	return o, nil
}

// hookBinary is the binary hosts should run for toolwall at exe: the
// toolwall-hook client beside it when there is one (it answers the same,
// from a resident process, at about an empty program's start-up cost),
// else exe itself.
func hookBinary(exe string) string {
	if runtime.GOOS != "linux" {
		return exe
	}
	client := filepath.Join(filepath.Dir(exe), "toolwall-hook")
	if st, err := os.Stat(client); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return client
	}
	return exe
}

// hostArgs checks the host names given (all: every host).
func hostArgs(args []string) ([]string, error) {
	if len(args) == 1 && args[0] == "all" {
		return install.Hosts(), nil
	}
	for _, a := range args {
		if !strings.Contains(" "+strings.Join(install.Hosts(), " ")+" ", " "+a+" ") {
			return nil, fmt.Errorf("unknown host %q (known: %s, or all)", a, strings.Join(install.Hosts(), ", "))
		}
	}
	return args, nil
}

func newInstall() *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "install HOST... [--project]",
		Short: "Write toolwall's hook into an agent host's configuration",
		Long: `Writes toolwall's hook into the configuration of each HOST (` + strings.Join(install.Hosts(), ", ") + `,
or all), for the user or, with --project, for the current project, and prints
every change. Running it again changes nothing. It never removes or loosens
what is there: it adds toolwall's entries (or points toolwall's earlier
entries at this binary) and keeps a backup of each file it changes
(FILE.toolwall.bak). toolwall uninstall HOST takes it out again.

"all" wires the hosts found on this machine: a host's configuration
directory exists or its program is on the PATH (as toolwall doctor finds
them); name a host to wire it before it is installed.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := hostArgs(args)
			if err != nil {
				return err
			}
			o, err := f.options()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(args) == 1 && args[0] == "all" {
				if names = present(out, names, o); len(names) == 0 {
					return errors.New("no agent host found on this machine (no host's configuration directory, none of their programs on the PATH): name the hosts to install")
				}
			}
			var errs []error
			for _, name := range names {
				changes, err := install.Install(name, o)
				for _, c := range changes {
					fmt.Fprintf(out, "%s: %s\n", name, c)
				}
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", name, err))
				}
				if len(changes) == 0 && err == nil {
					fmt.Fprintf(out, "%s: already installed, nothing changed\n", name)
				}
				if n := install.Note(name); n != "" && len(changes) > 0 {
					fmt.Fprintf(out, "%s: note: %s\n", name, n)
				}
				if _, _, warn := install.CheckVersion(name, o); warn != "" {
					fmt.Fprintf(out, "%s: warning: %s\n", name, warn)
				}
			}
			return errors.Join(errs...)
		},
	}
	f.add(cmd, "write into")
	cmd.Flags().StringVar(&f.binary, "binary", "", "the toolwall binary the hooks run (default: this one)")
	return cmd
}

// present keeps the hosts of names found on this machine (see
// install.Found), all judged before anything is written, and says which
// it skips: `install all` must not create a host's configuration
// directory, which would make a host that is not there look installed.
func present(out io.Writer, names []string, o install.Options) []string {
	var keep []string
	for _, name := range names {
		if install.Found(name, o) {
			keep = append(keep, name)
		} else {
			fmt.Fprintf(out, "%s: not found on this machine, skipped (toolwall install %s wires it anyway)\n", name, name)
		}
	}
	return keep
}

func newUninstall() *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "uninstall HOST... [--project]",
		Short: "Take toolwall's hook out of an agent host's configuration",
		Long: `Takes out what toolwall install put into each HOST's configuration and prints
every change: a file it created is removed, a file it changed gets its backup
back when nobody changed it since, else only toolwall's entries are removed,
with the lists and objects that leaves empty (and the backup is kept). A
host's directory left empty is removed too.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := hostArgs(args)
			if err != nil {
				return err
			}
			o, err := f.options()
			if err != nil {
				return err
			}
			var errs []error
			for _, name := range names {
				changes, err := install.Uninstall(name, o)
				for _, c := range changes {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", name, c)
				}
				if len(changes) == 0 && err == nil {
					fmt.Fprintf(cmd.OutOrStdout(), "%s: not installed, nothing changed\n", name)
				}
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", name, err))
				}
			}
			return errors.Join(errs...)
		},
	}
	f.add(cmd, "take out of")
	return cmd
}
