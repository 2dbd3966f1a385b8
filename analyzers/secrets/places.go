package secrets

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/places"
	"github.com/toolwall/toolwall/shell"
)

// Class is the kind of secret a path names ([places.Class]).
type Class = places.Class

// The classes of [places.Class].
const (
	None          = places.None
	AuthFile      = places.AuthFile
	ProjectSecret = places.ProjectSecret
	PrivateKey    = places.PrivateKey
	Credential    = places.Credential
	SystemSecret  = places.SystemSecret
)

// Classify is [places.Classify].
func Classify(p, home, project string) Class { return places.Classify(p) }

// Protected is [places.Protected].
func Protected(p, home, project string) bool { return places.Protected(p, home, project) }

// Holds is [places.Holds].
func Holds(dir, home string) bool { return places.Holds(dir, home) }

type place struct {
	class  Class
	keyDir bool
}

func classify(p string) place { return place{places.Classify(p), places.KeyDir(p)} }

// RuleTokenEgress (deny, score 0.95): a credential-shaped token
// ([places.Token]) is put into the arguments of a command that talks to
// the network, for a host other than its issuer's.
const RuleTokenEgress = "secrets.token-egress"

// tokenEgress denies a network command whose static arguments carry a
// credential-shaped token.
func (s *state) tokenEgress(c *shell.Command) {
	if !argSenders[c.Name] || len(c.Args) < 2 {
		return
	}
	for _, w := range c.Args[1:] {
		kind, svc, ok := places.Token(w.Value)
		if !ok || toIssuer(c.Args[1:], svc) {
			continue
		}
		s.r.Tag(toolwall.TagEgress, "", "credential token")
		s.r.Add(toolwall.Finding{Rule: RuleTokenEgress, Category: "secrets", Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("Sending %s to the network was refused: `%s` carries it in its arguments, and a leaked credential can only be fixed by rotating it. Do not send credentials anywhere; if a service needs one, ask the user to configure it.", kind, c.String())})
		return
	}
}

// toIssuer reports whether every URL among words goes to svc, and there
// is at least one.
func toIssuer(words []shell.Word, svc places.Service) bool {
	n := 0
	for _, w := range words {
		if !strings.Contains(w.Value, "://") {
			continue
		}
		u, err := url.Parse(w.Value)
		if err != nil || !svc.Serves(u.Hostname()) {
			return false
		}
		n++
	}
	return n > 0
}

// AppendTarget is [places.AppendTarget].
func AppendTarget(p string) bool { return places.AppendTarget(p) }
