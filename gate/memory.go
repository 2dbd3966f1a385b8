package gate

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/chain"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/provenance"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/shell"
)

// The tool shield's repetition dimension: 0 / 1 / 2 / 3+ prior occurrences add
// 0.0 / 0.1 / 0.3 / 0.6, weighted 0.5. The gate applies it to refused
// attempts only, so benign repetition never raises risk.
var repetition = [...]float64{0, 0.1, 0.3, 0.6}

const repetitionWeight = 0.5

// RecordInvocation records an executed call in its session: its summary,
// input, success and risk tags, for chain rules to look back on. Calls
// without risk tags or without a session id, and every call when the gate
// has no store, are not recorded. Errors are logged, never raised: memory is best effort.
func (g *Gate) RecordInvocation(ctx context.Context, call toolwall.Call, success bool) {
	g.observe(ctx, call, success)
	if g.store == nil || call.Session == "" {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: panic while recording a call", "tool", call.Tool, "panic", r)
		}
	}()
	call = Normalize(call)
	if call.ID != "" {
		// The record made when the call was judged, before it ran, knows
		// the directory it started in; the host may report the one it
		// ended in ("cd sub && curl -o x.sh …").
		committed, err := g.store.Commit(ctx, call.Session, call.ID, success)
		if err != nil {
			g.log.Warn("toolwall: cannot record call; chain memory will miss it", "session", call.Session, "err", err)
		}
		if committed {
			return
		}
		// Not committed, or the store failed: a call with risk tags is
		// appended below, and a store that fails notes the record as
		// lost, so the session's next calls know their memory has a hole.
	}
	findings, effects, _ := g.analyze(ctx, call, nil)
	if slices.ContainsFunc(effects, func(e toolwall.Effect) bool { return strings.HasPrefix(e.Detail, "from:") || provenance.Carries(e.Tag) }) {
		// derives are recorded resolved, so later calls need no older
		// history to know where a file came from
		hist, err := g.store.History(ctx, call.Session, g.window)
		if err == nil {
			effects = carry(hist, effects)
		}
		_, effects, _ = g.trace(call, hist, effects)
	}
	effects = kept(effects)
	if len(effects) == 0 {
		// Only calls with risk tags can be a link of a chain. Keeping the
		// others out means a burst of harmless calls cannot push the first
		// link out of the window, and most calls never touch the store.
		return
	}
	err := g.store.Append(ctx, call.Session, session.Record{
		Tool: call.Tool, Summary: call.Summary(), Input: call.Input,
		Success: success, Effects: effects, Rules: toolwall.Verdict{Findings: findings}.Rules(),
	})
	if err != nil {
		g.log.Warn("toolwall: cannot record call; chain memory will miss it", "session", call.Session, "err", err)
	}
}

// stageBudget bounds how long staging a call may wait for the store.
const stageBudget = 100 * time.Millisecond

// stage remembers an allowed (or asked) call with risk tags under the
// host's id for it, for RecordInvocation to commit when the host reports
// it ran. Calls without an id or without tags are not staged.
func (g *Gate) stage(ctx context.Context, call toolwall.Call, findings []toolwall.Finding, effects []toolwall.Effect) {
	effects = kept(effects)
	if call.ID == "" || len(effects) == 0 {
		return
	}
	// Staging is best effort and must not hold the verdict up behind
	// another process's write: a call not staged is analyzed again when
	// it is reported (RecordInvocation).
	ctx, cancel := context.WithTimeout(ctx, stageBudget)
	defer cancel()
	err := g.store.Stage(ctx, call.Session, call.ID, session.Record{
		Tool: call.Tool, Summary: call.Summary(), Input: call.Input,
		Effects: effects, Rules: toolwall.Verdict{Findings: findings}.Rules(),
	})
	if err != nil {
		g.log.Warn("toolwall: cannot stage call; chain memory may miss it", "session", call.Session, "err", err)
	}
}

// kept leaves out the effects only the call itself is judged by — a
// program run by name, a file sent out: sinks of flows, never a link a
// later call looks back on — so that a burst of such calls neither fills
// the store nor pushes a download out of the window.
func kept(effects []toolwall.Effect) []toolwall.Effect {
	if !slices.ContainsFunc(effects, sinkOnly) {
		return effects
	}
	return slices.DeleteFunc(slices.Clone(effects), sinkOnly)
}

func sinkOnly(e toolwall.Effect) bool {
	return e.Tag == provenance.TagRunName || e.Tag == provenance.TagSend
}

// AdvanceTurn starts the session's next user turn. Without a store it does
// nothing and returns 0.
func (g *Gate) AdvanceTurn(ctx context.Context, id string) (int, error) {
	if g.store == nil {
		return 0, nil
	}
	return g.store.AdvanceTurn(ctx, id)
}

// carry follows files through renames and copies across calls: when this
// call copies or moves (a stage effect with Detail "from:SRC") a file that
// an earlier call downloaded or wrote as a script, the destination gets
// the same tag, so "download x.txt; mv x.txt run.sh; bash run.sh" is the
// download-then-run chain it is.
func carry(hist []session.Record, effects []toolwall.Effect) []toolwall.Effect {
	out := effects
	for _, e := range effects {
		src, ok := strings.CutPrefix(e.Detail, "from:")
		if e.Tag != toolwall.TagStage || !ok {
			continue
		}
		for _, r := range hist {
			for _, h := range r.Effects {
				if (h.Tag == toolwall.TagDownloadFile || h.Tag == toolwall.TagWriteScript) && h.Path == src {
					out = append(out, toolwall.Effect{Tag: h.Tag, Path: e.Path, Detail: h.Detail})
				}
			}
		}
	}
	return out
}

// recall looks back over the session: chain rules over the window's
// executed calls, and raised risk for categories refused before. It
// returns the effects with carry's additions.
func (g *Gate) recall(ctx context.Context, call toolwall.Call, findings []toolwall.Finding, effects []toolwall.Effect) ([]toolwall.Finding, []toolwall.Effect, error) {
	base := 0.0
	for _, f := range findings {
		base = max(base, f.Score)
	}
	var out []toolwall.Finding
	// A call without risk tags cannot complete a chain: skip the history
	// read, so most calls never touch the store (see session.Lazy).
	var hist []session.Record
	var flows *provenance.Map
	var errs []error
	if len(effects) > 0 {
		var err error
		if hist, err = g.store.History(ctx, call.Session, g.window); err != nil {
			// Memory with a known hole still holds what it has: a chain
			// it shows is stopped as a chain, and the hole is reported.
			var lost *session.LostError
			if !errors.As(err, &lost) {
				return nil, effects, err
			}
			errs = append(errs, err)
		}
		effects = carry(hist, effects)
		more, traced, m := g.trace(call, hist, effects)
		out, effects, flows = append(out, g.enabled(more)...), traced, m
	}
	if len(hist) > 0 {
		steps := make([]chain.Step, len(hist))
		for i, r := range hist {
			steps[i] = chain.Step{Summary: r.Summary, Turn: r.Turn, Effects: r.Effects}
		}
		out = append(out, chain.Evaluate(g.chains, current(flows, steps), effects, base)...)
	}
	seen := map[string]bool{}
	for _, f := range findings {
		if f.Category == "" || seen[f.Category] || f.Score < toolwall.LowScore || toolwall.Fault(f.Rule) {
			continue
		}
		seen[f.Category] = true
		n, err := g.store.Refusals(ctx, call.Session, refusalKey(f.Category), g.window)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if n == 0 {
			continue
		}
		rep := repetition[min(n, len(repetition)-1)]
		out = append(out, toolwall.Finding{
			Analyzer: "chain", Rule: "chain.repeated-refusal", Category: f.Category,
			Score: min(1, base+repetitionWeight*rep),
			Reason: fmt.Sprintf("This session already had %d refused attempt(s) at %s actions in the last turns, and this call tries the same kind of thing again (%s). Stop retrying variants; ask the user how to proceed.",
				n, f.Category, f.Rule),
		})
	}
	return out, effects, errors.Join(errs...)
}

// memoryOff fails closed while chain memory is unavailable: a
// call that would complete a chain if its first steps had run — running
// a local file that is not one of the project's tracked files, sending
// data out, deleting protected data — is asked about, with a reason that
// says memory is off and why (off, the verdict's note).
func (g *Gate) memoryOff(ctx context.Context, call toolwall.Call, effects []toolwall.Effect, off string) (toolwall.Finding, bool) {
	why := ""
	for _, e := range effects {
		switch {
		case e.Tag == toolwall.TagExecLocal && e.Path != "":
			if paths.Under(e.Path, call.Project) && g.tracked != nil && g.tracked(ctx, call.Project, e.Path) {
				continue
			}
			why = "whether an earlier call of this session downloaded or wrote " + e.Path + ", which this call runs"
		case e.Tag == toolwall.TagBuildInput && e.Path != "" && g.exists != nil:
			// a file a build, a test run or a git hook runs as code: only
			// one that is there and not the project's own could have been
			// planted (a hook under .git is never tracked)
			if ok, known := g.exists(e.Path); !ok || !known {
				continue
			}
			if paths.Under(e.Path, call.Project) && g.tracked != nil && g.tracked(ctx, call.Project, e.Path) {
				continue
			}
			why = "whether an earlier call of this session downloaded or planted " + e.Path + ", which this call runs as code"
		case e.Tag == toolwall.TagEgress:
			why = "whether an earlier call of this session read a secret that this call could send out"
		case e.Tag == toolwall.TagDelete && e.Detail == "protected":
			why = "whether this delete completes an inspect-stage-delete sequence"
		default:
			continue
		}
		break
	}
	if why == "" {
		return toolwall.Finding{}, false
	}
	return toolwall.Finding{
		Analyzer: "chain", Rule: "chain.memory-off", Category: "chain",
		Score: 0.6, Action: toolwall.Ask,
		Reason: fmt.Sprintf("toolwall's session memory is off (%s), so it cannot tell %s; a human has to confirm this call.", strings.TrimPrefix(off, "chain memory off: "), why),
	}, true
}

// noteRefusals remembers a denied call's categories so later attempts at
// the same kind of thing score higher. Findings that are toolwall's own
// faults (see fault) are not the agent's attempts and are not noted; the
// other findings of the same call are.
func (g *Gate) noteRefusals(ctx context.Context, id string, v toolwall.Verdict) {
	// A check that was cancelled or ran out of time still notes what its
	// analyzers found, or an agent could keep its attempts from counting
	// by making their checks too slow to finish; the write is bounded as
	// staging is.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stageBudget)
	defer cancel()
	seen := map[string]bool{}
	for _, f := range v.Findings {
		if f.Action != toolwall.Deny && f.Score < g.thresholds.Block || f.Category == "" || f.Category == "chain" || seen[f.Category] || toolwall.Fault(f.Rule) {
			continue
		}
		seen[f.Category] = true
		if _, err := g.store.NoteRefusal(ctx, id, refusalKey(f.Category)); err != nil {
			g.log.Warn("toolwall: cannot note refusal", "session", id, "err", err)
		}
	}
}

func refusalKey(category string) string { return "category:" + category }

// markScripts judges scripts a call writes, so the chain "write a
// destructive script, then run it" can fire: the content of a Write call
// whose analyzers tagged it write-script, and, for a Bash call, every file
// written by a redirect from a heredoc, a here-string or echo/printf text
// ("cat > x.sh <<'EOF' … EOF"). A body that toolwall would stop if it were
// run as a shell command gets a write-script effect with Detail
// "destructive". It returns the effects with those additions.
func (g *Gate) markScripts(ctx context.Context, call toolwall.Call, script *shell.Script, effects []toolwall.Effect) []toolwall.Effect {
	if call.Tool != toolwall.ToolBash {
		content, ok := call.Field("content")
		if !ok {
			return effects
		}
		for i := range effects {
			if effects[i].Tag == toolwall.TagWriteScript && effects[i].Detail == "" && g.destructive(ctx, call, runText(effects[i].Path, content)) {
				effects[i].Detail = "destructive"
			}
		}
		return effects
	}
	if script == nil {
		return effects
	}
	for _, c := range script.Commands {
		targets := writtenFiles(c)
		if len(targets) == 0 {
			continue
		}
		body := writtenText(c)
		if body == "" {
			continue
		}
		for _, t := range targets {
			if g.destructive(ctx, call, runText(t, body)) {
				effects = append(effects, toolwall.Effect{Tag: toolwall.TagWriteScript, Path: t, Detail: "destructive"})
			}
		}
	}
	return effects
}

// writtenFiles lists the static files a command writes its output to: its
// write redirects, and tee's file operands.
func writtenFiles(c *shell.Command) []string {
	var out []string
	add := func(w shell.Word) {
		if !w.Dynamic && w.Value != "" && !strings.HasPrefix(w.Value, "/dev/") {
			out = append(out, paths.Abs(w.Value, c.Cwd))
		}
	}
	for _, r := range c.Redirects {
		if r.Writes() {
			add(r.Target)
		}
	}
	if c.Name == "tee" && len(c.Args) > 0 {
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w.Value, "-") {
				add(w)
			}
		}
	}
	return out
}

// writtenText is the text a command writes to its stdout when that text
// is static: a heredoc or here-string fed to cat or tee, the arguments of
// echo, or the arguments of printf after its format (each on a line of
// its own, as "%s\n" would print them).
func writtenText(c *shell.Command) string {
	if len(c.Args) == 0 {
		return ""
	}
	var words []string
	for _, w := range c.Args[1:] {
		words = append(words, w.Value)
	}
	switch c.Name {
	case "cat", "tee":
		if c.Stdin.Kind == shell.StdinHeredoc && !c.Stdin.Dynamic {
			return c.Stdin.Text
		}
	case "echo":
		for len(words) > 0 && strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
		return strings.Join(words, " ")
	case "printf":
		if len(words) > 1 && strings.Contains(words[0], "%") {
			return strings.Join(words[1:], "\n")
		}
		return strings.Join(words, " ")
	}
	return ""
}

// destructive reports whether body, run as a shell command in call's
// places, would be stopped by the single-call analysis.
// runText is the Bash text that runs body as the file p would run: a
// program of another language (by its #! line, else by the extension
// its interpreter's catalog entry lists) is fed to that interpreter on
// a heredoc, so it is judged as the program it is (a Python reverse
// shell, an rmtree of the home) rather than read as shell text; shell
// scripts and files of no known language are the body itself.
func runText(p, body string) string {
	var prog *programs.Program
	if first, _, _ := strings.Cut(body, "\n"); strings.HasPrefix(first, "#!") {
		f := strings.Fields(strings.TrimPrefix(first, "#!"))
		if len(f) > 1 && path.Base(f[0]) == "env" {
			f = f[1:]
			for len(f) > 1 && strings.HasPrefix(f[0], "-") {
				f = f[1:] // env -S, env -i
			}
		}
		if len(f) > 0 {
			prog = programs.Lookup(path.Base(f[0]))
		}
	} else {
		prog = programs.ForFile(p)
	}
	if prog == nil || prog.Lang == "" || prog.Lang == "sh" {
		return body
	}
	delim := "TOOLWALL_BODY"
	for strings.Contains(body, delim) {
		delim += "_"
	}
	return prog.Name + " <<'" + delim + "'\n" + body + "\n" + delim
}

func (g *Gate) destructive(ctx context.Context, call toolwall.Call, body string) bool {
	run := toolwall.NewBashCall(body)
	run.Cwd, run.Project, run.Home, run.Context = call.Cwd, call.Project, call.Home, call.Context
	in := &analysis.Input{Call: run}
	var (
		script *shell.Script
		f      *toolwall.Finding
	)
	if utf8.ValidString(body) {
		script, f = g.readText(body, run) // the command run's input holds, unchanged
	} else {
		script, f = g.read(run) // as its input holds it: invalid bytes replaced
	}
	if f != nil && script == nil {
		// A body toolwall cannot read is not known to be safe to run.
		return f.Action.Stops()
	}
	in.Script = script
	rep := &analysis.Report{}
	for _, a := range g.byTool[toolwall.ToolBash] {
		g.run(ctx, a, in, rep)
	}
	return g.fuse(rep.Findings, nil, nil).Action.Stops()
}
