// Package chain finds attacks split over several tool calls: ordered
// sequences of risk tags ([toolwall.Effect]) across the executed calls of
// one session, ending in the call being judged. No single call of such a
// chain need look dangerous — download a script, make it executable, run
// it; read a credential, then send something out; inspect permissions,
// stage a helper, then delete protected data (seeds 000, 001, 003).
//
// Sources: the tool shield (combination rules fire only across executed calls,
// in chronological order, weighted 0.3 on top of the single-call score;
// reversed order never fires), the tool-executor framework (RiskChainAccumulator: a window in
// turns, default 3), the LLM security analyzer (inspect → stage → delete).
//
// The package is pure: the caller supplies the window of history (see
// package session) and the current call's effects.
package chain
