// Package executor is the tool-executor framework
// ("ToolExecutor trait" in zeph-tools), on toolwall's gate: executors run
// tool calls themselves — shell commands ([github.com/toolwall/toolwall/executor/shell]),
// file operations ([github.com/toolwall/toolwall/executor/file]) and web
// fetches ([github.com/toolwall/toolwall/executor/fetch]) — and every one of
// them re-checks each call with the same gate at the execution boundary,
// because anything that can reach an executor can skip the check in front
// of the model (layer 2: "特権の境界でもう一度チェックする").
//
// # The contract
//
// An [Executor] has four methods and no defaults: the tools it defines
// ([Definition]), how to run a call ([Executor.Execute]), whether a call
// needs a human's confirmation before it runs ([Executor.Confirmation]),
// and whether it may run speculatively, before the model asks for it
// ([Executor.Speculatable]). The package offers no base type with
// permissive method bodies to embed. A wrapper holds its inner executor in
// a named field — never an embedded one — and states its own answer for
// every method, so that adding a method to Executor makes every wrapper
// that does not implement it a compile error rather than a silent
// fallback ("ToolExecutor trait contract"). The conformance
// helpers in [github.com/toolwall/toolwall/executor/executortest] check
// that a wrapper consults its inner executor in every method and never
// answers more permissively than it.
//
// # Pieces
//
//   - [Boundary] is the re-check every leaf executor runs: the gate's
//     verdict in the executor's own context (user or root), the audit
//     record written before the call runs, a refusal the model can act on.
//   - [Composite] chains executors and dispatches a call to the one that
//     defines its tool.
//   - [Suppress] hides tools from the model and refuses their calls.
//   - [Cache] is the result cache: LRU with a TTL for deterministic
//     read-only tools on a whitelist, keyed by tool and canonical
//     arguments, with hit and miss counts.
//   - [Dependencies] is the tool dependency graph: a tool is unavailable
//     until its prerequisites have completed, and the exclusion says why.
//   - [Speculator] runs read-only calls ahead of the model and hands the
//     result over when the model issues the same call.
//   - [Tool] adapts an executor to [github.com/toolwall/toolwall/pipeline],
//     the way executors are composed with the safety-shield layer, the
//     breaker and the memo.
//   - [ExecutionContext] carries a call's working directory and
//     environment, resolved with the tool-executor framework's precedence and an environment
//     blocklist ([Resolve]).
//
// Output filters, the schema filter and TAFC live in the subpackages
// outfilter, schema and tafc.
package executor
