package remote

import (
	"context"
	"strings"
	"sync"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/destroy"
	"github.com/toolwall/toolwall/analyzers/ssrf"
	"github.com/toolwall/toolwall/shell"
)

// This file holds every call this analyzer makes into other analyzers'
// packages (ssrf's URL knowledge, destroy's judgment of a delete), which
// are moving below the analyzers; the rest of the package calls the two
// functions here.

// commandURL judges a URL a command connects to by the rules package
// ssrf applies to WebFetch, relaxed for commands (ssrf.CheckCommandURL),
// with the finding ssrf makes; ok is false when it is allowed.
func commandURL(u string) (toolwall.Finding, bool) {
	res := ssrf.CheckCommandURL(u)
	if res.Action == toolwall.Allow {
		return toolwall.Finding{}, false
	}
	return res.Finding(), true
}

// rmJudge is the destruction analyzer without its git check, built on
// first use: a literal path deleted by one-liner code is judged as "rm
// -rf PATH" would be.
var rmJudge = sync.OnceValue(func() *analysis.Analyzer { return destroy.New(destroy.Options{SkipGit: true}) })

// judgeDelete runs "rm -rf -- PATH" through the destruction analyzer in
// c's directory and returns its strongest action and that finding's
// rule (Allow and "" when it finds nothing).
func (a *analyzer) judgeDelete(c *shell.Command, t string) (toolwall.Action, string) {
	if t == "" || strings.ContainsAny(t, "\x00\n") {
		return toolwall.Allow, ""
	}
	cmd := "rm -rf -- '" + strings.ReplaceAll(t, "'", `'\''`) + "'"
	s, err := shell.Read(cmd, shell.Options{Cwd: a.cwd(c), Home: a.in.Call.Home})
	if err != nil {
		return toolwall.Ask, RuleRecursiveDel
	}
	call := a.in.Call
	call.Cwd = a.cwd(c)
	var r analysis.Report
	j := rmJudge()
	ctx := a.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	j.Run(ctx, &analysis.Input{Call: call, Script: s}, r.For(j.Name))
	act, rule := toolwall.Allow, ""
	for _, f := range r.Findings {
		if toolwall.Stricter(act, f.Action) != act && f.Action.Stops() {
			act, rule = f.Action, f.Rule
		}
	}
	return act, rule
}
