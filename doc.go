// Package toolwall holds the core types shared by every part of toolwall:
// the tool [Call] an agent proposes, the [Verdict] reached on it, the
// [Finding]s analyzers report, risk [Band]s and [Thresholds], and the
// [Shield] interface of the tool shield (evaluate / record an invocation / the set
// of watched tools).
//
// toolwall stands between an LLM agent and its tools. Before a tool call
// runs, a Shield decides: allow, warn (allow and log), ask (a human
// decides) or deny (refuse, with a reason the model can act on).
//
// Bands follow the tool shield ("The tool safety shield"): Safe < 0.2 ≤ Low <
// warn ≤ Medium < block ≤ High < 0.9 ≤ Critical, with warn 0.4 and block
// 0.7 by default and the Critical floor hard-wired.
//
// The package is small on purpose; analysis lives in shell, analysis,
// analyzers/..., gate; drivers in hook, cmd/toolwall.
package toolwall
