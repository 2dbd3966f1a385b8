// Package advisors holds the gate's second opinions: analyzers of the
// later stage (analysis.Later) that ask a separate model about a tool call
// before it runs. Package guardrail is the LLM security analyzer's guardrail LLM (a risk
// label for each action, judged with the session's recent history and
// optional safety experiences); package advisor is the shell guardrail's third layer
// (the probability that a shell command irreversibly destroys data).
// Both are opt-in and never read a model's failure as "safe".
package advisors
