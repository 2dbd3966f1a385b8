package analyzers

import (
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/agents"
	"github.com/toolwall/toolwall/analyzers/destroy"
	"github.com/toolwall/toolwall/analyzers/files"
	"github.com/toolwall/toolwall/analyzers/ops"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/analyzers/remote"
	"github.com/toolwall/toolwall/analyzers/secrets"
	"github.com/toolwall/toolwall/analyzers/ssrf"
	"github.com/toolwall/toolwall/analyzers/unresolved"
)

// All returns the built-in analyzers in the order the gate runs them.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		destroy.Analyzer,
		remote.Analyzer,
		secrets.Analyzer,
		ops.Analyzer,
		persist.Analyzer,
		agents.Analyzer,
		files.Analyzer,
		ssrf.Analyzer,
		unresolved.Analyzer,
	}
}
