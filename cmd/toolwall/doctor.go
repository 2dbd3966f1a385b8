package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
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
	"github.com/toolwall/toolwall/host/opencode"
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
OpenCode and Amp plugins under node when node is on the PATH, the OpenCode
one by the loader of its plugin API), and how long one call takes. It
reads each host's version from its program's --version and reports a
release older than toolwall guards fully, and an OpenCode plugin the
installed OpenCode does not run. Nothing else is executed but toolwall's
own hook.

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
	run := probeRun()
	// A broken configuration makes every hook deny every call: said once
	// here, not in every host's row.
	_, cfgErr := loadConfig()
	for _, name := range install.Hosts() {
		found := install.Found(name, o)
		hooks := install.Find(name, o)
		if !found && len(hooks) == 0 {
			continue
		}
		any = true
		row := checkHost(ctx, name, hooks, o, hosts.ProbeSession+"-"+name+"-"+run, cfgErr != nil)
		if row.problem != "" {
			all = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, yes(found), row.where, row.binary, row.canary, row.harmless, row.took, row.problem)
	}
	if err := tw.Flush(); err != nil {
		return false, err
	}
	fmt.Fprintln(w, residentStatus())
	if cfgErr != nil {
		all = false
		fmt.Fprintf(w, "the configuration is broken, so every hook denies every call (toolwall policy check): %v\n", cfgErr)
	}
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

// probeRun names one run of doctor in its probes' sessions: each run and
// host probes in a session of its own, so that the canaries' refusals
// never add up in one session's memory (chain.repeated-refusal).
func probeRun() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// checkHost checks host name's hooks, probing them in session session;
// broken says the configuration is broken (doctor reports its error once,
// not in each row).
func checkHost(ctx context.Context, name string, hooks []install.Hook, o install.Options, session string, broken bool) doctorRow {
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
		// Two plugin files (OpenCode's V1 and V2) run the same command.
		if seen[h.File+"\x00"+h.Command] {
			continue
		}
		seen[h.File+"\x00"+h.Command] = true
		start := time.Now()
		r, err := probe(ctx, name, h, o, session, canaryCommand)
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
		r, err = probe(ctx, name, h, o, session, harmlessCommand)
		if got := view.For(name)(r, true); err == nil && got.Valid && got.Action == toolwall.Allow {
			row.harmless = "allowed"
		} else if row.harmless = "NOT ALLOWED"; broken {
			problems = append(problems, fmt.Sprintf("%s: the harmless %q came back %v (the configuration error below)", h.File, harmlessCommand, got.Action))
		} else {
			problems = append(problems, fmt.Sprintf("%s: the harmless %q came back %v: %s (a broken configuration denies every call; toolwall policy check)", h.File, harmlessCommand, got.Action, got.Reason))
		}
		row.took = took.Round(100 * time.Microsecond).String()
	}
	if _, _, warn := install.CheckVersion(name, o); warn != "" {
		problems = append(problems, warn)
	}
	if name == "opencode" {
		problems = append(problems, openCodeAPI(hooks, o)...)
	}
	row.problem = strings.Join(problems, "; ")
	return row
}

// openCodeAPI checks toolwall's OpenCode plugins against the installed
// OpenCode's plugin API: 1.x runs only V1 plugins (named export
// functions), 2 only V2 ones (a default export {id, setup}), so a plugin
// of the other API guards nothing there.
func openCodeAPI(hooks []install.Hook, o install.Options) []string {
	v, ok := install.HostVersion("opencode", o)
	if !ok {
		return nil
	}
	want := 1
	if v[0] >= 2 {
		want = 2
	}
	var out []string
	loaded := false
	for _, h := range hooks {
		src, err := os.ReadFile(h.File)
		if err != nil {
			continue
		}
		if api := opencode.API(string(src)); api == want {
			loaded = true
		} else if want == 2 {
			out = append(out, fmt.Sprintf("%s is a V1 plugin, which OpenCode %s does not run", h.File, v))
		}
	}
	if !loaded {
		out = append(out, fmt.Sprintf("no toolwall plugin OpenCode %s runs (V%d): toolwall install opencode", v, want))
	}
	return out
}

// probe runs hook h the way host name runs it, with a PreToolUse payload
// for a shell call running command in session, and returns the hook's
// answer. The hook runs with host.ProbeEnv set, so that its audit record
// reads as doctor's probe, not as an agent's call (the decision is the
// same).
func probe(ctx context.Context, name string, h install.Hook, o install.Options, session, command string) (host.Response, error) {
	cwd := o.Project
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var c *exec.Cmd
	if node, err := exec.LookPath("node"); err == nil && (name == "opencode" || name == "amp") {
		src, err := os.ReadFile(h.File)
		if err != nil {
			return host.Response{}, err
		}
		api := opencode.API(string(src))
		call := pluginCall(name, api, session, command)
		dir, err := os.MkdirTemp("", "toolwall-doctor")
		if err != nil {
			return host.Response{}, err
		}
		defer os.RemoveAll(dir)
		plugin := filepath.Join(dir, "plugin.mjs")
		if err := os.WriteFile(plugin, src, 0o600); err != nil {
			return host.Response{}, err
		}
		c = exec.CommandContext(ctx, node, "--input-type=module", "-e", PluginHarness(name, api), plugin, call, cwd)
	} else {
		c = exec.CommandContext(ctx, "sh", "-c", h.Command)
		c.Stdin = bytes.NewReader(hosts.ProbeIn(name, command, cwd, session))
	}
	c.Dir = cwd
	c.Env = append(os.Environ(), host.ProbeEnv+"=1")
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

// pluginCall is the host-shaped call a plugin harness offers its plugin
// for a shell command in session: OpenCode 1.x's (input, output) pair,
// OpenCode 2's execute.before event (the shell tool), Amp's tool.call
// event.
func pluginCall(name string, api int, session, command string) string {
	var v any
	switch {
	case name == "amp":
		v = map[string]any{"tool": "Bash", "input": map[string]any{"cmd": command}, "thread": map[string]any{"id": session}}
	case api == 2:
		v = map[string]any{"tool": "shell", "sessionID": session, "agent": "build", "messageID": "probe", "id": "probe", "input": map[string]any{"command": command}}
	default:
		v = map[string]any{"input": map[string]any{"tool": "bash", "sessionID": session, "callID": "probe"}, "output": map[string]any{"args": map[string]any{"command": command}}}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// PluginHarness is the node program that loads a plugin (argv[1]) the way
// its host does — Amp, OpenCode 1.x (api 1: the V1 loader) or OpenCode 2
// (api 2: the V2 loader) — offers it one host-shaped call (argv[2], JSON;
// see pluginCall) in a directory (argv[3]), and prints what the plugin
// decided as {"action":"allow"} or {"action":"deny","reason":…}. A plugin
// the host would not load is a deny saying so.
func PluginHarness(name string, api int) string {
	common := `const [plugin, call, dir] = process.argv.slice(1);
const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");
const refuse = (why) => { say({ action: "deny", reason: "not loaded: " + why }); process.exit(0); };
const m = await import("file://" + plugin);
const event = JSON.parse(call);
`
	switch {
	case name == "amp":
		// Amp loads a plugin only when its first line acknowledges the
		// experimental API (ampcode.com/manual/plugin-api); its helper
		// shellCommandFromToolCall reads the Bash tool's {cmd, cwd}.
		return common + `const fs = await import("node:fs");
if (fs.readFileSync(plugin, "utf8").split("\n")[0] !== "// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now")
  refuse("Amp needs the plugin's first line to be // @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now");
const helpers = { shellCommandFromToolCall: (e) => e.tool === "Bash" && e.input && typeof e.input.cmd === "string" ? { command: e.input.cmd, dir: e.input.cwd } : null };
let handler;
m.default({ on: (ev, f) => { if (ev === "tool.call") handler = f; }, system: { workspaceRoot: dir }, helpers });
const r = await handler(event, { system: { workspaceRoot: dir } });
say(r.action === "allow" ? { action: "allow" } : { action: "deny", reason: String(r.message) });
`
	case api == 2:
		// OpenCode 2's loader (packages/core/src/plugin/module.ts) takes only
		// a default export {id: string, setup: function} (or {id, effect});
		// the promise context's tool.hook(name, callback) registers a hook
		// and resolves to a registration; a callback that throws rejects
		// the call.
		return common + `const def = m.default;
if (!def || typeof def !== "object" || typeof def.id !== "string" || typeof def.setup !== "function")
  refuse("OpenCode 2 needs a default export with an id and a setup function");
const hooks = {};
const reg = (domain) => async (hook, cb) => { (hooks[domain + "." + hook] ||= []).push(cb); return { dispose: async () => {} }; };
await def.setup({ id: def.id, options: {}, location: { directory: dir }, tool: { hook: reg("tool") }, session: { hook: reg("session") } });
try {
  for (const cb of hooks["tool.execute.before"] || []) await cb(event);
  say({ action: "allow" });
} catch (e) { say({ action: "deny", reason: String(e && e.message) }); }
`
	default:
		// OpenCode 1.x's loader: a default export that is an object with an
		// id, server or tui must carry server(input, options); otherwise
		// every export must be a plugin function. Each returns hooks.
		return common + `const input = { directory: dir, worktree: dir, client: {}, project: {} };
const all = [];
const d = m.default;
if (d && typeof d === "object" && ("id" in d || "server" in d || "tui" in d)) {
  if (typeof d.server !== "function") refuse("OpenCode 1.x needs server() in a default export object");
  all.push(await d.server(input, {}));
} else {
  for (const f of new Set(Object.values(m))) {
    if (typeof f !== "function") refuse("OpenCode 1.x needs every export to be a plugin function");
    all.push(await f(input, {}));
  }
}
try {
  for (const h of all) if (h && h["tool.execute.before"]) await h["tool.execute.before"](event.input, event.output);
  say({ action: "allow" });
} catch (e) { say({ action: "deny", reason: String(e && e.message) }); }
`
	}
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
