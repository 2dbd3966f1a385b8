package govern

import (
	"context"
	"fmt"

	"github.com/gobwas/glob"

	"github.com/toolwall/toolwall/pipeline"
)

// Effect is what an authorization rule does.
type Effect string

// Effects.
const (
	Allow Effect = "allow"
	Deny  Effect = "deny"
)

// AuthRule is one [[tools.authorization.rules]] entry: a glob
// over the fully-qualified tool id and an effect, optionally narrowed to
// callers (globs; "" is the primary agent) and trust levels.
type AuthRule struct {
	Effect  Effect
	Tool    string
	Callers []string
	Trust   []Level
}

// Authorizer evaluates authorization rules: the first rule that matches a
// call decides; a call no rule matches is denied.
type Authorizer struct {
	rules []authRule
	trust *Trust
}

type authRule struct {
	AuthRule
	tool    glob.Glob
	callers []glob.Glob
}

// NewAuthorizer compiles rules; trust (may be nil) gives each caller's
// level for rules that name levels.
func NewAuthorizer(rules []AuthRule, trust *Trust) (*Authorizer, error) {
	a := &Authorizer{trust: trust}
	for i, r := range rules {
		if r.Effect != Allow && r.Effect != Deny {
			return nil, fmt.Errorf("govern: authorization rule %d: effect %q is neither allow nor deny", i+1, r.Effect)
		}
		g, err := glob.Compile(r.Tool)
		if err != nil || r.Tool == "" {
			return nil, fmt.Errorf("govern: authorization rule %d: bad tool glob %q", i+1, r.Tool)
		}
		cr := authRule{AuthRule: r, tool: g}
		for _, c := range r.Callers {
			cg, err := glob.Compile(c)
			if err != nil {
				return nil, fmt.Errorf("govern: authorization rule %d: bad caller glob %q", i+1, c)
			}
			cr.callers = append(cr.callers, cg)
		}
		a.rules = append(a.rules, cr)
	}
	return a, nil
}

// Decide returns the effect for a call of tool by caller and the number
// of the rule that decided (1-based; 0 when none matched: deny).
func (a *Authorizer) Decide(tool, caller string) (Effect, int) {
	id := Qualify(tool)
	for i, r := range a.rules {
		if !r.tool.Match(id) && !r.tool.Match(tool) {
			continue
		}
		if len(r.callers) > 0 && !anyGlob(r.callers, caller) {
			continue
		}
		if len(r.Trust) > 0 && (a.trust == nil || !containsLevel(r.Trust, a.trust.Level(caller))) {
			continue
		}
		return r.Effect, i + 1
	}
	return Deny, 0
}

func anyGlob(gs []glob.Glob, s string) bool {
	for _, g := range gs {
		if g.Match(s) {
			return true
		}
	}
	return false
}

func containsLevel(ls []Level, l Level) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// Middleware is the authorization layer (authorization_blocked).
func (a *Authorizer) Middleware() pipeline.Middleware {
	return pipeline.Middleware{Name: "authorization", Wrap: func(next pipeline.Tool) pipeline.Tool {
		return pipeline.ToolFunc(func(ctx context.Context, req *pipeline.Request) (*pipeline.Result, error) {
			eff, n := a.Decide(req.Call.Tool, req.Call.Caller)
			if eff == Deny {
				why := "no authorization rule grants it"
				if n > 0 {
					why = fmt.Sprintf("authorization rule %d denies it", n)
				}
				return refuse(PhaseAuthorization, fmt.Sprintf("the %s call is not authorized: %s. Use another tool or ask the user.", req.Call.Tool, why)), nil
			}
			return next.Execute(ctx, req)
		})
	}}
}
