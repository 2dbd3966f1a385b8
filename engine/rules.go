package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/analyzers/self"
	"github.com/toolwall/toolwall/analyzers/windows"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/internal/nearest"
	"github.com/toolwall/toolwall/policy"
)

// Rule is one entry of the rule catalog.
type Rule struct {
	analysis.Rule
	// Analyzers name who reports it ("destroy"; "gate" for the gate's
	// own ids; several when more than one analyzer reports it).
	Analyzers []string
}

// Rules returns the rule catalog of the gate New builds for cfg (nil
// means the defaults): every rule id of every analyzer it runs (their
// Rules), the gate's own and the chain rules (gate.Rules), and the
// configuration's [[rule]] entries, sorted by id. An id reported by
// several analyzers is listed once, with their names.
func Rules(cfg *policy.Config) []Rule {
	if cfg == nil {
		cfg = &policy.Config{}
	}
	as := append(analyzers.All(), windows.Analyzer, self.New(self.Files{}), policy.New(cfg).Analyzer())
	byID := map[string]*Rule{}
	var out []*Rule
	add := func(name string, rs []analysis.Rule) {
		for _, r := range rs {
			if x, ok := byID[r.ID]; ok {
				if !slices.Contains(x.Analyzers, name) {
					x.Analyzers = append(x.Analyzers, name)
				}
				continue
			}
			x := &Rule{Rule: r, Analyzers: []string{name}}
			byID[r.ID] = x
			out = append(out, x)
		}
	}
	for _, a := range as {
		add(a.Name, a.Rules)
	}
	add("gate", gate.Rules())
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	rules := make([]Rule, len(out))
	for i, r := range out {
		rules[i] = *r
	}
	return rules
}

// CheckDisabled reports a configuration error for every rules.disable id
// of cfg that is no rule of the catalog (Rules), naming the nearest real
// one: a misspelled id would otherwise silently disable nothing. The
// error is a *policy.Error.
func CheckDisabled(cfg *policy.Config) error {
	if cfg == nil || len(cfg.Rules.Disable) == 0 {
		return nil
	}
	var ids []string
	for _, r := range Rules(cfg) {
		ids = append(ids, r.ID)
	}
	var bad []string
	for _, id := range cfg.Rules.Disable {
		if slices.Contains(ids, id) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%q is no rule id (the nearest is %q; `toolwall rules` lists them all)", id, nearest.Name(id, ids)))
	}
	if len(bad) == 0 {
		return nil
	}
	return &policy.Error{Path: cfg.Source, Msg: "rules.disable: " + strings.Join(bad, "; ")}
}
