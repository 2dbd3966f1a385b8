// Package analyzers is the registry of toolwall's built-in analyzers; each
// lives in a package of its own below this one.
package analyzers

import (
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/remote"
	"github.com/toolwall/toolwall/analyzers/secrets"
	"github.com/toolwall/toolwall/analyzers/ssrf"
)

// All returns the built-in analyzers in the order the gate runs them.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		remote.Analyzer,
		secrets.Analyzer,
		ssrf.Analyzer,
	}
}
