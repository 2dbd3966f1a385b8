// Package rulelist is the whole rule catalog one listing shows: the
// gate's (engine.Rules) with the MCP proxy's own rules (mcprules.List).
// Hooks and the proxy share rule ids, so `toolwall rules` and the
// generated rules reference list both from here.
package rulelist

import (
	"slices"
	"strings"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/mcprules"
	"github.com/toolwall/toolwall/policy"
)

// All returns the gate's rule catalog for cfg (nil means the defaults)
// with the MCP proxy's own rules, sorted by id.
func All(cfg *policy.Config) []engine.Rule {
	out := engine.Rules(cfg)
	for _, r := range mcprules.List() {
		out = append(out, engine.Rule{Rule: r, Analyzers: []string{mcprules.Analyzer}})
	}
	slices.SortFunc(out, func(a, b engine.Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}
