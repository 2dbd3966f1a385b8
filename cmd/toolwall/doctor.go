package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosts"
	"github.com/toolwall/toolwall/host/view"
	"github.com/toolwall/toolwall/install"
)

// Commands doctor sends through every installed hook.
const (
	canaryCommand   = "rm -rf ~"
	harmlessCommand = "git status"
)

func newDoctor() *cobra.Command {
	var f installFlags
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that every agent host on this machine runs toolwall's hook",
		Long: `For every agent host found on this machine (its configuration directory
exists or its program is on the PATH), and every host with toolwall's hook
in its configuration: is the hook installed (user or project), does it run
this binary, does a canary call (` + canaryCommand + `) come back denied and a
harmless one (` + harmlessCommand + `) allowed when the hook runs as the host
runs it (its command through sh -c with the host's payload on stdin; the
OpenCode and Amp plugins under node when node is on the PATH), and how
long one call takes. Nothing is executed but toolwall's own hook.

Exit status 0 when every host found is wired, 1 otherwise (also when no
host is found).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			if o.Project == "" {
				o.Project, _ = os.Getwd()
			}
			ok, err := doctor(cmd.Context(), cmd.OutOrStdout(), o)
			if err != nil {
				return err
			}
			if !ok {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.dir, "dir", "", "the project whose configuration is checked too (default: the current directory)")
	return cmd
}

// doctor prints the table and reports whether every host found is wired.
func doctor(ctx context.Context, w io.Writer, o install.Options) (bool, error) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "host\tfound\thook\tbinary\tcanary\tharmless\tone call\tproblem")
	all, any := true, false
	for _, name := range install.Hosts() {
		found := install.Found(name, o)
		hooks := install.Find(name, o)
		if !found && len(hooks) == 0 {
			continue
		}
		any = true
		row := checkHost(ctx, name, hooks, o)
		if row.problem != "" {
			all = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, yes(found), row.where, row.binary, row.canary, row.harmless, row.took, row.problem)
	}
	if err := tw.Flush(); err != nil {
		return false, err
	}
	fmt.Fprintln(w, residentStatus())
	if !any {
		fmt.Fprintln(w, "no agent host found on this machine: nothing is wired (toolwall install HOST)")
		return false, nil
	}
	if all {
		fmt.Fprintln(w, "every host found is wired")
	}
	return all, nil
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

type doctorRow struct{ where, binary, canary, harmless, took, problem string }

func checkHost(ctx context.Context, name string, hooks []install.Hook, o install.Options) doctorRow {
	row := doctorRow{where: "-", binary: "-", canary: "-", harmless: "-", took: "-"}
	if len(hooks) == 0 {
		row.problem = "not installed: toolwall install " + name
		return row
	}
	var places []string
	for _, h := range hooks {
		if w := where(h.File, o.Home, o.Project); !slices.Contains(places, w) {
			places = append(places, w)
		}
	}
	row.where = strings.Join(places, "+")
	self, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	row.binary = "this one"
	var problems []string
	seen := map[string]bool{}
	for _, h := range hooks {
		bin := h.Binary
		if real, err := filepath.EvalSymlinks(bin); err == nil {
			bin = real
		}
		if bin != self && bin != hookBinary(self) {
			row.binary = "another"
			problems = append(problems, fmt.Sprintf("%s runs %s, not this binary (%s): toolwall install %s", h.File, h.Binary, self, name))
		}
		if seen[h.Command] {
			continue
		}
		seen[h.Command] = true
		start := time.Now()
		r, err := probe(ctx, name, h, o, canaryCommand)
		took := time.Since(start)
		got := view.For(name)(r, true)
		switch {
		case err != nil:
			row.canary = "error"
			problems = append(problems, fmt.Sprintf("%s: %v", h.File, err))
		case !got.Valid || got.Action != toolwall.Deny:
			row.canary = "NOT DENIED"
			problems = append(problems, fmt.Sprintf("%s: the canary %q came back %v (%q)", h.File, canaryCommand, got.Action, strings.TrimSpace(r.Stdout+r.Stderr)))
		default:
			row.canary = "denied"
		}
		r, err = probe(ctx, name, h, o, harmlessCommand)
		if got := view.For(name)(r, true); err == nil && got.Valid && got.Action == toolwall.Allow {
			row.harmless = "allowed"
		} else {
			row.harmless = "NOT ALLOWED"
			problems = append(problems, fmt.Sprintf("%s: the harmless %q came back %v: %s (a broken configuration denies every call; toolwall policy check)", h.File, harmlessCommand, got.Action, got.Reason))
		}
		row.took = took.Round(100 * time.Microsecond).String()
	}
	row.problem = strings.Join(problems, "; ")
	return row
}

// probe runs hook h the way host name runs it, with a PreToolUse payload
// for a shell call running command, and returns the hook's answer.
func probe(ctx context.Context, name string, h install.Hook, o install.Options, command string) (host.Response, error) {
	cwd := o.Project
	payload := hosts.Probe(name, command, cwd)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var c *exec.Cmd
	if node, err := exec.LookPath("node"); err == nil && (name == "opencode" || name == "amp") {
		dir, err := os.MkdirTemp("", "toolwall-doctor")
		if err != nil {
			return host.Response{}, err
		}
		defer os.RemoveAll(dir)
		src, err := os.ReadFile(h.File)
		if err != nil {
			return host.Response{}, err
		}
		plugin := filepath.Join(dir, "plugin.mjs")
		if err := os.WriteFile(plugin, src, 0o600); err != nil {
			return host.Response{}, err
		}
		c = exec.CommandContext(ctx, node, "--input-type=module", "-e", PluginHarness(name), plugin, command, cwd)
	} else {
		c = exec.CommandContext(ctx, "sh", "-c", h.Command)
		c.Stdin = bytes.NewReader(payload)
	}
	c.Dir = cwd
	c.Env = os.Environ()
	for _, a := range hosts.All() {
		if a.Name() == name && a.ProjectEnv() != "" {
			c.Env = append(c.Env, a.ProjectEnv()+"="+cwd)
		}
	}
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	r := host.Response{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.Exit, err = ee.ExitCode(), nil
	}
	return r, err
}

// PluginHarness is the node program that loads the OpenCode or Amp
// plugin (argv[1]) the way its host does, offers it one shell call
// (argv[2]) in a directory (argv[3]), and prints what the plugin decided
// as {"action":"allow"} or {"action":"deny","reason":…}.
func PluginHarness(name string) string {
	common := `const [plugin, command, dir] = process.argv.slice(1);
const m = await import("file://" + plugin);
const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");
`
	if name == "opencode" {
		return common + `const hooks = await m.Toolwall({ directory: dir, worktree: dir });
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "toolwall-doctor", callID: "probe" }, { args: { command } });
  say({ action: "allow" });
} catch (e) { say({ action: "deny", reason: String(e && e.message) }); }
`
	}
	return common + `let handler;
m.default({ on: (event, f) => { if (event === "tool.call") handler = f; }, system: { workspaceRoot: dir } });
const r = await handler({ tool: "Bash", input: { cmd: command }, thread: { id: "toolwall-doctor" } }, { system: { workspaceRoot: dir } });
say(r.action === "allow" ? { action: "allow" } : { action: "deny", reason: String(r.message) });
`
}

// where says whether a hook found in file is the user's or the project's
// install: the nearer of home and project that holds the file (a project
// directory above the home, such as /tmp for a home under /tmp, holds the
// user's files too).
func where(file, home, project string) string {
	sep := string(filepath.Separator)
	inHome := home != "" && strings.HasPrefix(file, home+sep)
	inProject := project != "" && strings.HasPrefix(file, project+sep)
	if inProject && (!inHome || len(project) > len(home)) {
		return "project"
	}
	return "user"
}
