package govern

import "github.com/toolwall/toolwall/pipeline"

// Layers are the governance pieces a Stack installs; nil ones are left
// out.
type Layers struct {
	Anomaly *Anomaly
	Scopes  *Scopes
	// Scope is the task's scope name ("" for the default).
	Scope string
	// Policy is the policy layer: pipeline.Shield over toolwall's engine.
	Policy *pipeline.Middleware
	Authz  *Authorizer
	Trust  *Trust
	Quota  *Quota
}

// Stack returns the layers in the package's evaluation order, outermost
// first: anomaly, scope, policy, authorization, trust, quota. Pass them to
// pipeline.Builder.Use before any Memoize layer.
func Stack(l Layers) []pipeline.Middleware {
	var out []pipeline.Middleware
	if l.Anomaly != nil {
		out = append(out, l.Anomaly.Middleware())
	}
	if l.Scopes != nil {
		out = append(out, l.Scopes.Middleware(l.Scope))
	}
	if l.Policy != nil {
		out = append(out, *l.Policy)
	}
	if l.Authz != nil {
		out = append(out, l.Authz.Middleware())
	}
	if l.Trust != nil {
		out = append(out, l.Trust.Middleware())
	}
	if l.Quota != nil {
		out = append(out, l.Quota.Middleware())
	}
	return out
}
