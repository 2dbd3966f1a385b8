// Package govern is the tool-executor framework's governance layer for the tool pipeline:
// capability scopes over namespaced tool ids, authorization rules, trust
// levels and a trust gate, a per-session quota, an anomaly detector, and
// errors classified by phase. Every piece is a pipeline.Middleware;
// [Stack] installs them in the order below.
//
// Evaluation order, outermost first ("ScopedToolExecutor →
// PolicyGateExecutor → TrustGateExecutor → CompositeExecutor"):
//
//	anomaly → scope → policy (the toolwall shield) → authorization → trust → quota → tools
//
// Policy before authorization. The tool-executor framework's documentation says the
// authorization rules are "evaluated after [tools.policy] rules
// (first-match-wins)" and that "[tools.policy] always takes precedence",
// while its code appends both to one first-match list, where an earlier
// authorization allow could end the evaluation before a later policy
// rule. toolwall chooses the documented reading and makes it hold by
// construction: the policy layer (the shield: toolwall's gate with the
// configuration's rules) decides first, and authorization only narrows
// what policy let through — deny overrides across the two. An
// authorization allow never lifts a policy deny or ask; an authorization
// deny refuses a call policy allowed. Within the authorization rules the
// first match wins, and a call no rule matches is denied (authorization
// grants capabilities; what is not granted is refused). TestOrder proves
// both.
//
// Refusals are soft errors the model sees, "<phase>_blocked: <reason>"
// (the tool-executor framework's quota_blocked), and [Classify] maps any result or error to
// its [Phase]. The anomaly detector only reports ("blocking is
// the trust/policy layer's job"). Caller identity (toolwall.Call.Caller:
// "" for the primary agent, else a named sub-agent, which the hook
// adapters take from the host — Claude Code's agent_type or agent_id)
// selects the trust level, a caller's own capability scope
// (ScopeConfig.Callers) and a caller's own quota within the session
// (Quota.PerCaller), and is carried into every audit record by the
// drivers.
package govern
