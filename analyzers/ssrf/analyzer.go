package ssrf

import (
	"context"
	"net/url"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/secrets"
)

// Analyzer judges the "url" field of WebFetch calls with [Check]. A call
// without a string "url" field is denied (ssrf.malformed): what cannot be
// read cannot be judged safe. In RootContext it reports nothing (seed 004:
// the privileged helper gets only the catastrophic set).
var Analyzer = &analysis.Analyzer{
	Name:  "ssrf",
	Rules: rules,
	Doc:   "Judges URLs given to fetch tools before DNS: non-web schemes, cloud metadata endpoints, loopback and internal hosts in every spelling (decimal/hex/octal IPv4, IPv4-in-IPv6, userinfo and Unicode tricks).",
	Tools: []string{toolwall.ToolWebFetch},
	Run:   run,
}

func run(_ context.Context, in *analysis.Input, r *analysis.Report) {
	if in.Call.IsRoot() {
		return
	}
	u, ok := in.Call.Field("url")
	if !ok {
		r.Add(toolwall.Finding{Rule: RuleMalformed, Category: "ssrf", Score: denyScore, Action: toolwall.Deny,
			Reason: "the fetch was refused: the call has no string \"url\" field, so its target cannot be judged. Pass the URL as a string in \"url\"."})
		return
	}
	if res := Check(u); res.Action != toolwall.Allow {
		r.Add(res.Finding())
	}
	// A URL with a query string carries data out: after a secret read in
	// the session, the chain rules ask (seed 003: sensitive read, then
	// egress).
	pu, err := url.Parse(u)
	if err == nil && pu.RawQuery != "" {
		r.Tag(toolwall.TagEgress, "", "query string")
	}
	if kind, issuer := secrets.CredentialToken(u); kind != "" && (err != nil || issuer == "" || !hostIn(pu.Hostname(), issuer)) {
		r.Add(toolwall.Finding{Rule: secrets.RuleTokenEgress, Category: "secrets", Score: denyScore, Action: toolwall.Deny,
			Reason: "fetching this URL was refused: it carries " + kind + ", and a leaked credential can only be fixed by rotating it. Do not put credentials in URLs; if a service needs one, ask the user to configure it."})
	}
}

// hostIn reports whether host is domain or one of its subdomains.
func hostIn(host, domain string) bool {
	host = strings.ToLower(host)
	return host == domain || strings.HasSuffix(host, "."+domain)
}
