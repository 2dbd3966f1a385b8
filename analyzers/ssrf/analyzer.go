package ssrf

import (
	"context"
	"net/url"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// Analyzer judges the "url" field of WebFetch calls with [Check]. A call
// without a string "url" field is denied (ssrf.malformed): what cannot be
// read cannot be judged safe. In RootContext it reports nothing
// (the privileged helper gets only the catastrophic set). A credential in
// the URL is the secrets analyzer's to judge.
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
	// the session, the chain rules ask (sensitive read, then
	// egress).
	if pu, err := url.Parse(u); err == nil && pu.RawQuery != "" {
		r.Tag(toolwall.TagEgress, "", "query string")
	}
}
