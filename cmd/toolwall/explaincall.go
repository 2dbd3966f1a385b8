package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/provenance"
	"github.com/toolwall/toolwall/pwsh"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/shell"
	"github.com/toolwall/toolwall/trajectory"
)

// callFlags say which call explain reads, like check's.
type callFlags struct {
	cwd, project, home, tool, input, session string
	paths                                    []string
}

func (f *callFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.cwd, "cwd", "", "working directory of the call (default: the current directory)")
	fl.StringVar(&f.project, "project", "", "project root (default: --cwd)")
	fl.StringVar(&f.home, "home", "", "the user's home directory (default: $HOME)")
	fl.StringVar(&f.tool, "tool", "", "tool name for a call that is not a shell command (Write, Read, WebFetch, PowerShell, …)")
	fl.StringVar(&f.input, "input", "", "tool input as a JSON object, with --tool")
	fl.StringVar(&f.session, "session", "", "also show this session's trajectory risk and the origins its calls gave files, read from the state file")
	fl.StringArrayVar(&f.paths, "path", nil, "also show where the bytes of this file come from (this call's flows, and --session's); repeatable")
}

// explainCall reads one call step by step and prints every stage.
func explainCall(cmd *cobra.Command, f callFlags, args []string) error {
	call, err := checkCall(f.tool, f.input, args)
	if err != nil {
		return err
	}
	wd, _ := os.Getwd()
	if call.Cwd, err = absPath(orDefault(f.cwd, wd)); err != nil {
		return err
	}
	if call.Project, err = absPath(orDefault(f.project, call.Cwd)); err != nil {
		return err
	}
	if call.Home, err = absPath(orDefault(f.home, os.Getenv("HOME"))); err != nil {
		return err
	}
	cfg, err := loadConfig()
	if err != nil {
		return err
	}
	e := newEngine(cfg, engine.Options{Places: engine.Installed})
	call = gate.Normalize(call)
	v := e.Evaluate(cmd.Context(), call)
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "call:      %s in %s (project %s, home %s, context %s)\n", call.Tool, call.Cwd, call.Project, orDash(call.Home), call.Context)
	if script, how, err := gate.ReadCall(call); how != "" {
		if cmd, ok := call.Field("command"); ok && call.Tool == toolwall.ToolPowerShell {
			if bash, err := pwsh.Translate(cmd, pwsh.Options{Cwd: call.Cwd, Home: call.Home, Project: call.Project}); err == nil {
				fmt.Fprintf(out, "read as:   %s\n", strings.ReplaceAll(bash, "\n", "\n           "))
			}
		}
		writeReading(out, how, script, err)
	}
	writeFusion(out, v, e.Thresholds())
	writeOrigins(cmd.Context(), out, cfg, f, call, v)
	if f.session != "" {
		writeTrajectory(cmd.Context(), out, cfg, f.session, call, v)
	}
	return nil
}

// writeTrajectory prints session's trajectory risk as the state file
// holds it, and what it does to call (decided as v without it). It
// creates no state file and records nothing.
func writeTrajectory(ctx context.Context, w io.Writer, cfg *policy.Config, id string, call toolwall.Call, v toolwall.Verdict) {
	on := "on"
	if !cfg.Trajectory.Enabled {
		on = "off in the configuration, so the level is not applied"
	}
	path, err := engine.StatePath("", cfg)
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		fmt.Fprintf(w, "trajectory: session %s: no state to read (%v); %s\n", id, err, on)
		return
	}
	st, err := session.Open(path, session.Options{})
	if err != nil {
		fmt.Fprintf(w, "trajectory: session %s: %v; %s\n", id, err, on)
		return
	}
	defer st.Close()
	tr, err := trajectory.New(trajectory.Options{Store: st, Decay: cfg.TrajectoryDecay(), ReadOnly: cfg.Trajectory.ReadOnly})
	if err == nil {
		var s trajectory.State
		if s, err = tr.State(ctx, id); err == nil {
			fmt.Fprintf(w, "trajectory: session %s, turn %d: %s (%s)\n", id, s.Turn, trajectory.Describe(s), on)
			if s.Level == trajectory.Critical && cfg.Trajectory.Enabled && !tr.ReadOnly(call.Tool) && !v.Action.Stops() {
				fmt.Fprintf(w, "            in this session the call would be denied (%s): %s writes, runs or sends\n", trajectory.RuleCritical, call.Tool)
			}
			return
		}
	}
	fmt.Fprintf(w, "trajectory: session %s: %v\n", id, err)
}

// writeReading prints what the reader saw: every command with its parse
// and effects.
func writeReading(w io.Writer, how string, s *shell.Script, err error) {
	if err != nil {
		fmt.Fprintf(w, "reading:   %s: %v\n", how, err)
	}
	if s == nil {
		return
	}
	fmt.Fprintf(w, "reading:   %s, %d command(s) would run", how, len(s.Commands))
	if s.DryRun != "" {
		fmt.Fprintf(w, " (dry run: %s)", s.DryRun)
	}
	fmt.Fprintln(w)
	for i, c := range s.Commands {
		fmt.Fprintf(w, "  %d. %s\n", i+1, c.Shown())
		var notes []string
		if c.Via != "" {
			notes = append(notes, "via "+c.Via)
		}
		if len(c.Wrappers) > 0 {
			notes = append(notes, "wrapped in "+strings.Join(c.Wrappers, ", "))
		}
		if c.Privileged {
			notes = append(notes, "privileged")
		}
		if c.Remote {
			notes = append(notes, "on another host or in a container")
		}
		if c.Cwd != "" {
			notes = append(notes, "in "+c.Cwd)
		}
		if c.Stdin.Kind == shell.StdinPipe && c.Stdin.From != nil {
			notes = append(notes, "stdin from "+c.Stdin.From.String())
		}
		if len(notes) > 0 {
			fmt.Fprintf(w, "     %s\n", strings.Join(notes, "; "))
		}
		switch {
		case c.Inv == nil:
			fmt.Fprintf(w, "     parse:   the program is only known at run time\n")
		case c.Inv.Program() == nil:
			fmt.Fprintf(w, "     parse:   %s (not in the program catalog)\n", c.Name)
		default:
			fmt.Fprintf(w, "     parse:   %s\n", c.Inv)
		}
		for _, e := range c.Effects {
			p := e.Path
			if p == "" {
				p = e.Word.Value
				if e.Word.Dynamic {
					p = e.Word.Raw + " (known at run time)"
				}
			}
			var more []string
			if e.Recursive {
				more = append(more, "recursive")
			}
			if e.Remote {
				more = append(more, "remote")
			}
			if e.Mode != "" {
				more = append(more, "mode "+e.Mode)
			}
			if e.From != "" {
				more = append(more, "from "+e.From)
			}
			fmt.Fprintf(w, "     effect:  %s %s", e.Kind, p)
			if len(more) > 0 {
				fmt.Fprintf(w, " (%s)", strings.Join(more, ", "))
			}
			fmt.Fprintln(w)
		}
	}
}

// writeFusion prints the findings, how they fuse, and the verdict.
func writeFusion(w io.Writer, v toolwall.Verdict, th toolwall.Thresholds) {
	if len(v.Findings) == 0 {
		fmt.Fprintln(w, "findings:  none")
	}
	for i, f := range v.Findings {
		if i == 0 {
			fmt.Fprintln(w, "findings:")
		}
		fmt.Fprintf(w, "  %s (%s): %s, score %.2f\n     %s\n", f.Rule, f.Analyzer, f.Action, f.Score, f.Reason)
	}
	for _, e := range v.Effects {
		d := e.Detail
		if provenance.Carries(e.Tag) {
			var kinds []string
			for _, s := range provenance.Decode(d) {
				kinds = append(kinds, string(s.Kind))
			}
			d = strings.Join(kinds, " → ")
		}
		fmt.Fprintf(w, "tag:       %s %s %s\n", e.Tag, e.Path, d)
	}
	floor := toolwall.Allow
	for _, f := range v.Findings {
		floor = toolwall.Stricter(floor, f.Action)
	}
	fmt.Fprintf(w, "fusion:    highest score %.2f is in band %s (warn from %.2f, block from %.2f, critical from 0.9) → %s; strictest floor of the findings → %s\n",
		v.Score, v.Band, th.Warn, th.Block, v.Band.Action(), floor)
	fmt.Fprintf(w, "verdict:   %s", v.Action)
	if v.Reason != "" {
		fmt.Fprintf(w, ": %s", v.Reason)
	}
	fmt.Fprintln(w)
	for _, n := range v.Notes {
		fmt.Fprintf(w, "note:      %s\n", n)
	}
}

// writeOrigins prints where the bytes of the files the call touches come
// from: every file the call gives an origin, every file it runs, builds,
// installs or sends, and each --path, from the call's own flows and, with
// --session, the session's recorded calls (read from the state file,
// which is neither created nor changed).
func writeOrigins(ctx context.Context, w io.Writer, cfg *policy.Config, f callFlags, call toolwall.Call, v toolwall.Verdict) {
	var hist []session.Record
	if f.session != "" {
		if p, err := engine.StatePath("", cfg); err == nil {
			if _, err = os.Stat(p); err == nil {
				if st, err := session.Open(p, session.Options{}); err == nil {
					hist, err = st.History(ctx, f.session, session.DefaultWindow())
					st.Close()
					if err != nil {
						fmt.Fprintf(w, "origins:   session %s: %v\n", f.session, err)
					}
				}
			}
		}
	}
	m := gate.Origins(hist, v.Effects)
	var ps []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			ps = append(ps, p)
		}
	}
	for _, e := range v.Effects {
		switch e.Tag {
		case provenance.TagOrigin, provenance.TagOriginTree, toolwall.TagExecLocal, toolwall.TagBuildInput,
			toolwall.TagInstallPackage, provenance.TagSend:
			add(e.Path)
		}
	}
	for _, p := range f.paths {
		add(paths.Abs(paths.Expand(p, call.Home), call.Cwd))
	}
	for _, p := range ps {
		fl, ok := m.Lookup(p)
		switch {
		case !ok:
			fmt.Fprintf(w, "origin:    %s: the project's, or not known\n", p)
		default:
			fmt.Fprintf(w, "origin:    %s: %s (%s)\n", p, fl.Story(p), fl.Root().Kind)
		}
	}
	for _, fd := range v.Findings {
		if strings.HasPrefix(fd.Rule, "flow.") || strings.HasPrefix(fd.Rule, "chain.") {
			fmt.Fprintf(w, "flow:      %s decided: %s\n", fd.Rule, fd.Reason)
		}
	}
}
