package analyzers

import (
	"sync"

	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/agents"
	"github.com/toolwall/toolwall/analyzers/destroy"
	"github.com/toolwall/toolwall/analyzers/files"
	"github.com/toolwall/toolwall/analyzers/flow"
	"github.com/toolwall/toolwall/analyzers/ops"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/analyzers/remote"
	"github.com/toolwall/toolwall/analyzers/secrets"
	"github.com/toolwall/toolwall/analyzers/ssrf"
	"github.com/toolwall/toolwall/analyzers/unresolved"
)

// All returns the built-in analyzers in the order the gate runs them,
// judging paths on the machine the gate runs on (destroy asks git there
// whether it could restore a deleted project subtree).
func All() []*analysis.Analyzer {
	return with(destroy.Analyzer)
}

// Elsewhere returns the built-in analyzers for calls that run on another
// machine, or on synthetic places (toolwall eval, the decision server,
// benchmarks): nothing is asked of this machine's files, so destroy does
// not run git in a directory that here is someone else's or nobody's (a
// recursive delete of a project subtree is then held for a human, as
// when git cannot tell).
func Elsewhere() []*analysis.Analyzer {
	return with(elsewhere())
}

// elsewhere is destroy without the git check, built once.
var elsewhere = sync.OnceValue(func() *analysis.Analyzer { return destroy.New(destroy.Options{SkipGit: true}) })

// with lists the built-in analyzers with d as the destruction analyzer.
func with(d *analysis.Analyzer) []*analysis.Analyzer {
	return []*analysis.Analyzer{
		d,
		remote.Analyzer,
		secrets.Analyzer,
		ops.Analyzer,
		persist.Analyzer,
		agents.Analyzer,
		files.Analyzer,
		ssrf.Analyzer,
		unresolved.Analyzer,
		flow.Analyzer,
	}
}
