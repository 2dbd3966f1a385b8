package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/chain"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/shell"
)

// Seed 000's repetition dimension: 0 / 1 / 2 / 3+ prior occurrences add
// 0.0 / 0.1 / 0.3 / 0.6, weighted 0.5. The gate applies it to refused
// attempts only, so benign repetition never raises risk.
var repetition = [...]float64{0, 0.1, 0.3, 0.6}

const repetitionWeight = 0.5

// RecordInvocation records an executed call in its session: its summary,
// input, success and risk tags, for chain rules to look back on. Calls
// without a session id, and every call when the gate has no store, are
// not recorded. Errors are logged, never raised: memory is best effort.
func (g *Gate) RecordInvocation(ctx context.Context, call toolwall.Call, success bool) {
	if g.store == nil || call.Session == "" {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: panic while recording a call", "tool", call.Tool, "panic", r)
		}
	}()
	call = Normalize(call)
	findings, effects, _ := g.analyze(ctx, call)
	var rules []string
	for _, f := range findings {
		if f.Rule != "" && !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
		}
	}
	err := g.store.Append(ctx, call.Session, session.Record{
		Tool: call.Tool, Summary: call.Summary(), Input: call.Input,
		Success: success, Effects: effects, Rules: rules,
	})
	if err != nil {
		g.log.Warn("toolwall: cannot record call; chain memory will miss it", "session", call.Session, "err", err)
	}
}

// AdvanceTurn starts the session's next user turn. Without a store it does
// nothing and returns 0.
func (g *Gate) AdvanceTurn(ctx context.Context, id string) (int, error) {
	if g.store == nil {
		return 0, nil
	}
	return g.store.AdvanceTurn(ctx, id)
}

// recall looks back over the session: chain rules over the window's
// executed calls, and raised risk for categories refused before.
func (g *Gate) recall(ctx context.Context, id string, findings []toolwall.Finding, effects []toolwall.Effect) ([]toolwall.Finding, error) {
	base := 0.0
	for _, f := range findings {
		base = max(base, f.Score)
	}
	var out []toolwall.Finding
	// A call without risk tags cannot complete a chain: skip the history
	// read, so most calls never touch the store (see session.Lazy).
	var hist []session.Record
	if len(effects) > 0 {
		var err error
		if hist, err = g.store.History(ctx, id, g.window); err != nil {
			return nil, err
		}
	}
	if len(hist) > 0 {
		steps := make([]chain.Step, len(hist))
		for i, r := range hist {
			steps[i] = chain.Step{Summary: r.Summary, Turn: r.Turn, Effects: r.Effects}
		}
		out = append(out, chain.Evaluate(g.chains, steps, effects, base)...)
	}
	var errs []error
	seen := map[string]bool{}
	for _, f := range findings {
		if f.Category == "" || seen[f.Category] || f.Score < toolwall.LowScore {
			continue
		}
		seen[f.Category] = true
		n, err := g.store.Refusals(ctx, id, refusalKey(f.Category), g.window)
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
	return out, errors.Join(errs...)
}

// noteRefusals remembers a denied call's categories so later attempts at
// the same kind of thing score higher.
func (g *Gate) noteRefusals(ctx context.Context, id string, v toolwall.Verdict) {
	seen := map[string]bool{}
	for _, f := range v.Findings {
		if f.Action != toolwall.Deny && f.Score < g.thresholds.Block || f.Category == "" || f.Category == "chain" || seen[f.Category] {
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
			if effects[i].Tag == toolwall.TagWriteScript && effects[i].Detail == "" && g.destructive(ctx, call, content) {
				effects[i].Detail = "destructive"
			}
		}
		return effects
	}
	if script == nil {
		return effects
	}
	for _, c := range script.Commands {
		body := writtenText(c)
		if body == "" {
			continue
		}
		for _, r := range c.Redirects {
			if !r.Writes() || r.Target.Dynamic || r.Target.Value == "" || strings.HasPrefix(r.Target.Value, "/dev/") {
				continue
			}
			if g.destructive(ctx, call, body) {
				effects = append(effects, toolwall.Effect{Tag: toolwall.TagWriteScript, Path: paths.Abs(r.Target.Value, c.Cwd), Detail: "destructive"})
			}
		}
	}
	return effects
}

// writtenText is the text a command writes to its stdout when that text
// is static: a heredoc or here-string fed to cat or tee, or the arguments
// of echo or printf.
func writtenText(c *shell.Command) string {
	switch c.Name {
	case "cat", "tee":
		if c.Stdin.Kind == shell.StdinHeredoc && !c.Stdin.Dynamic {
			return c.Stdin.Text
		}
	case "echo", "printf":
		var parts []string
		for _, w := range c.Args[1:] {
			if !strings.HasPrefix(w.Value, "-") || len(parts) > 0 {
				parts = append(parts, w.Value)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// destructive reports whether body, run as a shell command in call's
// places, would be stopped by the single-call analysis.
func (g *Gate) destructive(ctx context.Context, call toolwall.Call, body string) bool {
	run := toolwall.NewBashCall(body)
	run.Cwd, run.Project, run.Home, run.Context = call.Cwd, call.Project, call.Home, call.Context
	in := &analysis.Input{Call: run}
	script, f := g.read(run)
	if f != nil && script == nil {
		return f.Action == toolwall.Deny && f.Rule == "shell.limit"
	}
	in.Script = script
	rep := &analysis.Report{}
	for _, a := range g.byTool[toolwall.ToolBash] {
		g.run(ctx, a, in, rep)
	}
	return g.fuse(rep.Findings, nil, nil).Action.Stops()
}
