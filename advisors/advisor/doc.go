// Package advisor is the third layer of the shell guardrail (its
// "Jev" advisor): a second opinion on shell commands the deterministic
// rules already let through. It asks a model one question — how likely
// is it, from 0 to 100 %, that running this command in this directory
// irreversibly destroys data or makes the system unbootable — and refuses
// the command when the answer is above the threshold (70 % by default,
// settable from 0 to 100 in steps of 10).
//
// It supplements the rules and never replaces them: it runs only on calls
// the rules allowed (or warned about), as an analyzer of the gate's later
// stage ([Advisor.Analyzer]). It fails open but visibly: a missing key, a
// network failure, a timeout or an unreadable answer leaves the command
// allowed with the note "advisor check failed, command allowed: <error>",
// logged and carried in the audited verdict, so an expired key is never
// mistaken for "the advisor judged it safe". A cancelled check refuses.
// Every answer is recorded as a toolwall.Opinion on the verdict: percent,
// allowed or refused, model, input and output tokens, latency.
package advisor
