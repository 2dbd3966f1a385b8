package unixshield

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/toolwall/toolwall"
)

// Builder assembles a [Shield]. Start from [NewBuilder] (the tool shield's table)
// or [Blank] (nothing), add to it, then call Build. Setters log
// corrections through log/slog at warn level. A Builder is not safe for
// concurrent use; the Shield it builds is.
type Builder struct {
	t        toolwall.Thresholds
	patterns map[string][]Pattern
	rules    []Rule
}

// NewBuilder returns a builder holding the tool shield's table for tools "Bash",
// "Write" and "Edit", its combination rules, and the default thresholds
// (warn 0.4, block 0.7).
func NewBuilder() *Builder {
	b := Blank()
	b.WithPattern(toolwall.ToolBash, defaultBash()...)
	b.WithPattern(toolwall.ToolWrite, defaultWrite()...)
	b.WithPattern(toolwall.ToolEdit, defaultWrite()...)
	for _, r := range defaultRules() {
		b.WithCombinationRule(r)
	}
	return b
}

// Blank returns a builder with no patterns, no rules and the default
// thresholds: the start for non-Unix environments (PowerShell, cloud CLIs).
func Blank() *Builder {
	return &Builder{t: toolwall.DefaultThresholds(), patterns: map[string][]Pattern{}}
}

// New returns a shield with the tool shield's table and the given thresholds,
// corrected by [toolwall.NewThresholds] (non-finite values keep the
// default, block < warn is swapped, both are clamped to [0, 1]; each
// correction is logged as a warning).
func New(warn, block float64) *Shield {
	return NewBuilder().WithThresholds(warn, block).Build()
}

// WithThresholds sets both thresholds at once through
// [toolwall.NewThresholds], logging its corrections. Prefer it to the two
// single setters when changing both: they correct against the current
// other value, so their order matters.
func (b *Builder) WithThresholds(warn, block float64) *Builder {
	t, notes := toolwall.NewThresholds(warn, block)
	logNotes(notes)
	b.t = t
	return b
}

// WithWarnThreshold sets the warn threshold (default 0.4). A non-finite
// value is rejected with a warning and the current value kept; otherwise
// the pair goes through [toolwall.NewThresholds] (swap if above block,
// clamp to [0, 1]).
func (b *Builder) WithWarnThreshold(warn float64) *Builder {
	if !finite("warn", warn, b.t.Warn) {
		return b
	}
	return b.WithThresholds(warn, b.t.Block)
}

// WithBlockThreshold sets the block threshold (default 0.7), with the same
// hygiene as WithWarnThreshold.
func (b *Builder) WithBlockThreshold(block float64) *Builder {
	if !finite("block", block, b.t.Block) {
		return b
	}
	return b.WithThresholds(b.t.Warn, block)
}

func finite(name string, v, keep float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		slog.Warn("unixshield: threshold rejected", "threshold", name, "value", v, "keeping", keep)
		return false
	}
	return true
}

func logNotes(notes []string) {
	for _, n := range notes {
		slog.Warn("unixshield: " + n)
	}
}

// WithPattern appends patterns for tool (an exact, case-sensitive tool
// name); it never replaces what the table already has. Texts are
// normalised; a pattern that normalises to nothing is kept but inert, and
// logged.
func (b *Builder) WithPattern(tool string, ps ...Pattern) *Builder {
	for _, p := range ps {
		p.Text = strings.TrimSpace(normalize(p.Text))
		if p.Text == "" {
			slog.Warn("unixshield: empty pattern matches nothing", "tool", tool)
		}
		p.Score = clampScore(p.Score)
		p.Fields = slices.Clone(p.Fields)
		b.patterns[tool] = append(b.patterns[tool], p)
	}
	return b
}

// WithCombinationRule appends a combination rule. Its trigger tools join
// the watched set.
func (b *Builder) WithCombinationRule(r Rule) *Builder {
	r.Score = clampScore(r.Score)
	trig := make([]Trigger, len(r.Triggers))
	for i, t := range r.Triggers {
		trig[i] = Trigger{Tool: t.Tool}
		for _, a := range t.Any {
			trig[i].Any = append(trig[i].Any, strings.TrimSpace(normalize(a)))
		}
	}
	r.Triggers = trig
	if len(trig) == 0 {
		slog.Warn("unixshield: combination rule without triggers never fires", "rule", r.Name)
	}
	b.rules = append(b.rules, r)
	return b
}

// clampScore puts s in [0, 1]; NaN becomes 1 (fail closed).
func clampScore(s float64) float64 {
	if math.IsNaN(s) {
		return 1
	}
	return math.Min(1, math.Max(0, s))
}

// Build returns the shield. The builder may be reused; later changes do not
// affect shields already built.
func (b *Builder) Build() *Shield {
	s := &Shield{t: b.t, patterns: map[string][]Pattern{}, rules: slices.Clone(b.rules)}
	set := map[string]bool{}
	for tool, ps := range b.patterns {
		s.patterns[tool] = slices.Clone(ps)
		set[tool] = true
	}
	for _, r := range s.rules {
		for _, t := range r.Triggers {
			set[t.Tool] = true
		}
	}
	for tool := range set {
		s.watched = append(s.watched, tool)
	}
	sort.Strings(s.watched)
	return s
}

// Shield is the tool shield's UnixShield. It implements [toolwall.Shield] and is
// safe for concurrent use. Its history is the last [HistorySize] executed
// calls passed to RecordInvocation.
type Shield struct {
	t        toolwall.Thresholds
	patterns map[string][]Pattern
	rules    []Rule
	watched  []string

	mu   sync.RWMutex
	hist []entry // ring of at most HistorySize, oldest at next once full
	next int
}

// entry is one executed call in the history.
type entry struct {
	tool   string
	leaves []leaf
}

var _ toolwall.Shield = (*Shield)(nil)

// Thresholds returns the thresholds in force.
func (s *Shield) Thresholds() toolwall.Thresholds { return s.t }

// WatchedTools returns the tools with patterns and the tools named in rule
// triggers, sorted. The caller may modify the slice.
func (s *Shield) WatchedTools() []string { return slices.Clone(s.watched) }

func (s *Shield) watches(tool string) bool {
	_, ok := slices.BinarySearch(s.watched, tool)
	return ok
}

// RecordInvocation remembers an executed call of a watched tool for
// combination rules and, for callers that pass no Call.Recent, repetition.
// success is not used: a call that ran and failed still happened (a failing
// script may have done half its work). Calls of unwatched tools are
// ignored.
func (s *Shield) RecordInvocation(_ context.Context, call toolwall.Call, _ bool) {
	if !s.watches(call.Tool) {
		return
	}
	e := entry{tool: call.Tool, leaves: leaves(call.Input)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.hist) < HistorySize {
		s.hist = append(s.hist, e)
		return
	}
	s.hist[s.next] = e
	s.next = (s.next + 1) % HistorySize
}

// history returns the recorded calls, oldest first.
func (s *Shield) history() []entry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]entry, 0, len(s.hist))
	out = append(out, s.hist[s.next:]...)
	return append(out, s.hist[:s.next]...)
}

// matches reports whether any leaf the pattern looks at contains text.
func matches(lv []leaf, text string, fields []string) bool {
	for _, l := range lv {
		if len(fields) > 0 && l.key != "" && !slices.Contains(fields, l.key) {
			continue
		}
		if contains(l.text, text) {
			return true
		}
	}
	return false
}

func (t Trigger) matches(tool string, lv []leaf) bool {
	if t.Tool != tool {
		return false
	}
	if len(t.Any) == 0 {
		return true
	}
	for _, a := range t.Any {
		if matches(lv, a, nil) {
			return true
		}
	}
	return false
}

// fires reports whether r's last trigger matches the call and its earlier
// triggers match executed calls of hist in order.
func (r Rule) fires(tool string, lv []leaf, hist []entry) bool {
	n := len(r.Triggers)
	if n == 0 || !r.Triggers[n-1].matches(tool, lv) {
		return false
	}
	i := 0
	for _, e := range hist {
		if i == n-1 {
			break
		}
		if r.Triggers[i].matches(e.tool, e.leaves) {
			i++
		}
	}
	return i == n-1
}

// Score is the breakdown of one evaluation.
type Score struct {
	// Single is the highest single-turn pattern score (0 when none hit).
	Single float64
	// Patterns are the patterns that hit, strongest first.
	Patterns []Pattern
	// Prior is how many earlier calls to the same tool the recent window
	// holds; Repetition its score (0, 0.1, 0.3, 0.6 for 0, 1, 2, 3+).
	Prior      int
	Repetition float64
	// Combination is the highest score of the rules that fired; Rules are
	// those rules, strongest first.
	Combination float64
	Rules       []Rule
	// Total is min(1, Single + 0.5×Repetition + 0.3×Combination), rounded
	// to 9 decimal places.
	Total float64
}

// Score computes the three dimensions and the total for call without
// deciding. The recent window for repetition is call.Recent (the last
// [HistorySize] entries) when the caller set it, as the pipeline
// middleware does; otherwise the shield's own history.
func (s *Shield) Score(call toolwall.Call) Score {
	var sc Score
	lv := leaves(call.Input)
	for _, p := range s.patterns[call.Tool] {
		if matches(lv, p.Text, p.Fields) {
			sc.Patterns = append(sc.Patterns, p)
			sc.Single = math.Max(sc.Single, p.Score)
		}
	}
	slices.SortStableFunc(sc.Patterns, func(a, b Pattern) int { return cmpDesc(a.Score, b.Score) })
	hist := s.history()
	if len(call.Recent) > 0 {
		for _, r := range call.Recent[max(0, len(call.Recent)-HistorySize):] {
			if r.Tool == call.Tool {
				sc.Prior++
			}
		}
	} else {
		for _, e := range hist {
			if e.tool == call.Tool {
				sc.Prior++
			}
		}
	}
	sc.Repetition = repetitionScores[min(sc.Prior, len(repetitionScores)-1)]
	for _, r := range s.rules {
		if r.fires(call.Tool, lv, hist) {
			sc.Rules = append(sc.Rules, r)
			sc.Combination = math.Max(sc.Combination, r.Score)
		}
	}
	slices.SortStableFunc(sc.Rules, func(a, b Rule) int { return cmpDesc(a.Score, b.Score) })
	// Rounded to 1e-9 so that sums the seed states exactly land on their
	// band edge (0.6 + 0.5×0.6 is 0.8999999999999999 in float64).
	sc.Total = math.Round(1e9*math.Min(1, sc.Single+RepetitionWeight*sc.Repetition+CombinationWeight*sc.Combination)) / 1e9
	return sc
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// Evaluate scores call and lets the band pick the action: Safe and Low
// allow, Medium warns, High and Critical deny (the tool shield's Block). Findings
// are "unixshield.pattern", "unixshield.repetition" and
// "unixshield.combination", each with its weighted contribution as Score
// and the verdict's action as its floor, so a gate that fuses findings
// reaches the same action. A call of an unwatched tool, and any call in
// [toolwall.RootContext] (the root helper gets only the
// catastrophic set, which the shell gate owns), is allowed with no
// findings. Reason is set when the verdict warns or denies; an allowed
// call's findings say what minor patterns matched.
func (s *Shield) Evaluate(_ context.Context, call toolwall.Call) toolwall.Verdict {
	if call.IsRoot() {
		return toolwall.Verdict{Notes: []string{"unixshield: root context, patterns not applied"}}
	}
	if !s.watches(call.Tool) {
		return toolwall.Verdict{}
	}
	sc := s.Score(call)
	band := s.t.Band(sc.Total)
	v := toolwall.Verdict{Action: band.Action(), Band: band, Score: sc.Total}
	if sc.Total == 0 {
		return v
	}
	category, advice := "", ""
	var why []string
	if len(sc.Patterns) > 0 {
		p := sc.Patterns[0]
		category, advice = p.Category, p.Advice
		v.Findings = append(v.Findings, toolwall.Finding{
			Rule: "unixshield.pattern", Category: p.Category, Score: sc.Single, Action: v.Action,
			Reason: fmt.Sprintf("matched %s", describePatterns(sc.Patterns)),
		})
		why = append(why, v.Findings[len(v.Findings)-1].Reason)
	}
	if len(sc.Rules) > 0 {
		r := sc.Rules[0]
		if category == "" || CombinationWeight*sc.Combination > sc.Single {
			category, advice = r.Category, r.Advice
		}
		var names []string
		for _, r := range sc.Rules {
			names = append(names, fmt.Sprintf("%s (%s)", r.Name, describeTriggers(r.Triggers)))
		}
		v.Findings = append(v.Findings, toolwall.Finding{
			Rule: "unixshield.combination", Category: r.Category, Score: CombinationWeight * sc.Combination, Action: v.Action,
			Reason: fmt.Sprintf("follows executed calls in the order of combination rule %s, +%.2f", strings.Join(names, ", "), CombinationWeight*sc.Combination),
		})
		why = append(why, v.Findings[len(v.Findings)-1].Reason)
	}
	if sc.Repetition > 0 {
		if category == "" {
			category = "repetition"
		}
		v.Findings = append(v.Findings, toolwall.Finding{
			Rule: "unixshield.repetition", Category: "repetition", Score: RepetitionWeight * sc.Repetition, Action: v.Action,
			Reason: fmt.Sprintf("%d earlier %s %s in the recent window, +%.2f", sc.Prior, call.Tool, plural(sc.Prior, "call", "calls"), RepetitionWeight*sc.Repetition),
		})
		why = append(why, v.Findings[len(v.Findings)-1].Reason)
	}
	slices.SortStableFunc(v.Findings, func(a, b toolwall.Finding) int { return cmpDesc(a.Score, b.Score) })
	for i := range v.Findings {
		v.Findings[i].Analyzer = "unixshield"
	}
	if v.Action != toolwall.Allow {
		v.Reason = s.reason(call, v, category, advice, why)
	}
	return v
}

func (s *Shield) reason(call toolwall.Call, v toolwall.Verdict, category, advice string, why []string) string {
	what := fmt.Sprintf("the %s call %q", call.Tool, call.Summary())
	var verb, edge string
	switch v.Action {
	case toolwall.Deny:
		verb, edge = "was refused", fmt.Sprintf("block at %.2f", s.t.Block)
		if v.Band == toolwall.Critical {
			edge = fmt.Sprintf("critical from %.2f", toolwall.CriticalScore)
		}
	default:
		verb, edge = "is risky and runs with a warning", fmt.Sprintf("block at %.2f", s.t.Block)
	}
	r := fmt.Sprintf("%s %s: %s risk %.2f is in the %s band (%s); it %s.", what, verb, category, v.Score, v.Band, edge, strings.Join(why, "; "))
	if v.Action == toolwall.Deny {
		if advice == "" {
			advice = "Use a narrower command that does what the task needs, or ask the user to run this one"
		}
		r += " " + advice + "."
	}
	return r
}

func describePatterns(ps []Pattern) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("pattern %q (%.2f)", p.Text, p.Score)
	}
	return strings.Join(parts, ", ")
}

func describeTriggers(ts []Trigger) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.Tool
		switch len(t.Any) {
		case 0:
		case 1:
			parts[i] += fmt.Sprintf(" %q", t.Any[0])
		default:
			parts[i] += fmt.Sprintf(" %q (or %d like it)", t.Any[0], len(t.Any)-1)
		}
	}
	return strings.Join(parts, " then ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
