// Package trajectory keeps a session's trajectory risk: a level from 0
// (calm) to 3 (critical) that rises with what the session did — calls
// the gate refused, attacks split across calls (chain findings),
// anomalies — and falls again as user turns pass. At [Critical] an allow
// becomes a deny for every tool that writes, runs or sends, with a reason
// that names the level and what raised it; read-only tools still run.
//
// It is the tool-executor framework's TrajectoryRiskSlot: "the session-wide trajectory risk
// level … reaches the tool layer as a shared u8 (0 Calm … 3 Critical). At
// 3, check_policy downgrades an Allow decision to Deny." The tool-executor framework leaves
// the analysis to the embedding application; here the gate feeds it from
// its own verdicts ([Tracker.Apply], which engine.Engine.Evaluate
// calls when [trajectory] enabled is set), and the application reads and
// sets it ([Tracker.State], [Tracker.Set], [Tracker.Raise], or a
// per-session [Slot]).
//
// # The level
//
// The level is a leaky bucket of points, computed from the session's risk
// events ([session.RiskEvent], kept in the session store so that the hook,
// a process per tool call, sees what earlier processes raised):
//
//   - a call the gate denies adds [RefusalPoints] (1), unless the denial
//     is toolwall's own failure (an internal error, a timeout, a broken
//     configuration) or the trajectory's own;
//   - a call with a chain finding that stops it (chain.download-execute,
//     chain.secret-egress, chain.repeated-refusal, …; not
//     chain.memory-off) adds [ChainPoints] (2);
//   - a call with an anomaly finding that stops it (a NUL byte in a
//     command, dashes disguised as look-alike characters: [AnomalyRules])
//     adds [AnomalyPoints] (1);
//   - an application adds what it judges ([Tracker.Raise]: a burst of
//     failing calls from pipeline/govern's anomaly detector, a human's
//     report) or sets the level outright ([Tracker.Set]);
//   - the bucket holds at most 3 points and loses Options.Decay points
//     (default 1) at every new user turn; the level is the points left.
//
// So three refused calls within one turn make a session critical, and
// with the default decay it is high (2) again once the user has written
// the next prompt, calm two turns later. A session whose host reports no
// turns (Amp) stays at its level until the application sets it.
//
// # Cost
//
// Reading the level is one read of the session store, made only for a
// call the gate would let run and whose tool is not read-only; raising it
// is one write, made only for a call that raised it. Both are skipped for
// calls without a session. In the hook that is a SQLite open and a read
// per such call, which is why the engine turns the trajectory on only
// when the configuration asks for it.
package trajectory
