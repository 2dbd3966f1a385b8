package ssrf

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"

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
// asked to read, before DNS ("SSRF Protection": scheme check and
// pre-DNS host blocklist):
//
//   - a scheme other than http or https (file, gopher, ftp, dict, ldap,
//     jar, data, javascript, ...) → Deny, ssrf.scheme;
//   - a host that cannot be read → Deny, ssrf.malformed;
//   - a cloud metadata endpoint in any spelling → Deny, ssrf.metadata;
//   - loopback, private or reserved space in a disguised spelling (decimal,
//     hex, octal or short IPv4; IPv4 inside IPv6; a userinfo decoy; a
//     trailing dot; percent-encoding; Unicode look-alikes; a host URL
//     parsers disagree on; a wildcard-DNS name; a DNS-rebinding
//     service) → Deny, ssrf.obfuscated-host;
//   - loopback plainly spelled (localhost:8080, 127.0.0.1, [::1]) → Ask,
//     ssrf.loopback;
//   - private or reserved space plainly spelled (10.0.0.5, printer.local,
//     a single-label name, a cluster-internal name such as
//     kubernetes.default, a home router's admin name such as
//     routerlogin.net) → Ask, ssrf.private;
//   - a public IP address in a disguised spelling → Warn,
//     ssrf.obfuscated-host;
//   - anything else → Allow.
//
// A text without a scheme is read as http. Check is pure and safe for
// concurrent use; the executor must still check every resolved address
// with [IsBlockedAddr].
func Check(raw string) Result { return judge(raw, fetchTool) }

// CheckCommandURL judges a URL found in a shell command (curl, wget,
// HTTPie, a one-liner's urlopen, a curl --resolve pin) by the same
// reading and the same rules as [Check], relaxed where a command is
// ordinary developer work and WebFetch is not:
//
//   - loopback and private space plainly named (curl
//     http://localhost:3000/ against one's own dev server, 127.0.0.1,
//     [::1], 10.0.0.5, printer.local, a compose service name) → Allow;
//     Reason is left as a note for the caller;
//   - a userinfo before a plain host (http://user:pass@localhost/) is
//     read as credentials, not as a disguise;
//   - a scheme other than http or https is judged by its host (curl
//     reads files, FTP and more); gopher: and dict:, which carry raw
//     bytes to any TCP service, → Deny, ssrf.scheme on a non-public host
//     (no developer task needs them; each service has its own client);
//   - a host that cannot be read → Allow (the client refuses it too);
//   - a public IP address in a disguised spelling → Allow;
//   - a bare number below 65536 without a scheme ("80", "10") → Allow:
//     in a command it is a port or a count an unknown option took
//     (ngrok http 80), though a client would read 0.0.0.80.
//
// What stays as for a fetch tool: a cloud metadata endpoint → Deny
// (ssrf.metadata); a non-public host in a disguised spelling (hex or
// decimal IPv4, IPv4 in IPv6, http://0/, localhost., a wildcard-DNS name
// such as 127.0.0.1.nip.io, a DNS-rebinding service) → Deny
// (ssrf.obfuscated-host); a cluster-internal name or a home router's
// admin name → Ask (ssrf.private). A text without a scheme is read as
// http, as curl does.
func CheckCommandURL(raw string) Result { return judge(raw, command) }

// caller says whose URL is judged: the policies of [Check] and
// [CheckCommandURL].
type caller uint8

const (
	fetchTool caller = iota
	command
)

// judge is the one reading of a URL both callers share.
func judge(raw string, by caller) Result {
	t, err := places.ParseURL(raw)
	q := quote(raw)
	odd := t.Odd
	if by == command && odd == places.OddUserinfo {
		odd = ""
	}
	web := t.Scheme == "" || t.Scheme == "http" || t.Scheme == "https"
	switch {
	case by == fetchTool && !web:
		return Result{Action: toolwall.Deny, Rule: RuleScheme, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: the %s: scheme can reach local files or internal services, and this tool only fetches web pages. Use an http:// or https:// URL; read local files with the Read tool.", q, t.Scheme)}
	case errors.Is(err, places.ErrMalformed) && by == fetchTool:
		return Result{Action: toolwall.Deny, Rule: RuleMalformed, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: its host cannot be read unambiguously (%v), and a host that cannot be read cannot be judged safe. Fix the URL to a plain https://host/path form.", q, errors.Unwrap(err))}
	case err != nil || t.Host == "" || by == command && portLike(raw):
		return Result{Action: toolwall.Allow, Target: t}
	case t.Network == places.Metadata:
		return Result{Action: toolwall.Deny, Rule: RuleMetadata, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: %s is a cloud instance metadata endpoint, which hands out this machine's cloud credentials. Do not read instance metadata; ask the user for the configuration you need.", q, t.Host)}
	case t.Network != places.Public && odd != "":
		return Result{Action: toolwall.Deny, Rule: RuleObfuscate, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: the host is %s (%s address space) written in a disguised form (%s), a known way to slip past URL filters. If you need a local or internal service, name it plainly (e.g. http://localhost:8080/) so a human can approve it.", q, t.Host, t.Network, odd)}
	case by == command && t.Network != places.Public && (t.Scheme == "gopher" || t.Scheme == "dict"):
		return Result{Action: toolwall.Deny, Rule: RuleScheme, Target: t, Reason: fmt.Sprintf(
			"fetching %s was refused: the %s: scheme writes raw bytes to any TCP service on %s (%s address space), a known way to drive internal services such as Redis or SMTP. Use the service's own client (redis-cli, memcached's stats), or an http:// URL.", q, t.Scheme, t.Host, t.Network)}
	case t.Network == places.Loopback && by == fetchTool:
		return Result{Action: toolwall.Ask, Rule: RuleLoopback, Target: t, Reason: fmt.Sprintf(
			"fetching %s needs approval: %s is this machine, where admin and debug endpoints answer without authentication. Confirm the local service is yours, or test it with a command the user can see.", q, t.Host)}
	case t.Network != places.Public && (by == fetchTool || t.Internal != ""):
		what := "an internal network"
		if t.Internal != "" {
			what = t.Internal
		}
		return Result{Action: toolwall.Ask, Rule: RulePrivate, Target: t, Reason: fmt.Sprintf(
			"fetching %s needs approval: %s is in %s address space (%s), which must not be reached unseen. Confirm the host is meant to be reached, or use a public URL.", q, t.Host, t.Network, what)}
	case t.Network != places.Public:
		return Result{Action: toolwall.Allow, Target: t, Reason: fmt.Sprintf(
			"%s names %s (%s address space) plainly: a command reaching a local or internal service is ordinary work, allowed.", q, t.Host, t.Network)}
	case by == fetchTool && t.Odd != "" && t.Addr.IsValid():
		return Result{Action: toolwall.Warn, Rule: RuleObfuscate, Target: t, Reason: fmt.Sprintf(
			"fetching %s: the host %s is written in an unusual form (%s). Prefer the plain host name.", q, t.Host, t.Odd)}
	}
	return Result{Action: toolwall.Allow, Target: t}
}

// portLike reports a bare decimal number below 65536.
func portLike(raw string) bool {
	n, err := strconv.ParseUint(raw, 10, 16)
	return err == nil && n < 65536
}

// IsBlockedAddr reports whether a fetch must not connect to a: every
// network but [places.Public]. A fetch executor calls it on each address
// DNS returns (and again on each redirect hop), after [Check] has passed
// the URL ("Post-DNS IP validation").
func IsBlockedAddr(a netip.Addr) bool { return places.NetworkOf(a) != places.Public }

// quote quotes a URL for a reason, shortened to 120 bytes.
func quote(s string) string {
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}
