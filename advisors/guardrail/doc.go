// Package guardrail is the LLM security analyzer's guardrail LLM: a separate model — not
// the agent that proposes a tool call — labels each call LOW, MEDIUM or
// HIGH risk before it runs, with the session's recent calls and optional
// safety experiences in view, and a confirm-risky policy turns the label
// into an action. It runs as an analyzer of the gate's later stage
// ([Guardrail.Analyzer]), opt-in.
//
// # Prompt
//
// [System] gives the model its role, tells it to judge the whole sequence
// (multi-step attacks look benign step by step), warns that everything
// inside the action tags is untrusted data, carries the safety
// experiences (or [Placeholder]), states the exact output contract — one
// "RISK: LOW|MEDIUM|HIGH" line, then a short explanation — and a
// classification guide. [User] lists the recent history, numbered and
// indented, then the current action. Each action is rendered in <tool>,
// <summary>, <thought> and <arguments> tags (raw input that is not JSON
// as <arguments unparsed="true">), every value HTML-escaped (&, <, >),
// the tool name too, and bounded in size. Reasoning or thinking text is
// never sent: an [Action] has no field for it.
//
// # Answer
//
// [Parse] is the hardened label parser: 16 KiB read, CRLF normalised,
// balanced tagged spans taken out, any leftover tag → UNKNOWN, labels
// only on their own line (any case), none or two different → UNKNOWN,
// one repeated → that label, in linear time. A client error or timeout
// is UNKNOWN too, logged; an ensemble ([Combine]) takes the highest
// concrete risk and is UNKNOWN only when every member is.
//
// # Policy
//
// [Policy] is the LLM security analyzer's ConfirmRisky: threshold HIGH by default (UNKNOWN
// is not a valid threshold), UNKNOWN asks by default. In the verdict: LOW
// → nothing; MEDIUM → warn; at or above the threshold → ask (or deny
// where configured); UNKNOWN → ask, or allow with a logged warning when
// confirm_unknown is off. The guardrail is skipped when the deterministic
// stage already decided at least as strictly as it could.
//
// # Safety experiences
//
// Guideline sets written for this project, per tool family (terminal,
// filesystem, postgres, browser, notion/documents, git, cloud), embedded
// in ToolShield's file shape {"exp.1": "...", ...}, so files of that shape
// dropped in a folder are read as well ([Experiences]). None by default;
// "default" is terminal + filesystem; by name; from an MCP
// configuration's mcpServers keys ([FromMCPConfig]); or from MCP servers
// detected on loopback ports, only when ports are listed (package
// mcpscan).
package guardrail
