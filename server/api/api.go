package api

import (
	"encoding/json"

	"github.com/toolwall/toolwall"
)

// Schema is the version of the request and response bodies.
const Schema = "toolwall.v1"

// Paths of the endpoints.
const (
	PathDecide      = "/v1/decide"
	PathDecideBatch = "/v1/decide/batch"
	PathRecord      = "/v1/record"
	PathRecordBatch = "/v1/record/batch"
	PathTurn        = "/v1/turn"
	PathApprove     = "/v1/approve"
	PathRules       = "/v1/rules"
	PathOpenAPI     = "/v1/openapi.json"
	PathHealth      = "/healthz"
	PathReady       = "/readyz"
	PathMetrics     = "/metrics"
)

// QueryTimings is the query parameter of POST /v1/decide and
// /v1/decide/batch that asks for each decision's Timings
// ("?timings=true"; any value strconv.ParseBool reads). Without it a
// decision carries none: they are diagnostics (the audit record and
// `toolwall explain` keep them) and would be more than half of a
// typical answer's bytes.
const QueryTimings = "timings"

// MaxBatch is the most calls (or records) one batch request may carry;
// a larger batch is answered 400. The body limit (8 MiB by default)
// applies to the whole batch.
const MaxBatch = 1000

// Call is a tool call as a client sends it: the body of POST /v1/decide,
// and the call part of POST /v1/record.
type Call struct {
	// Schema is "toolwall.v1" or empty.
	Schema string `json:"schema,omitempty"`
	// Tool is the tool name: "Bash", "Write", "Edit", "MultiEdit",
	// "NotebookEdit", "Read", "WebFetch", "Grep" are judged; any other
	// name is allowed without analysis (as in the hook). Required.
	Tool string `json:"tool"`
	// Input is the tool input object (for Bash {"command": "..."}).
	// Required for the judged tools.
	Input json.RawMessage `json:"input,omitempty"`
	// Session is the agent session, 1 to 200 bytes; calls in one session
	// share chain memory. Sessions are kept per bearer token: two tokens
	// never see each other's sessions. Empty: no memory.
	Session string `json:"session,omitempty"`
	// CallID is the client's id for this tool call (a tool-use id), the
	// same in /v1/decide and /v1/record: the record made when the call was
	// judged is the one committed when it ran. Optional.
	CallID string `json:"call_id,omitempty"`
	// Cwd, Project and Home are absolute paths on the agent's machine:
	// the working directory, the project root (default Cwd) and the
	// user's home (used for ~ and $HOME; empty means the server's default
	// home, toolwall serve --home, else the server's own; a server with
	// neither refuses the call as incomplete).
	Cwd     string `json:"cwd,omitempty"`
	Project string `json:"project,omitempty"`
	Home    string `json:"home,omitempty"`
	// Context is "user" (default) or "root" (a privileged helper: only the
	// catastrophic rules apply).
	Context string `json:"context,omitempty"`
	// Caller names the agent that made the call ("" for the primary
	// agent); it goes into the audit record.
	Caller string `json:"caller,omitempty"`
}

// Decision is the response of POST /v1/decide: the verdict (action,
// band, score, reason, findings, effects, commands, notes, as
// toolwall.Verdict marshals them), with a decision id and the reason
// formatted for the model.
type Decision struct {
	// Schema is "toolwall.v1".
	Schema string `json:"schema"`
	// DecisionID identifies this decision in the audit log (32 hex
	// characters); pass it to /v1/record.
	DecisionID string `json:"decision_id"`
	toolwall.Verdict
	// Rules are the rule ids of the findings, strongest first.
	Rules []string `json:"rules,omitempty"`
	// Message is the reason written for the model, prefixed with what
	// toolwall did and the rule ids ("toolwall denied this call
	// [rm.dangerous-target]: ..."); empty for allow. An ask's message
	// ends with how a person approves it (POST /v1/approve with its
	// decision id) when the server takes approvals.
	Message string `json:"message,omitempty"`
}

// Batch is the body of POST /v1/decide/batch: several calls decided in
// one request. Each call is decided as if it came alone to /v1/decide
// (its own decision id and audit record); calls of one session are
// decided in the order given, so each sees what the ones before it left
// in session memory, and calls of different sessions in parallel.
type Batch struct {
	// Schema is "toolwall.v1" or empty.
	Schema string `json:"schema,omitempty"`
	// Calls are 1 to MaxBatch calls. A call that /v1/decide would refuse
	// as a bad request makes the whole batch a 400 naming its index.
	Calls []Call `json:"calls"`
}

// Decisions is the response of POST /v1/decide/batch: one decision per
// call, in the order of the calls.
type Decisions struct {
	// Schema is "toolwall.v1".
	Schema string `json:"schema"`
	// Decisions has exactly one entry per call of the batch, in order.
	Decisions []Decision `json:"decisions"`
}

// Outcome is what happened when a call ran.
type Outcome struct {
	// Success says whether the tool reported success. Required.
	Success *bool `json:"success"`
	// ExitCode is a process's exit status, when the tool ran one.
	ExitCode *int `json:"exit_code,omitempty"`
	// DurationMS is how long the call ran, in milliseconds.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Error is the tool's error text, if any.
	Error string `json:"error,omitempty"`
	// Truncated says the output was cut at its bound.
	Truncated bool `json:"truncated,omitempty"`
}

// Record is the body of POST /v1/record: a call that ran, with its
// outcome. Only calls that ran are recorded: a refused call never is.
type Record struct {
	Call
	// DecisionID is the id /v1/decide returned, to attach the outcome to
	// the audit record; optional.
	DecisionID string `json:"decision_id,omitempty"`
	// Outcome is what happened. Required.
	Outcome *Outcome `json:"outcome"`
}

// Recorded is the response of POST /v1/record and /v1/record/batch. A
// 200 means every call is durably in session memory (when the store
// keeps it).
type Recorded struct {
	Schema string `json:"schema"`
	// Recorded is true.
	Recorded bool `json:"recorded"`
	// Count is how many records a batch carried (omitted for a single
	// record).
	Count int `json:"count,omitempty"`
}

// Records is the body of POST /v1/record/batch: 1 to MaxBatch calls that
// ran, recorded in the order given. The answer is 200 only when all of
// them are in session memory; on 503 send the whole batch again.
type Records struct {
	// Schema is "toolwall.v1" or empty.
	Schema string `json:"schema,omitempty"`
	// Records are the calls that ran, each as the body of /v1/record.
	Records []Record `json:"records"`
}

// Approve is the body of POST /v1/approve: a human's yes to an asked
// call. It needs an approver token of the decision's tenant (never the
// token the agent decides with).
type Approve struct {
	// Schema is "toolwall.v1" or empty.
	Schema string `json:"schema,omitempty"`
	// DecisionID is the decision id of an ask. Required.
	DecisionID string `json:"decision_id"`
}

// Approval is the response of POST /v1/approve: the grant. From now on
// the same call (tool, input, caller) in the same session and working
// directory is allowed by /v1/decide without asking, until Expires.
type Approval struct {
	Schema string `json:"schema"`
	// DecisionID is the approved decision.
	DecisionID string `json:"decision_id"`
	// Session is the session the grant holds in ("" for calls sent
	// without one).
	Session string `json:"session,omitempty"`
	// Tool and Summary describe the approved call (secrets redacted).
	Tool    string `json:"tool"`
	Summary string `json:"summary,omitempty"`
	// Expires is when the grant ends (RFC 3339); empty means the end of
	// the session (the approvals' retention, 7 days by default).
	Expires string `json:"expires,omitempty"`
}

// Turn is the body of POST /v1/turn: the session's user starts a new turn
// (a new prompt). Chain rules look back over the last 3 turns.
type Turn struct {
	Schema string `json:"schema,omitempty"`
	// Session is the agent session. Required.
	Session string `json:"session"`
}

// TurnState is the response of POST /v1/turn.
type TurnState struct {
	Schema  string `json:"schema"`
	Session string `json:"session"`
	// Turn is the session's new turn number: 1 after the first advance.
	Turn int `json:"turn"`
}

// Rules is the response of GET /v1/rules: the policy in force.
type Rules struct {
	Schema string `json:"schema"`
	// Policy says where the policy came from and how its last reload went.
	Policy PolicyState `json:"policy"`
	// Thresholds are the warn and block edges of the score bands.
	Thresholds Thresholds `json:"thresholds"`
	// Disabled lists the rule ids switched off by rules.disable.
	Disabled []string `json:"disabled"`
	// Window is the chain window: the last Calls executed calls within
	// the last Turns turns.
	Window Window `json:"window"`
	// Tools are the tool names some analyzer judges; others are allowed.
	Tools []string `json:"tools"`
	// Analyzers are the analyzers in force, in the order they run.
	Analyzers []Analyzer `json:"analyzers"`
	// Chains are the chain rules across calls.
	Chains []Chain `json:"chains"`
}

// PolicyState describes the loaded policy.
type PolicyState struct {
	// Source is the configuration file ("" for the defaults).
	Source string `json:"source"`
	// Version is the SHA-256 of the loaded file, in hex ("" for the
	// defaults).
	Version string `json:"version,omitempty"`
	// LoadedAt is when the policy in force was loaded (RFC 3339).
	LoadedAt string `json:"loaded_at"`
	// ReloadError is the error of the last reload, when it failed and the
	// previous policy was kept; empty otherwise.
	ReloadError string `json:"reload_error,omitempty"`
}

// Thresholds are the score band edges: from Warn a call warns, from
// Block it is denied (0.9 and above is always Critical, denied).
type Thresholds struct {
	Warn  float64 `json:"warn"`
	Block float64 `json:"block"`
}

// Window is the chain window.
type Window struct {
	Calls int `json:"calls"`
	Turns int `json:"turns"`
}

// Analyzer is one analyzer in force.
type Analyzer struct {
	Name  string   `json:"name"`
	Doc   string   `json:"doc"`
	Tools []string `json:"tools"`
}

// Chain is one chain rule.
type Chain struct {
	ID     string          `json:"id"`
	Action toolwall.Action `json:"action"`
	Score  float64         `json:"score"`
	Why    string          `json:"why"`
}

// Error is the body of every 4xx and 5xx response.
type Error struct {
	Schema string      `json:"schema"`
	Error  ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong.
type ErrorDetail struct {
	// Code is stable: "bad_request", "unauthorized", "forbidden", "too_large",
	// "unsupported_media_type", "not_found", "method_not_allowed",
	// "not_pending" (/v1/approve: no pending ask of this tenant under
	// that decision id), "unavailable", "internal".
	Code string `json:"code"`
	// Message is for people.
	Message string `json:"message"`
}
