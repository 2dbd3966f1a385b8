// Package server is toolwall's HTTP decision server: agents (or the
// services that run them) send a tool call and get the verdict, report
// what ran, and advance a session's turn, over JSON on HTTP (schema
// "toolwall.v1", package server/api; OpenAPI document at
// /v1/openapi.json). It holds no rules (DESIGN principle 6): every
// decision comes from the engine of engine.New, rebuilt when the policy
// is reloaded, over one session store shared by every engine and, with
// session/postgres, by every replica.
//
// Endpoints: POST /v1/decide, /v1/decide/batch, /v1/record,
// /v1/record/batch, /v1/turn, /v1/approve; GET /v1/rules,
// /v1/openapi.json, /healthz, /readyz, /metrics (Prometheus, on the
// server's own registry; the default registry is never touched).
//
// Throughput: one HTTP/1.1 round trip with JSON costs more than a
// decision, so a client with many calls sends them in batches (up to
// api.MaxBatch per request). A batch is spread over GOMAXPROCS workers;
// the calls of one session stay in order on one worker, so each sees
// what the ones before it left in session memory. With a store that
// batches (session/postgres), a batch costs the store one history read
// for all its sessions, one write of the calls it stages and one commit
// of the calls it records (see view). The verdicts of calls without a
// session, a pure function of the call and the policy, are kept for
// 500 ms per exact call ([Options.CacheSize]); calls with a session are
// always judged afresh, so chains see every call.
//
// Approvals ([Options.Approvals], [Options.Approvers]): an ask is noted
// pending under its decision id, as the hook notes it; a person with an
// approver token of the call's tenant approves it with POST /v1/approve,
// and the same call in the same session and working directory is then
// allowed until the grant expires. A deny is never pending; an agent's
// own token never approves. Replicas on one PostgreSQL share approvals
// through approval/postgres: an ask approved through one is allowed on
// all.
//
// Bearer tokens are tenants: a session id is kept as "<tenant>/<id>", so
// one token's calls never read or arm another's chain. A server without
// tokens answers only requests addressed to loopback. Bodies are bounded
// ([Options.MaxBody]) and must be application/json; unknown fields are
// refused. A decision is bounded in time ([Options.Timeout]) and a panic
// while deciding is answered with a deny for that request. [Server.Serve]
// shuts down gracefully. [Server.Reload] puts a new policy in force by
// swapping an atomic pointer; a broken policy keeps the old one.
//
// Calls are judged against the default install layout under each call's
// home (engine.Layout): the server's own files are on another machine
// than the agent's.
//
// Every decision writes one audit.Record (driver "server") through
// [Options.Audit]; /v1/record attaches the outcome. A sink that writes
// many at once (audit/postgres) gets a request's records, and its
// outcomes, in one statement each. An outcome whose decision the audit
// log does not hold is logged as a warning and counted in
// toolwall_audit_outcomes_unmatched_total.
package server
