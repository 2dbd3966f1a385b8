// Package gate is toolwall's one decision point.
// A [Gate] reads a tool call (for Bash, through the shell reader), runs
// the analyzers that watch the call's tool, fuses their findings into one
// [toolwall.Verdict], and implements [toolwall.Shield]. Every driver — the
// CLI, the Claude Code hook, the pipeline middleware — calls a Gate and
// holds no rules of its own.
//
// Fusion: the verdict's score is the highest finding score; its band comes
// from the thresholds; its action is the stricter of the band's
// action and every finding's action floor (deny beats ask beats warn beats
// allow). A panic or internal error inside analysis becomes a deny with a
// clear reason (principle 7: fail closed inside).
//
// With a session store the gate remembers a session across calls: the
// executed calls with risk tags (for the chain rules) and the kinds of
// call it refused, so that a later attempt at the same kind scores
// higher (chain.repeated-refusal). Refusals that are toolwall's own
// faults — config.invalid, gate.internal-error, gate.cancelled,
// gate.timeout, input.malformed — are not counted; the other findings of
// the same call are, and so are a NUL byte and a command too large to
// read, which the agent wrote.
//
// The later stage ([LaterStage]) runs analyzers that may call out — the
// guardrail LLM of the LLM security analyzer, the advisor of the shell guardrail — after the
// deterministic stage, only where they can still change the outcome,
// concurrently, within a budget of their own (3 s by default, and ending
// 250 ms before the caller's deadline). An analyzer that fails or runs out
// of time leaves a note on the verdict and its OnError action; a call
// whose check is cancelled while a model judges it is refused.
package gate
