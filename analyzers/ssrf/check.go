package ssrf

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/places"
)

// Rule ids reported by this package.
const (
	RuleScheme    = "ssrf.scheme"          // a scheme other than http or https
	RuleMalformed = "ssrf.malformed"       // a host that cannot be read
	RuleMetadata  = "ssrf.metadata"        // a cloud metadata endpoint
	RuleObfuscate = "ssrf.obfuscated-host" // a non-public host in a disguised spelling
	RuleLoopback  = "ssrf.loopback"        // this machine, plainly spelled
	RulePrivate   = "ssrf.private"         // an internal network, plainly spelled
)

// Scores by action, after the finding conventions of the gate: deny 0.95
// (irreversible), ask 0.6 (below the 0.7 block threshold), warn 0.45.
const (
	denyScore = 0.95
	askScore  = 0.6
	warnScore = 0.45
)

// Result is the judgement on one URL.
type Result struct {
	// Action is Allow, Warn, Ask or Deny.
	Action toolwall.Action
	// Rule is the rule id ("ssrf.metadata", ...); "" when allowed.
	Rule string
	// Reason is written for the model: what was refused, why, what to do
	// instead; "" when allowed.
	Reason string
	// Target is what the URL points at (zero when it did not parse).
	Target places.URL
}

// Finding returns the result as a finding of category "ssrf", with the
// score the action calls for. Analyzer is left empty for the report to
// stamp.
func (r Result) Finding() toolwall.Finding {
	score := 0.0
	switch r.Action {
	case toolwall.Deny:
		score = denyScore
	case toolwall.Ask:
		score = askScore
	case toolwall.Warn:
		score = warnScore
	}
	return toolwall.Finding{Rule: r.Rule, Category: "ssrf", Score: score, Action: r.Action, Reason: r.Reason}
}

// Check judges a URL a fetch tool (WebFetch, an MCP fetch server) is
// asked to read, before DNS (seed 003, "SSRF Protection": scheme check and
// pre-DNS host blocklist):
//
//   - a scheme other than http or https (file, gopher, ftp, dict, ldap,
//     jar, data, javascript, ...) → Deny, ssrf.scheme;
//   - a host that cannot be read → Deny, ssrf.malformed;
//   - a cloud metadata endpoint in any spelling → Deny, ssrf.metadata;
//   - loopback, private or reserved space in a disguised spelling (decimal,
//     hex, octal or short IPv4; IPv4 inside IPv6; a userinfo decoy; a
//     trailing dot; percent-encoding; Unicode look-alikes; a host URL
//     parsers disagree on; a wildcard-DNS name) → Deny,
//     ssrf.obfuscated-host;
//   - loopback plainly spelled (localhost:8080, 127.0.0.1, [::1]) → Ask,
//     ssrf.loopback;
//   - private or reserved space plainly spelled (10.0.0.5, printer.local,
//     a single-label name) → Ask, ssrf.private;
//   - a public IP address in a disguised spelling → Warn,
//     ssrf.obfuscated-host;
//   - anything else → Allow.
//
// A text without a scheme is read as http. Check is pure and safe for
// concurrent use; the executor must still check every resolved address
// with [IsBlockedAddr].
func Check(raw string) Result {
	t, err := places.ParseURL(raw)
	q := quote(raw)
	switch {
	case t.Scheme != "" && t.Scheme != "http" && t.Scheme != "https":
		return Result{Action: toolwall.Deny, Rule: RuleScheme, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: the %s: scheme can reach local files or internal services, and this tool only fetches web pages. Use an http:// or https:// URL; read local files with the Read tool.", q, t.Scheme)}
	case errors.Is(err, places.ErrMalformed):
		return Result{Action: toolwall.Deny, Rule: RuleMalformed, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: its host cannot be read unambiguously (%v), and a host that cannot be read cannot be judged safe. Fix the URL to a plain https://host/path form.", q, errors.Unwrap(err))}
	case t.Network == places.Metadata:
		return Result{Action: toolwall.Deny, Rule: RuleMetadata, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: %s is a cloud instance metadata endpoint, which hands out this machine's cloud credentials. Do not read instance metadata; ask the user for the configuration you need.", q, t.Host)}
	case t.Network != places.Public && t.Odd != "":
		return Result{Action: toolwall.Deny, Rule: RuleObfuscate, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: the host is %s (%s address space) written in a disguised form (%s), a known way to slip past URL filters. If you need a local or internal service, name it plainly (e.g. http://localhost:8080/) so a human can approve it.", q, t.Host, t.Network, t.Odd)}
	case t.Network == places.Loopback:
		return Result{Action: toolwall.Ask, Rule: RuleLoopback, Target: t, Reason: fmt.Sprintf(
			"fetching %s needs approval: %s is this machine, where admin and debug endpoints answer without authentication. Confirm the local service is yours, or test it with a command the user can see.", q, t.Host)}
	case t.Network != places.Public:
		return Result{Action: toolwall.Ask, Rule: RulePrivate, Target: t, Reason: fmt.Sprintf(
			"fetching %s needs approval: %s is in %s address space (an internal network), which a fetch tool must not reach unseen. Confirm the host is meant to be reached, or use a public URL.", q, t.Host, t.Network)}
	case t.Odd != "" && t.Addr.IsValid():
		return Result{Action: toolwall.Warn, Rule: RuleObfuscate, Target: t, Reason: fmt.Sprintf(
			"fetching %s: the host %s is written in an unusual form (%s). Prefer the plain host name.", q, t.Host, t.Odd)}
	}
	return Result{Action: toolwall.Allow, Target: t}
}

// CheckCommandURL judges a URL found in a shell command's arguments
// (curl, wget, ...). The agent already has the shell's network reach, so
// only what no developer task needs is refused: a cloud metadata endpoint
// in any spelling → Deny, ssrf.metadata. Everything else, including
// localhost and private hosts, is Allow; the Target is filled in for the
// caller. A text without a scheme is read as http, as curl does.
func CheckCommandURL(raw string) Result {
	t, err := places.ParseURL(raw)
	if err != nil || t.Network != places.Metadata {
		return Result{Action: toolwall.Allow, Target: t}
	}
	return Result{Action: toolwall.Deny, Rule: RuleMetadata, Target: t, Reason: fmt.Sprintf(
		"fetching %s was refused: %s is a cloud instance metadata endpoint, which hands out this machine's cloud credentials. Do not read instance metadata from a command; ask the user for the configuration you need.", quote(raw), t.Host)}
}

// IsBlockedAddr reports whether a fetch must not connect to a: every
// network but [places.Public]. A fetch executor calls it on each address
// DNS returns (and again on each redirect hop), after [Check] has passed
// the URL (seed 003, "Post-DNS IP validation").
func IsBlockedAddr(a netip.Addr) bool { return places.NetworkOf(a) != places.Public }

// quote quotes a URL for a reason, shortened to 120 bytes.
func quote(s string) string {
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}
