package toolwall

import (
	"context"
	"time"
)

// Finding is one thing an analyzer found in a call.
type Finding struct {
	// Analyzer names the analyzer that reported it ("shell", "unixshield", ...).
	Analyzer string `json:"analyzer"`
	// Rule is the stable rule id ("rm.dangerous-target"); users switch
	// rules off and hosts log by it.
	Rule string `json:"rule"`
	// Category groups rules for logs and dashboards ("destructive",
	// "remote-code", "secrets", "git", "ssrf", ...).
	Category string `json:"category,omitempty"`
	// Score is the risk in [0, 1] this finding contributes.
	Score float64 `json:"score"`
	// Action is the least severe action this finding imposes whatever the
	// score (a floor); Allow imposes nothing beyond the score's band.
	Action Action `json:"action"`
	// Reason is written for the model: what was refused, why, and what to
	// do instead.
	Reason string `json:"reason"`
}

// Tag is a risk tag: a kind of effect a call has, used by chain rules that
// look across calls (RiskChainAccumulator).
type Tag string

// Risk tags. An analyzer attaches them as [Effect]s; chain rules match
// ordered sequences of them across executed calls.
const (
	TagDownloadFile   Tag = "download-file"   // network content written to a file (Path)
	TagDownloadStdout Tag = "download-stdout" // network content to stdout
	TagWriteScript    Tag = "write-script"    // a script file written (Path); Detail "destructive" when its body is
	TagMakeExecutable Tag = "make-executable" // chmod +x (Path)
	TagExecLocal      Tag = "exec-local"      // a local file executed or sourced (Path)
	TagSensitiveRead  Tag = "sensitive-read"  // a secret-bearing file read (Path): .env, keys
	TagCredential     Tag = "credential"      // credential store accessed (Path)
	TagEgress         Tag = "egress"          // data sent to the network
	TagSystemWrite    Tag = "system-write"    // a write under a system root (Path)
	TagProcessControl Tag = "process-control" // kill, systemctl, shutdown
	TagPermInspect    Tag = "perm-inspect"    // permissions inspected (ls -l, stat, id, sudo -l)
	TagStage          Tag = "stage"           // a helper staged: copied, moved or written (Path)
	TagDelete         Tag = "delete"          // files deleted (Path); Detail "protected" for protected data
	TagInstallPackage Tag = "install-package" // a package file installed, its maintainer scripts run as root (Path)
	TagBuildInput     Tag = "build-input"     // a file a build or test tool runs as code (Path): Makefile, package.json, conftest.py, setup.py
	TagShowFile       Tag = "show-file"       // a file's content printed where the agent reads it (Path): cat, head, less
)

// Effect is one tagged effect of a call, with the absolute path it touches
// when there is one.
type Effect struct {
	Tag    Tag    `json:"tag"`
	Path   string `json:"path,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Verdict is the decision on one call.
type Verdict struct {
	// Action is what happens to the call.
	Action Action `json:"action"`
	// Band is the band of Score under the thresholds in force.
	Band Band `json:"band"`
	// Score is the fused risk in [0, 1].
	Score float64 `json:"score"`
	// Reason is written for the model: what was refused or flagged, why,
	// and what to do instead. Empty when the action is allow.
	Reason string `json:"reason,omitempty"`
	// Findings lists what the analyzers found, strongest first.
	Findings []Finding `json:"findings,omitempty"`
	// Effects lists the call's risk tags for chain rules.
	Effects []Effect `json:"effects,omitempty"`
	// Commands lists, for a shell call, every command the reader saw would
	// execute, as argv joined by spaces.
	Commands []string `json:"commands,omitempty"`
	// Notes carries operational remarks that are not findings ("chain
	// memory off: ...", "LLM guardrail unavailable: ...", "advisor
	// skipped: ...").
	Notes []string `json:"notes,omitempty"`
	// Opinions lists what models said about the call in the gate's later
	// stage (the guardrail of the LLM security analyzer, the advisor of the shell guardrail), one per
	// model asked; empty when no later stage ran.
	Opinions []Opinion `json:"opinions,omitempty"`
	// Timings say where the decision's time went, stage by stage, in the
	// order they ran: "read" (the shell or PowerShell reading), each
	// analyzer by name, "memory" (the session's chains) and "later" (the
	// models), each only when it ran (every audit record holds
	// the analyzer timings). Not part of the decision itself: two equal
	// decisions may differ here.
	Timings []Timing `json:"timings,omitempty"`
}

// Timing is how long one stage of a decision took.
type Timing struct {
	// Stage is "read", an analyzer's name, "memory" or "later".
	Stage string `json:"stage"`
	// Elapsed is its wall time (JSON: nanoseconds).
	Elapsed time.Duration `json:"elapsed"`
}

// Opinion is what one model said about a call in the gate's later stage,
// with what it cost: every answer is recorded, whether it changed the
// verdict or not ("every verdict is visible").
type Opinion struct {
	// Analyzer is the later-stage analyzer that asked ("guardrail",
	// "advisor").
	Analyzer string `json:"analyzer"`
	// Model is the model that answered as its server names it, else the
	// configured one.
	Model string `json:"model,omitempty"`
	// Label is the answer in words: LOW, MEDIUM, HIGH or UNKNOWN from the
	// guardrail; the percent ("85%") or UNKNOWN from the advisor.
	Label string `json:"label"`
	// Percent is the advisor's probability from 0 to 100; nil for the
	// guardrail and when the advisor got no usable answer.
	Percent *int `json:"percent,omitempty"`
	// Explanation is the model's short reason: one line, at most 300
	// bytes, control characters removed (it is model output: untrusted).
	Explanation string `json:"explanation,omitempty"`
	// Action is what this opinion imposed on the call: allow when it
	// imposed nothing.
	Action Action `json:"action"`
	// InputTokens and OutputTokens are the usage the server reported (0
	// when it reported none).
	InputTokens  int64 `json:"input_tokens,omitempty"`
	OutputTokens int64 `json:"output_tokens,omitempty"`
	// Latency is how long the model took to answer or to fail
	// (nanoseconds in JSON).
	Latency time.Duration `json:"latency"`
	// Error says why there is no usable answer; "" when there is one.
	Error string `json:"error,omitempty"`
}

// Rules returns the rule ids of the findings, in order, without repeats.
func (v Verdict) Rules() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range v.Findings {
		if f.Rule != "" && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

// Shield judges tool calls before they run and remembers what ran. It is
// the tool shield's ToolSafetyShield in Go form. Implementations must be safe for
// concurrent use.
type Shield interface {
	// Evaluate is the pre-call judgment. It must be deterministic for the
	// same call and history, and never panic: an internal error becomes a
	// Deny verdict with a clear reason.
	Evaluate(ctx context.Context, call Call) Verdict
	// RecordInvocation is the post-call memory: call ran, and success says
	// whether it succeeded. Only executed calls are recorded; blocked
	// attempts never are.
	RecordInvocation(ctx context.Context, call Call, success bool)
	// WatchedTools lists the tool names this shield cares about; every
	// other tool passes untouched. An empty list means the shield is never
	// consulted.
	WatchedTools() []string
}
