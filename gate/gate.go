package gate

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/chain"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/shell"
	"mvdan.cc/sh/v3/syntax"
)

// Options configure a Gate. The zero value is usable: no analyzers, default
// thresholds, default shell limits, slog.Default for logs.
type Options struct {
	// Analyzers run on every call whose tool they list.
	Analyzers []*analysis.Analyzer
	// Thresholds set the warn and block edges; the zero value means
	// toolwall.DefaultThresholds. Build it with toolwall.NewThresholds.
	Thresholds toolwall.Thresholds
	// Disabled lists rule ids whose findings are dropped (a noisy rule is
	// switched off, not the analyzer).
	Disabled []string
	// Shell sets the reader's limits (size, depth, commands, nodes); Cwd,
	// Home and User are filled from each call.
	Shell shell.Options
	// Logger receives internal errors; nil means slog.Default().
	Logger *slog.Logger
	// Store, when set, gives the gate session memory: executed calls are
	// recorded, chain rules look back over them, and repeated refusals
	// raise risk. Calls without a session id get no memory.
	Store session.Store
	// StoreErr, when set, says why session memory is unavailable; every
	// verdict then carries the note "chain memory off: …" (single-call
	// analysis still works).
	StoreErr error
	// Window bounds the history chain rules see (default ChainWindow: 100
	// calls within 3 turns). The tool-executor framework's window is in turns; the call bound
	// is wider than the tool shield's 20 so that an agent cannot push the first
	// link of a chain out of memory with a burst of harmless calls. Open
	// the store with Options.Calls at least this large.
	Window session.Window
	// Chains are the chain rules; nil means chain.Rules.
	Chains []chain.Rule
	// Tracked, when set, reports whether git tracks path in the project
	// (both absolute); used only while chain memory is off, to tell a
	// project file from one a session may have downloaded. Nil: every
	// file counts as untracked.
	Tracked func(ctx context.Context, project, path string) bool
	// Exists is handed to analyzers as analysis.Input.Exists; nil leaves
	// existence unknown.
	Exists func(path string) (exists, known bool)
	// Later is the later stage (analyzers that may call out); the zero
	// value has none.
	Later LaterStage
	// MaxInput bounds a call's input, in bytes (default DefaultMaxInput;
	// negative: none). A larger input is denied (RuleTooLarge) before it
	// is decoded: reading it would take more than a decision's budget of
	// CPU and memory.
	MaxInput int
}

// ChainWindow is the default history window of chain rules: the last 100
// executed calls, of those the ones in the last 3 turns.
var ChainWindow = session.Window{Calls: 100, Turns: session.DefaultTurns}

// Gate decides on tool calls. It is safe for concurrent use.
type Gate struct {
	byTool     map[string][]*analysis.Analyzer
	thresholds toolwall.Thresholds
	disabled   map[string]bool
	shellOpts  shell.Options
	log        *slog.Logger
	watched    []string
	store      session.Store
	storeNote  string
	window     session.Window
	chains     []chain.Rule
	tracked    func(ctx context.Context, project, path string) bool
	exists     func(string) (bool, bool)
	later      LaterStage
	maxInput   int
}

// DefaultMaxInput is the default Options.MaxInput: 512 KiB, more than a
// model writes in one reply (its output is bounded to some tens of
// thousands of tokens). Each analyzer reads the fields it needs from the
// input, so a call's CPU time grows with its size (about 50 ms a MiB for
// a Write); within 512 KiB a decision stays well within 50 ms of CPU. A
// Bash command is bounded lower still by the reader
// (shell.DefaultMaxBytes).
const DefaultMaxInput = 512 << 10

// RuleTooLarge is the rule of a call whose input is larger than
// Options.MaxInput.
const RuleTooLarge = "input.too-large"

// New returns a Gate for opts.
func New(opts Options) *Gate {
	g := &Gate{
		byTool:     map[string][]*analysis.Analyzer{},
		thresholds: opts.Thresholds,
		disabled:   map[string]bool{},
		shellOpts:  opts.Shell,
		maxInput:   cmp.Or(opts.MaxInput, DefaultMaxInput),
		log:        opts.Logger,
		store:      opts.Store,
		window:     opts.Window,
		chains:     opts.Chains,
		tracked:    opts.Tracked,
		exists:     opts.Exists,
		later:      opts.Later,
	}
	if opts.StoreErr != nil {
		g.storeNote = "chain memory off: " + opts.StoreErr.Error()
	}
	if g.chains == nil {
		g.chains = chain.Rules
	}
	if g.window == (session.Window{}) {
		g.window = ChainWindow
	}
	if g.thresholds == (toolwall.Thresholds{}) {
		g.thresholds = toolwall.DefaultThresholds()
	}
	if g.log == nil {
		g.log = slog.Default()
	}
	for _, id := range opts.Disabled {
		g.disabled[id] = true
	}
	for _, a := range opts.Analyzers {
		for _, t := range a.Tools {
			g.byTool[t] = append(g.byTool[t], a)
		}
	}
	for t := range g.byTool {
		g.watched = append(g.watched, t)
	}
	slices.Sort(g.watched)
	return g
}

// Thresholds returns the thresholds in force.
func (g *Gate) Thresholds() toolwall.Thresholds { return g.thresholds }

// WatchedTools lists the tools some analyzer looks at, sorted.
func (g *Gate) WatchedTools() []string { return slices.Clone(g.watched) }

// Normalize fills a call's defaults the way the gate reads it: a relative
// path is unusable and counts as empty; Cwd falls back to Project, then
// "/"; Project falls back to Cwd; all three paths are cleaned; an empty
// Home stays empty ("~" is then unknown, hence asked about); Context
// defaults to user. Drivers may call it to show what the gate will see.
func Normalize(c toolwall.Call) toolwall.Call {
	clean := func(p string) string {
		if !path.IsAbs(p) {
			return ""
		}
		return path.Clean(p)
	}
	c.Cwd, c.Project, c.Home = clean(c.Cwd), clean(c.Project), clean(c.Home)
	if c.Cwd == "" {
		c.Cwd = c.Project
	}
	if c.Cwd == "" {
		c.Cwd = "/"
	}
	if c.Project == "" {
		c.Project = c.Cwd
	}
	if c.Context == "" {
		c.Context = toolwall.UserContext
	}
	return c
}

// Evaluate decides on call. It never panics: an internal failure becomes a
// deny whose reason says so.
func (g *Gate) Evaluate(ctx context.Context, call toolwall.Call) (v toolwall.Verdict) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: panic in evaluation", "tool", call.Tool, "panic", r)
			v = g.fuse([]toolwall.Finding{internalFinding(fmt.Sprint(r))}, nil, nil)
		}
	}()
	call = Normalize(call)
	if g.maxInput > 0 && len(call.Input) > g.maxInput {
		// Refused before anything reads it, whatever it holds: a deny,
		// so that no call is let through (or merely asked about) that
		// a full reading would have denied.
		return g.fuse([]toolwall.Finding{{
			Analyzer: "gate", Rule: RuleTooLarge, Category: "input", Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The %s call's input is %d bytes, more than the %d toolwall checks, so it is refused unread. Send the work in smaller calls (write a large file in parts), or ask the user to do it.", call.Tool, len(call.Input), g.maxInput),
		}}, nil, nil)
	}
	t := timings{base: time.Now()}
	t.stages = make([]toolwall.Timing, 0, len(g.byTool[toolwall.ToolBash])+3)
	findings, effects, script := g.analyze(ctx, call, &t)
	var notes []string
	off := g.storeNote
	if off != "" {
		notes = append(notes, off)
	}
	t.mark()
	if g.store != nil && call.Session != "" {
		more, carried, err := g.recall(ctx, call, findings, effects)
		effects = carried
		if err != nil {
			g.log.Warn("toolwall: session memory unavailable for this call", "session", call.Session, "err", err)
			off = "chain memory off: " + err.Error()
			notes = append(notes, off)
		}
		findings = append(findings, more...)
	}
	if g.store == nil || call.Session == "" {
		// without session memory, the flows of this call alone
		more, traced, _ := g.trace(call, nil, effects)
		findings, effects = append(findings, g.enabled(more)...), traced
	}
	if off != "" {
		if f, ok := g.memoryOff(ctx, call, effects, off); ok {
			findings = append(findings, g.enabled([]toolwall.Finding{f})...)
		}
	}
	remembered := t.mark()
	v = g.fuse(findings, effects, script)
	t.mark()
	v, notes = g.second(ctx, call, script, findings, effects, v, notes)
	if len(g.later.Analyzers) > 0 {
		t.add("later")
	}
	v.Notes = notes
	if g.store != nil && call.Session != "" {
		t.mark()
		if v.Action == toolwall.Deny {
			g.noteRefusals(ctx, call.Session, v)
		} else {
			g.stage(ctx, call, findings, effects)
		}
		t.stages = append(t.stages, toolwall.Timing{Stage: "memory", Elapsed: remembered + t.mark()})
	}
	v.Timings = t.stages
	return v
}

// timings collects a decision's Verdict.Timings with one reading of the
// monotonic clock per stage boundary (time.Since reads only that clock);
// a nil *timings reads no clock and collects nothing.
type timings struct {
	stages []toolwall.Timing
	base   time.Time     // the decision's start
	at     time.Duration // the last boundary, since base
}

// mark starts a stage now and returns the time since the last boundary.
func (t *timings) mark() time.Duration {
	if t == nil {
		return 0
	}
	now := time.Since(t.base)
	d := now - t.at
	t.at = now
	return d
}

// add notes that stage ran from the last boundary until now.
func (t *timings) add(stage string) {
	if t != nil {
		t.stages = append(t.stages, toolwall.Timing{Stage: stage, Elapsed: t.mark()})
	}
}

// analyze runs the single-call analysis: the shell reading of a Bash call
// and every analyzer watching the tool, each timed into t (nil: untimed).
func (g *Gate) analyze(ctx context.Context, call toolwall.Call, t *timings) ([]toolwall.Finding, []toolwall.Effect, *shell.Script) {
	// A shell call's input is validated where its command is read
	// (Call.Field refuses it: input.malformed), so it is not read twice.
	commandTool := call.Tool == toolwall.ToolBash || call.Tool == toolwall.ToolPowerShell
	if !commandTool && len(call.Input) > 0 && !json.Valid(call.Input) {
		return []toolwall.Finding{{
			Analyzer: "gate", Rule: toolwall.RuleMalformed, Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The %s tool call's input is not valid JSON, so what it would do cannot be told; it is refused. Send the arguments as one JSON object.", call.Tool),
		}}, nil, nil
	}
	if name, why, ok := toolwall.AmbiguousKey(call.Input); ok {
		what := fmt.Sprintf("names %q twice in one object (as some programs read keys: in any case, or cut at a NUL byte)", name)
		if why == "unreadable" {
			what = fmt.Sprintf("has a key, %q, that is not valid UTF-8", name)
		}
		return []toolwall.Finding{{
			Analyzer: "gate", Rule: toolwall.RuleAmbiguousKey, Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The %s tool call's input %s; programs disagree on which value counts, so what would run cannot be told. It is refused: send each argument once, under its plain name.", call.Tool, what),
		}}, nil, nil
	}
	in := &analysis.Input{Call: call, Exists: g.exists}
	var findings []toolwall.Finding
	tool := call.Tool
	if call.Tool == toolwall.ToolBash || call.Tool == toolwall.ToolPowerShell {
		tool = toolwall.ToolBash // PowerShell is read into the same commands (pwsh.go)
		script, f := g.readCommand(call)
		t.add("read")
		if f != nil {
			findings = append(findings, *f)
		}
		if script == nil {
			return findings, nil, nil
		}
		in.Script = script
	}
	rep := &analysis.Report{}
	for _, a := range g.byTool[tool] {
		if err := ctx.Err(); err != nil {
			findings = append(findings, cancelled())
			break
		}
		g.run(ctx, a, in, rep)
		t.add(a.Name)
	}
	if err := ctx.Err(); err != nil && !slices.ContainsFunc(findings, func(f toolwall.Finding) bool { return f.Rule == "gate.cancelled" }) {
		findings = append(findings, cancelled())
	}
	findings = append(findings, rep.Findings...)
	if in.Script != nil {
		if f, ok := g.disguised(ctx, call, in.Script.Source, findings); ok {
			findings = append(findings, f)
		}
	}
	effects := g.markScripts(ctx, call, in.Script, rep.Effects)
	if more, marked := g.autorun(ctx, call, in.Script, effects); len(more) > 0 {
		findings, effects = append(findings, more...), marked
	}
	if f, ok := sameCallChain(g.chains, effects); ok {
		findings = append(findings, f)
	}
	return g.enabled(findings), effects, in.Script
}

// disguised reads a Bash command spelled with dash look-alikes (‐‐hard,
// –rf: hyphen, non-breaking hyphen, figure dash, en and em dashes,
// horizontal bar, minus sign, small and full-width hyphen-minus) again
// with ASCII dashes. Programs do not take those characters for option
// dashes, so the command as written is harmless or broken; but when the
// ASCII reading would be stopped, the spelling hides a command a human
// should see (the model is confused, or something slips it past a filter
// that matches ASCII text), and the call asks. found are the findings of
// the command as written.
func (g *Gate) disguised(ctx context.Context, call toolwall.Call, cmd string, found []toolwall.Finding) (toolwall.Finding, bool) {
	ascii := strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\ufe58', '\ufe63', '\uff0d':
			return '-'
		}
		return r
	}, cmd)
	if ascii == cmd {
		return toolwall.Finding{}, false
	}
	plain := call
	plain.Input, _ = json.Marshal(struct {
		Command string `json:"command"`
	}{ascii})
	worst := toolwall.Allow
	for _, f := range found {
		worst = max(worst, f.Action)
	}
	more, _, _ := g.analyze(ctx, plain, nil)
	for _, f := range more {
		if f.Action >= toolwall.Ask && f.Action > worst {
			return toolwall.Finding{
				Analyzer: "shell", Rule: "shell.lookalike-dash", Category: "input",
				Score: 0.6, Action: toolwall.Ask,
				Reason: fmt.Sprintf("The command is spelled with characters that look like dashes but are not; programs will not read them as options, and with ASCII dashes it would be stopped (%s). Type the command with ASCII dashes so it can be judged as it is.", f.Rule),
			}, true
		}
	}
	return toolwall.Finding{}, false
}

// run calls one analyzer, turning a panic into a deny finding.
func (g *Gate) run(ctx context.Context, a *analysis.Analyzer, in *analysis.Input, rep *analysis.Report) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error("toolwall: analyzer panicked", "analyzer", a.Name, "tool", in.Call.Tool, "panic", r)
			rep.For(a.Name).Add(internalFinding(fmt.Sprintf("analyzer %s: %v", a.Name, r)))
		}
	}()
	a.Run(ctx, in, rep.For(a.Name))
}

func cancelled() toolwall.Finding {
	return toolwall.Finding{
		Analyzer: "gate", Rule: "gate.cancelled", Category: "internal",
		Score: 0.95, Action: toolwall.Deny,
		Reason: "The check of this tool call was cancelled or ran out of time before it finished, so the call is refused. Retry the call.",
	}
}

func internalFinding(detail string) toolwall.Finding {
	return toolwall.Finding{
		Analyzer: "gate", Rule: "gate.internal-error", Category: "internal",
		Score: 0.95, Action: toolwall.Deny,
		Reason: "toolwall hit an internal error while checking this tool call (" + detail + "), so the call is refused rather than let through unchecked. Retry with a simpler command, or ask the user to run it.",
	}
}

// read parses a Bash call. A malformed input or a limit breach comes back
// as the single finding that decides the call (no script). A syntax error
// comes back as a warn finding — bash and zsh refuse such a command and
// run nothing of it — with the script of every other reading that parses
// (the statements before the error, the zsh reading, zsh's brace
// spacing; see alternatives), so that whatever might still run is judged
// by the analyzers.
func (g *Gate) read(call toolwall.Call) (*shell.Script, *toolwall.Finding) {
	cmd, ok := call.Command()
	if !ok {
		return nil, &toolwall.Finding{
			Analyzer: "gate", Rule: "input.malformed", Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: `The Bash tool call has no string "command" field, so toolwall cannot tell what it would run; it is refused. Send the command as {"command": "..."}.`,
		}
	}
	return g.readText(cmd, call)
}

// readText is read of the command cmd, the text of call's command field
// (a caller that holds the text already skips decoding it again).
func (g *Gate) readText(cmd string, call toolwall.Call) (*shell.Script, *toolwall.Finding) {
	if i := strings.IndexByte(cmd, 0); i >= 0 {
		// bash drops NUL bytes from a script it reads and a C string stops
		// at one: what runs depends on who receives the text.
		return nil, &toolwall.Finding{
			Analyzer: "gate", Rule: "input.nul-byte", Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The command holds a NUL byte (at byte %d); shells drop it or stop reading there, so what would run cannot be told from the text. Remove the NUL byte and retry.", i),
		}
	}
	opts := g.shellOpts
	opts.Cwd, opts.Home = call.Cwd, call.Home
	script, err := shell.Read(cmd, opts)
	var lim *shell.LimitError
	var syn *shell.SyntaxError
	switch {
	case errors.As(err, &lim):
		return nil, &toolwall.Finding{
			Analyzer: "shell", Rule: "shell.limit", Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The command was refused because it is too large or too deeply nested to check (%v). Split it into smaller commands or write it to a script file you can show the user.", err),
		}
	case errors.As(err, &syn):
		f := &toolwall.Finding{
			Analyzer: "shell", Rule: "shell.parse-error", Category: "input",
			Score: 0.45, Action: toolwall.Warn,
			Reason: fmt.Sprintf("The command does not parse as shell (%v); bash would refuse it and run nothing. Fix the quoting or syntax and retry.", syn.Err),
		}
		if strings.Contains(cmd, "<<") && (strings.Contains(cmd, "$(") || strings.Contains(cmd, "${") || strings.Contains(cmd, "`") || strings.Contains(cmd, "((")) {
			// bash reads a heredoc inside a substitution, an expansion
			// or the subshells it falls back to from "((", where this
			// parser gives up: the code in it may still run
			*f = toolwall.Finding{
				Analyzer: "shell", Rule: "shell.unreadable-code", Category: "input",
				Score: 0.6, Action: toolwall.Ask,
				Reason: fmt.Sprintf("The command does not parse here (%v), yet it holds a substitution or heredoc that bash may still read and run, so what it would run cannot be checked; a human has to look. Simplify it (write the inner script to a file and show it), or fix the syntax.", syn.Err),
			}
		}
		if alt, fed := g.alternatives(cmd, syn, opts); alt != nil {
			if fed != nil {
				*f = toolwall.Finding{
					Analyzer: "shell", Rule: "shell.unclosed-heredoc", Category: "input",
					Score: 0.6, Action: toolwall.Ask,
					Reason: fmt.Sprintf("The heredoc given to %s is never closed, so the shell hands it everything after it as a program toolwall cannot delimit; a human has to look. Close the heredoc with its delimiter line.", fed.Shown()),
				}
			}
			return alt, f
		}
		return nil, f
	case err != nil:
		return nil, &toolwall.Finding{
			Analyzer: "shell", Rule: "gate.internal-error", Category: "internal",
			Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("toolwall could not read the command (%v), so it is refused rather than let through unchecked.", err),
		}
	}
	return script, nil
}

// enabled drops the findings of disabled rules. Findings of the input and
// internal categories (a command that cannot be read, a limit, a panic, a
// cancelled check) keep toolwall itself safe and are never dropped.
func (g *Gate) enabled(findings []toolwall.Finding) []toolwall.Finding {
	if len(g.disabled) == 0 {
		return findings
	}
	return slices.DeleteFunc(findings, func(f toolwall.Finding) bool {
		return g.disabled[f.Rule] && !toolwall.Unswitchable(f.Rule) && f.Category != "input" && f.Category != "internal"
	})
}

// fuse turns findings into a verdict: strongest first, score = max,
// action = stricter of band action and floors.
func (g *Gate) fuse(findings []toolwall.Finding, effects []toolwall.Effect, script *shell.Script) toolwall.Verdict {
	var v toolwall.Verdict
	v.Findings = g.enabled(findings)
	slices.SortStableFunc(v.Findings, func(a, b toolwall.Finding) int {
		if c := cmp.Compare(b.Action, a.Action); c != 0 {
			return c
		}
		return cmp.Compare(b.Score, a.Score)
	})
	floor := toolwall.Allow
	for _, f := range v.Findings {
		sc := f.Score
		if math.IsNaN(sc) {
			sc = 1
		}
		v.Score = max(v.Score, min(1, max(0, sc)))
		floor = toolwall.Stricter(floor, f.Action)
	}
	v.Band = g.thresholds.Band(v.Score)
	v.Action = toolwall.Stricter(v.Band.Action(), floor)
	// A floor stricter than the band's action (a chain deny scored 0.26)
	// lifts the score to the lower edge of the first band that reads as
	// strict, so that band and score never tell a milder story than the
	// action: a deny is high or critical, a warn or an ask medium or more.
	switch {
	case v.Action == toolwall.Deny && v.Band < toolwall.High:
		v.Score = max(v.Score, g.thresholds.Block)
	case v.Action >= toolwall.Warn && v.Band < toolwall.Medium:
		v.Score = max(v.Score, g.thresholds.Warn)
	}
	v.Band = g.thresholds.Band(v.Score)
	v.Reason = reason(v)
	v.Effects = effects
	if script != nil && len(script.Commands) > 0 {
		v.Commands = make([]string, len(script.Commands))
		for i, c := range script.Commands {
			v.Commands[i] = c.String()
		}
	}
	return v
}

// MaxReason bounds a verdict's reason, in bytes (one reason per
// verdict, about 300 characters).
const MaxReason = 320

// reason is the reason of the finding that decided the action: the
// strictest floor, or when the band decided, the highest score. The other
// findings are named by their rule ids (Verdict.Rules), not their texts.
// A reason longer than MaxReason is cut at a word boundary with "…".
func reason(v toolwall.Verdict) string {
	if v.Action == toolwall.Allow {
		return ""
	}
	fs := v.Findings
	if !slices.ContainsFunc(fs, func(f toolwall.Finding) bool { return f.Action >= v.Action }) {
		// The band decided, not a floor: the highest-scoring finding says why.
		fs = slices.Clone(fs)
		slices.SortStableFunc(fs, func(a, b toolwall.Finding) int { return cmp.Compare(b.Score, a.Score) })
	}
	for _, f := range fs {
		if f.Reason != "" {
			return cut(f.Reason, MaxReason)
		}
	}
	return fmt.Sprintf("risk score %.2f is in the %s band", v.Score, v.Band)
}

// cut shortens s to at most n bytes at a word boundary, ending in "…".
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := strings.LastIndexByte(s[:n-len("…")], ' ')
	if k < n/2 {
		k = n - len("…")
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
	}
	return strings.TrimRight(s[:k], " ,;:") + "…"
}

// alternatives reads what a shell would still run of a command that does
// not parse as bash: the statements before the error (bash runs them
// before it reaches the bad line, so "rm -rf ~; !" deletes the home) and
// the relaxed brace spelling zsh accepts (see relaxBraces). The commands
// of every reading that parses are merged, so the verdict can only get
// stricter; nil when none parses.
func (g *Gate) alternatives(cmd string, syn *shell.SyntaxError, opts shell.Options) (*shell.Script, *shell.Command) {
	var readings []*shell.Script
	// An unclosed heredoc: bash takes the rest of the input as its body
	// (with a warning) and runs the command. A program fed that way is
	// whatever text follows, up to the end of what the host hands the
	// shell (a host that adds text after the command lengthens it), and
	// an empty body means the program the model meant to send is missing:
	// either way a human looks.
	var fed *shell.Command
	if delim, ok := shell.UnclosedHeredoc(syn.Err); ok {
		if s, err := shell.Read(cmd+"\n"+delim+"\n", opts); err == nil {
			readings = append(readings, s)
			for _, c := range s.Commands {
				if c.Stdin.Kind == shell.StdinHeredoc && c.Inv.RunsStdin() {
					fed = c
					break
				}
			}
		}
	}
	if alt := blankBackticks(cmd); alt != cmd {
		// bash parses the text between backquotes only when it expands
		// it: a substitution that does not parse fails then, and the
		// command around it still runs
		if s, err := shell.Read(alt, opts); err == nil {
			readings = append(readings, s)
		}
	}
	if alt := relaxBraces(cmd); alt != cmd {
		if s, err := shell.Read(alt, opts); err == nil {
			readings = append(readings, s)
		}
	}
	zsh := opts
	zsh.Zsh = true
	if s, err := shell.Read(cmd, zsh); err == nil {
		readings = append(readings, s)
	}
	var pe syntax.ParseError
	if syn.Depth == 0 && errors.As(syn.Err, &pe) {
		prefix := cmd[:min(int(pe.Pos.Offset()), len(cmd))]
		for try := 0; try < 16 && strings.TrimSpace(prefix) != ""; try++ {
			if s, err := shell.Read(prefix, opts); err == nil {
				readings = append(readings, s)
				break
			}
			cut := strings.LastIndexAny(strings.TrimRight(prefix, ";&|\n \t"), ";&|\n")
			if cut < 0 {
				break
			}
			prefix = prefix[:cut]
		}
	}
	if len(readings) == 0 {
		return nil, nil
	}
	merged := &shell.Script{Source: cmd}
	for _, r := range readings {
		merged.Commands = append(merged.Commands, r.Commands...)
		merged.Funcs = append(merged.Funcs, r.Funcs...)
	}
	return merged, fed
}

// blankBackticks replaces each backquoted substitution outside single
// quotes with an empty quoted word: what bash still runs when the
// substitution's own text does not parse.
func blankBackticks(cmd string) string {
	if !strings.Contains(cmd, "`") {
		return cmd
	}
	var b strings.Builder
	b.Grow(len(cmd))
	var single bool
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case single:
			single = c != '\''
		case c == '\\' && i+1 < len(cmd):
			b.WriteByte(c)
			i++
			c = cmd[i]
		case c == '\'':
			single = true
		case c == '`':
			end := i + 1
			for end < len(cmd) && cmd[end] != '`' {
				if cmd[end] == '\\' {
					end++
				}
				end++
			}
			b.WriteString(`""`)
			i = end
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// relaxBraces respaces unquoted braces the way zsh tolerates them and bash
// does not: "{" glued to the next word gets a space after it, "}" glued to
// the previous word gets "; " before it. It is only used on a command that
// does not parse as bash, to judge what a zsh user's shell would run
// (":(){:|:&};:" is a fork bomb there); the result can only make the
// verdict stricter, never pass the call.
func relaxBraces(cmd string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(cmd) {
				b.WriteByte(c)
				i++
				c = cmd[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(cmd):
			b.WriteByte(c)
			i++
			c = cmd[i]
		case c == '{' && i+1 < len(cmd) && !strings.ContainsRune(" \t\n}", rune(cmd[i+1])) && (i == 0 || cmd[i-1] != '$'):
			b.WriteString("{ ")
			continue
		case c == '}' && i > 0 && cmd[i-1] == '&':
			b.WriteString(" }")
			continue
		case c == '}' && i > 0 && !strings.ContainsRune(" \t\n;{", rune(cmd[i-1])):
			b.WriteString("; }")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// sameCallChain finds a destructive script written and run by the same
// call ("echo 'rm -rf ~' > x.sh; bash x.sh"): the chain rule
// chain.destructive-script with both links in one command line.
func sameCallChain(rules []chain.Rule, effects []toolwall.Effect) (toolwall.Finding, bool) {
	for _, r := range rules {
		if r.ID != "chain.destructive-script" || len(r.Links) != 2 {
			continue
		}
		for _, w := range effects {
			if w.Tag != r.Links[0].Tag || w.Detail != r.Links[0].Detail {
				continue
			}
			for _, x := range effects {
				if x.Tag == r.Links[1].Tag && x.Path == w.Path {
					return toolwall.Finding{
						Analyzer: "chain", Rule: r.ID, Category: "chain",
						Score: chain.Weight * r.Score, Action: r.Action,
						Reason: fmt.Sprintf("This command writes %s with a body toolwall would stop, then runs it; %s", w.Path, r.Why),
					}, true
				}
			}
		}
	}
	return toolwall.Finding{}, false
}
