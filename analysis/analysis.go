package analysis

import (
	"context"
	"slices"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// Input is what an analyzer sees of one call.
type Input struct {
	// Call is the proposed tool call, with Cwd, Project and Home filled in
	// (absolute, cleaned) by the gate.
	Call toolwall.Call
	// Script is the shell reading of a Bash call; nil for other tools and
	// when the command did not parse (the gate reports that itself).
	Script *shell.Script
	// Exists reports whether an absolute, clean path exists on the
	// machine where the call would run (a final symbolic link is not
	// followed); known is false when that cannot be told. Nil means
	// unknown for every path: toolwall eval and tests judge synthetic
	// places. A delete of a path that does not exist loses nothing;
	// never ask it about a path of another host or a
	// container.
	Exists func(path string) (exists, known bool)
}

// Report collects what analyzers found in one call.
type Report struct {
	// Findings in the order they were added.
	Findings []toolwall.Finding
	// Effects in the order they were added.
	Effects []toolwall.Effect

	analyzer string
}

// For returns r with the analyzer name set that Add stamps on findings;
// the gate calls it before each analyzer runs.
func (r *Report) For(name string) *Report {
	r.analyzer = name
	return r
}

// Add appends a finding, stamping the current analyzer's name when the
// finding has none.
func (r *Report) Add(f toolwall.Finding) {
	if f.Analyzer == "" {
		f.Analyzer = r.analyzer
	}
	r.Findings = append(r.Findings, f)
}

// Tag appends an effect, once: an effect two analyzers see (running
// `bash x.sh` is exec-local of x.sh to more than one) is listed once.
func (r *Report) Tag(tag toolwall.Tag, path, detail string) {
	e := toolwall.Effect{Tag: tag, Path: path, Detail: detail}
	if !slices.Contains(r.Effects, e) {
		r.Effects = append(r.Effects, e)
	}
}

// Analyzer is one analysis as a value.
type Analyzer struct {
	// Name is short and stable; it appears in findings ("destroy", "ssrf").
	Name string
	// Doc says what the analyzer looks for, one paragraph.
	Doc string
	// Tools are the tool names it looks at ("Bash", "WebFetch", ...); the
	// gate only runs it on those. The union over analyzers is the gate's
	// watched set.
	Tools []string
	// Run analyzes in and adds to r. It must not retain in or r.
	Run func(ctx context.Context, in *Input, r *Report)
	// Rules lists every rule id the analyzer reports (each analyzer
	// package declares them in rules.go); engine.Rules gathers them into
	// the rule catalog.
	Rules []Rule
}
