package files

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/places"
)

// Judgment is what writing a path means.
type Judgment struct {
	// Rule is RuleWriteProtected, RuleWriteSensitive, RuleWriteSystem, or
	// "" when the write is ordinary.
	Rule string
	// Why completes "it …" in a reason ("controls who may log in").
	Why string
	// System is set when the path lies under a system root.
	System bool
	// Advice, when set, is what to do instead, for a reason ("Change
	// toolwall's rules only …"); "" leaves the caller's own advice.
	Advice string
}

// AdviceToolwall is the advice for a change to toolwall's configuration:
// keeping it inside the project is no help, since the project's own
// policy file is in the project.
const AdviceToolwall = "Change toolwall's rules only when the user asked for it, and let them confirm this edit; to get past a refusal, ask the user instead of editing the rules"

// Judge says what a write to absPath (absolute and clean) means for a
// user whose home is home, working on project: [places.Write]'s stake as
// this analyzer's rule (Guarded: RuleWriteProtected, Sensitive:
// RuleWriteSensitive, SystemArea: RuleWriteSystem), and toolwall's own
// configuration and state where an install puts them (~/.config/toolwall,
// ~/.local/state/toolwall, ~/.local/share/toolwall, a .toolwall
// directory, toolwall.toml, /etc/toolwall) as RuleWriteSensitive. Other
// analyzers that judge writes (persist) call it.
func Judge(absPath, home, project string) Judgment {
	w := places.Write(absPath, home, project)
	if w.Stake < places.Guarded {
		if why, ok := toolwallFile(places.Real(path.Clean(absPath)), home); ok {
			return Judgment{Rule: RuleWriteSensitive, Why: why, System: w.System, Advice: AdviceToolwall}
		}
	}
	j := Judgment{Why: w.Why, System: w.System}
	switch w.Stake {
	case places.Guarded:
		j.Rule = RuleWriteProtected
	case places.Sensitive:
		j.Rule = RuleWriteSensitive
	case places.SystemArea:
		j.Rule = RuleWriteSystem
	}
	return j
}

// toolwallFile reports whether p is toolwall's configuration, state or
// data where an install puts them, with why it matters.
func toolwallFile(p, home string) (string, bool) {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	if base == "toolwall.toml" || base == ".toolwall.toml" || strings.Contains(lp, "/.toolwall/") || strings.HasPrefix(lp, "/etc/toolwall") {
		return "is toolwall's configuration: the rules that guard this agent", true
	}
	lhome := strings.ToLower(home)
	if lhome == "" || !paths.StrictlyUnder(lp, lhome) {
		return "", false
	}
	rel := strings.TrimPrefix(lp, lhome+"/")
	for _, x := range []struct{ rel, why string }{
		{".config/toolwall/", "is toolwall's configuration: the rules that guard this agent"},
		{".local/state/toolwall/", "is toolwall's state: the memory that guards this agent"},
		{".local/share/toolwall/", "is toolwall's data"},
		{".toolwall/", "is toolwall's configuration"},
	} {
		if rel == strings.TrimSuffix(x.rel, "/") || strings.HasPrefix(rel, x.rel) {
			return x.why, true
		}
	}
	return "", false
}
