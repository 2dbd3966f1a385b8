package chain

import (
	"fmt"
	"strings"

	"github.com/toolwall/toolwall"
)

// Weight is the tool shield's weight of the combination dimension: a chain adds
// Weight × its score to the current call's single-call score.
const Weight = 0.3

// Step is one executed call of a session, as chain rules see it.
type Step struct {
	// Summary is a one-line description of the call (its command, or tool
	// and path), quoted in reasons.
	Summary string
	// Turn is the user turn it ran in.
	Turn int
	// Effects are its risk tags.
	Effects []toolwall.Effect
}

// Match is one link of a chain: an effect with Tag (and Detail, when set).
type Match struct {
	Tag    toolwall.Tag
	Detail string
	// SamePath requires the effect's path to equal the path of the
	// chain's first link (the file downloaded is the file run).
	SamePath bool
}

func (m Match) matches(e toolwall.Effect, path string) bool {
	return e.Tag == m.Tag && (m.Detail == "" || e.Detail == m.Detail) &&
		(!m.SamePath || (e.Path != "" && e.Path == path))
}

// Rule is an ordered chain: every link but the last must match executed
// calls in order (each in a later call than the one before), and the last
// must match the call being judged.
type Rule struct {
	// ID is the stable rule id ("chain.download-execute").
	ID string
	// Links in chronological order; at least two.
	Links []Match
	// Score is the combination score in [0, 1] (the tool shield's scale).
	Score float64
	// Action is the floor the chain imposes: it is unambiguous enough to
	// decide whatever the score.
	Action toolwall.Action
	// Why says, for the model, why this sequence is dangerous and what to
	// do instead; the reason prefixes it with the calls that armed it.
	Why string
}

// Rules are the built-in chains.
var Rules = []Rule{
	{
		ID:     "chain.download-execute",
		Links:  []Match{{Tag: toolwall.TagDownloadFile}, {Tag: toolwall.TagExecLocal, SamePath: true}},
		Score:  0.85,
		Action: toolwall.Deny,
		Why:    "running a file fetched from the network without review is remote code execution split over calls. Show the user the file and let them run it, or use a package manager.",
	},
	{
		ID:     "chain.destructive-script",
		Links:  []Match{{Tag: toolwall.TagWriteScript, Detail: "destructive"}, {Tag: toolwall.TagExecLocal, SamePath: true}},
		Score:  0.8,
		Action: toolwall.Ask,
		Why:    "the script's body holds commands toolwall refuses or asks about, so running it would do the same. Run the needed commands directly so each can be checked, or ask the user.",
	},
	{
		ID:     "chain.secret-egress",
		Links:  []Match{{Tag: toolwall.TagSensitiveRead}, {Tag: toolwall.TagEgress}},
		Score:  0.8,
		Action: toolwall.Ask,
		Why:    "sending data out after reading secrets is how credentials are exfiltrated. Confirm with the user that nothing secret leaves the machine.",
	},
	{
		ID:     "chain.credential-egress",
		Links:  []Match{{Tag: toolwall.TagCredential}, {Tag: toolwall.TagEgress}},
		Score:  0.8,
		Action: toolwall.Ask,
		Why:    "sending data out after reading credentials is how they are exfiltrated. Confirm with the user that nothing secret leaves the machine.",
	},
	{
		ID:     "chain.credential-print",
		Links:  []Match{{Tag: toolwall.TagCredential, Detail: "written"}, {Tag: toolwall.TagShowFile, SamePath: true}},
		Score:  0.6,
		Action: toolwall.Ask,
		Why:    "the file holds a credential an earlier call printed into it, so printing the file puts the credential in the conversation and the model provider's logs. Hand the file to the program that needs it instead, or ask the user.",
	},
	{
		ID:     "chain.inspect-stage-delete",
		Links:  []Match{{Tag: toolwall.TagPermInspect}, {Tag: toolwall.TagStage}, {Tag: toolwall.TagDelete, Detail: "protected"}},
		Score:  0.75,
		Action: toolwall.Ask,
		Why:    "inspecting permissions, staging a helper and then deleting protected data is the reconnaissance-staging-execution pattern. Ask the user before deleting.",
	},
	{
		ID:     "chain.download-install",
		Links:  []Match{{Tag: toolwall.TagDownloadFile}, {Tag: toolwall.TagInstallPackage, SamePath: true}},
		Score:  0.85,
		Action: toolwall.Deny,
		Why:    "installing a package fetched from the network runs its maintainer scripts as root, unreviewed. Install from the distribution's signed repositories by name, or let the user review the package and install it.",
	},
	{
		ID:     "chain.download-build",
		Links:  []Match{{Tag: toolwall.TagDownloadFile}, {Tag: toolwall.TagBuildInput, SamePath: true}},
		Score:  0.85,
		Action: toolwall.Deny,
		Why:    "the build or test tool runs the downloaded file (a Makefile, package.json scripts, a conftest.py, a setup.py) as code, unreviewed. Show the user the downloaded file and run the tool only if they approve.",
	},
}

// Evaluate matches rules against history (executed calls of the window,
// oldest first) followed by the current call's effects. base is the
// current call's single-call score; each chain that fires yields a finding
// scored min(1, base + Weight × rule score), with the rule's action floor
// and a reason naming the earlier calls that armed it.
func Evaluate(rules []Rule, history []Step, current []toolwall.Effect, base float64) []toolwall.Finding {
	var out []toolwall.Finding
	for _, r := range rules {
		if armed, path, ok := match(r, history, current); ok {
			out = append(out, toolwall.Finding{
				Analyzer: "chain", Rule: r.ID, Category: "chain",
				Score:  min(1, base+Weight*r.Score),
				Action: r.Action,
				Reason: reason(r, armed, path),
			})
		}
	}
	return out
}

// match finds the earliest arming of r. It returns the armed steps and the
// path bound by the first link.
func match(r Rule, history []Step, current []toolwall.Effect) ([]Step, string, bool) {
	if len(r.Links) < 2 {
		return nil, "", false
	}
	first, rest := r.Links[0], r.Links[1:len(r.Links)-1]
	last := r.Links[len(r.Links)-1]
	for i, s := range history {
		for _, e := range s.Effects {
			if !first.matches(e, "") {
				continue
			}
			armed, ok := follow(rest, history[i+1:], e.Path)
			if !ok {
				continue
			}
			for _, c := range current {
				if last.matches(c, e.Path) {
					return append([]Step{s}, armed...), e.Path, true
				}
			}
		}
	}
	return nil, "", false
}

// follow matches links in order over later steps, each in a later call.
func follow(links []Match, steps []Step, path string) ([]Step, bool) {
	var armed []Step
	j := 0
	for _, l := range links {
		found := false
		for ; j < len(steps) && !found; j++ {
			for _, e := range steps[j].Effects {
				if l.matches(e, path) {
					armed = append(armed, steps[j])
					found = true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
	}
	return armed, true
}

func reason(r Rule, armed []Step, path string) string {
	var b strings.Builder
	b.WriteString("This call completes a chain of calls in this session (" + r.ID + "): ")
	for i, s := range armed {
		if i > 0 {
			b.WriteString(", then ")
		}
		fmt.Fprintf(&b, "`%s` (turn %d)", s.Summary, s.Turn)
	}
	b.WriteString(", then this call")
	if path != "" {
		fmt.Fprintf(&b, " on %s", path)
	}
	b.WriteString("; " + r.Why)
	return b.String()
}
