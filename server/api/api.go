package api

import (
	"encoding/json"

	"github.com/toolwall/toolwall"
)

// Schema is the version of the request and response bodies.
const Schema = "toolwall.v1"

// Paths of the endpoints.
const (
	PathDecide  = "/v1/decide"
	PathRecord  = "/v1/record"
	PathTurn    = "/v1/turn"
	PathRules   = "/v1/rules"
	PathOpenAPI = "/v1/openapi.json"
	PathHealth  = "/healthz"
	PathReady   = "/readyz"
	PathMetrics = "/metrics"
)

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
	// user's home (used for ~ and $HOME; empty means unknown, and "~" is
	// then asked about).
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
	// [rm.dangerous-target]: ..."); empty for allow.
	Message string `json:"message,omitempty"`
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

// Recorded is the response of POST /v1/record. A 200 means the call is
// durably in session memory (when the store keeps it).
type Recorded struct {
	Schema string `json:"schema"`
	// Recorded is true.
	Recorded bool `json:"recorded"`
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
	// "unavailable", "internal".
	Code string `json:"code"`
	// Message is for people.
	Message string `json:"message"`
}
