package secrets

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// RuleTokenEgress (deny, score 0.95): a credential-shaped token (an AWS
// access key id, a GitHub, GitLab, Slack, Stripe or Google API token, a
// private key block) is put into a URL or the arguments of a command that
// talks to the network. A leaked credential can only be fixed by rotating
// it.
const RuleTokenEgress = "secrets.token-egress"

// tokenKinds are credential shapes published by their issuers, each with a
// prefix that ordinary text does not carry.
// issuer is the domain the credential is meant for: sending it there is
// its ordinary use.
var tokenKinds = []struct {
	name, pattern, issuer string
}{
	{"an AWS access key id", `\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, "amazonaws.com"},
	{"a GitHub token", `\b(gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{40,})\b`, "github.com"},
	{"a GitLab token", `\bglpat-[A-Za-z0-9_-]{20}\b`, "gitlab.com"},
	{"a Slack token", `\bxox[abposr]-[A-Za-z0-9-]{10,}`, "slack.com"},
	{"a Stripe secret key", `\b[sr]k_live_[A-Za-z0-9]{20,}`, "stripe.com"},
	{"a Google API key", `\bAIza[0-9A-Za-z_-]{35}\b`, "googleapis.com"},
	{"a private key", `-----BEGIN [A-Z ]*PRIVATE KEY-----`, ""},
}

var tokenREs = sync.OnceValue(func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(tokenKinds))
	for i, k := range tokenKinds {
		out[i] = regexp.MustCompile(k.pattern)
	}
	return out
})

// CredentialToken returns what kind of credential s carries ("an AWS
// access key id", …) and the domain that issued it, or "" when it carries
// none it recognises.
func CredentialToken(s string) (kind, issuer string) {
	for i, re := range tokenREs() {
		if re.MatchString(s) {
			return tokenKinds[i].name, tokenKinds[i].issuer
		}
	}
	return "", ""
}

// toIssuer reports whether every URL among words goes to issuer (or a
// subdomain), and there is at least one.
func toIssuer(words []shell.Word, issuer string) bool {
	if issuer == "" {
		return false
	}
	n := 0
	for _, w := range words {
		if !strings.Contains(w.Value, "://") {
			continue
		}
		u, err := url.Parse(w.Value)
		if err != nil {
			return false
		}
		h := strings.ToLower(u.Hostname())
		if h != issuer && !strings.HasSuffix(h, "."+issuer) && !(issuer == "github.com" && strings.HasSuffix(h, ".githubusercontent.com")) {
			return false
		}
		n++
	}
	return n > 0
}

// tokenEgress denies a network command whose static arguments carry a
// credential-shaped token.
func (s *state) tokenEgress(c *shell.Command) {
	if !argSenders[c.Name] || len(c.Args) < 2 {
		return
	}
	for _, w := range c.Args[1:] {
		if kind, issuer := CredentialToken(w.Value); kind != "" && !toIssuer(c.Args[1:], issuer) {
			s.r.Tag(toolwall.TagEgress, "", "credential token")
			s.r.Add(toolwall.Finding{Rule: RuleTokenEgress, Category: "secrets", Score: 0.95, Action: toolwall.Deny,
				Reason: fmt.Sprintf("Sending %s to the network was refused: `%s` carries it in its arguments, and a leaked credential can only be fixed by rotating it. Do not send credentials anywhere; if a service needs one, ask the user to configure it.", kind, c.String())})
			return
		}
	}
}
