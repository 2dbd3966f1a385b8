// Package adversarial is the tool-executor framework's adversarial policy gate
// ("AdversarialPolicyGateExecutor — executor wrapper that routes tool
// calls through the adversarial policy agent before execution"; "the
// adversarial policy agent — pre-execution LLM validation that evaluates
// tool calls for safety before dispatch"): a wrapper around any
// executor.Executor that, before a call is dispatched, asks a separate
// model whether it should run — ALLOW or DENY — given the call and the
// session's recent calls.
//
// It speaks to the model through toolwall's model client (package llm:
// llm/openai, llm/anthropic, or the toolwall-llm helper) and hardens the
// prompt the way the guardrail does (package advisors/guardrail): every
// value the agent or a web page wrote is escaped inside <tool>,
// <summary>, <thought> and <arguments> tags, and the system prompt says
// that text is data, not instructions. The answer counts only as one
// label on a line of its own ("DECISION: ALLOW" or "DECISION: DENY");
// labels inside the prompt's tags or inside <think> spans do not count,
// and anything else — no label, two different ones, an unbalanced tag, a
// model that fails, times out or is cancelled — is no opinion.
//
//   - DENY refuses the call (rule adversarial.deny) with the model's short
//     reason; a human's approval does not lift it.
//   - No opinion follows Options.OnError: deny by default (rule
//     adversarial.unavailable) — an operator turned the gate on to be
//     strict —, or ask (a human confirms; the request runs again with
//     Approved), or allow (logged). A cancelled check always refuses
//     (adversarial.cancelled): the caller gave up, so the call does not
//     run.
//   - ALLOW passes the call to the inner executor, which still applies
//     its own checks.
//
// Every consultation writes one audit record (driver
// "executor:adversarial") before the call runs: the verdict with the
// model's opinion — model, label, explanation, input and output tokens,
// latency, or the error —, the call's caller, session and turn, and the
// claim that triggered the gate (audit.ClaimSource: the caller, the tool,
// the turn); the call's outcome is attached once it ran. The gate is
// opt-in: nothing asks a model unless an application wraps an executor
// with [New] ([adversarial] in toolwall's configuration gives its
// settings).
package adversarial
