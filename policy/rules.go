package policy

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules lists the policy analyzer's rule ids: its own and the operator
// layers' [[rule]] entries.
func (p *Policy) rules() []analysis.Rule {
	out := []analysis.Rule{
		{ID: RuleSelfApprove, Action: toolwall.Deny, Protects: "approvals and host events from being forged by the agent itself (toolwall approve, toolwall hook or toolwall resident from a tool call)", Example: "toolwall approve 0123456789abcdef"},
		{ID: toolwall.RuleConfig, Action: toolwall.Deny, Protects: "against running with a broken configuration (every call is refused until it is fixed)", Example: ""},
	}
	for _, r := range p.base.Rule {
		if r.act == toolwall.Allow {
			continue
		}
		ex := ""
		if len(r.Match) > 0 {
			m := r.Match[0]
			var ok bool
			if ex, ok = m.call().Command(); !ok {
				ex = m.Tool + " " + string(m.Input)
			}
		}
		out = append(out, analysis.Rule{ID: r.ID, Action: r.act, Protects: strings.TrimSpace(r.Reason) + " (" + r.Source + ")", Example: ex})
	}
	return out
}
