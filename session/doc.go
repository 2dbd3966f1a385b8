// Package session keeps per-session memory across tool calls: the user
// turn counter, the executed calls (for cross-call chain rules, seeds 000
// and 003), the refused attempts (so that repeating a refused dangerous
// thing raises the risk of the next attempt) and the trajectory risk
// events (the tool-executor framework's TrajectoryRiskSlot; package trajectory turns them
// into a level).
//
// There is one interface, [Store], and two implementations:
//
//   - [NewMemory]: in process, for the library and the server.
//   - [Open]: a SQLite file through modernc.org/sqlite (no cgo), for the
//     Claude Code hook, which starts a new process for every tool call and
//     runs matching hooks in parallel, so memory must live outside the
//     process. [DefaultPath] says where the file lives.
//
// # What counts
//
// Only executed calls enter the history ([Store.Append]); refused or
// asked-and-not-run calls never do ("blocked attempts never enter
// the history"). A refused attempt is noted separately with
// [Store.NoteRefusal] under a key the caller chooses (for example the rule
// id and the normalized target).
//
// # Bounds
//
// Per session a store keeps at most [Options.Calls] executed records
// (default 20, the tool shield's recent window), [Options.Refusals] refusals
// (default 64), [DefaultStaged] staged calls and [DefaultRiskEvents] risk
// events; older ones are deleted in the same transaction as the
// insert. Sessions with no write for [Options.Retention] (default 7 days)
// are deleted by [Store.Prune], which writes also run opportunistically at
// most once per [Options.PruneEvery] (default 1 hour). A record's size is
// bounded too ([MaxInputLen], [MaxFieldLen], [MaxList]): at most about
// 134 KiB (4 KiB input, 1 KiB each for tool and summary, 32 effects of
// 3 KiB, 32 rule ids of 1 KiB), a few hundred bytes in practice. So a
// session holds at most about 2.7 MiB of records and 64 KiB of refusals,
// and the file holds that times the sessions written in the retention
// period; the SQLite write-ahead log is kept under 1 MiB.
//
// # Failure
//
// Storage is an aid to analysis, never a precondition for it. [Open]
// reports a store it cannot use (missing permissions, a directory in place
// of the file, a file that is not a database, a schema from a newer
// toolwall) as an [*OpenError]; it and every storage failure of an
// operation match [ErrUnavailable] with errors.Is, so a caller can log
// "chain memory off" and carry on with single-call analysis. Nothing in the
// package panics on bad input or a bad file.
//
// Stores are safe for concurrent use by goroutines, and the SQLite store by
// processes sharing one file: writes run in BEGIN IMMEDIATE transactions in
// WAL mode with a busy timeout, so parallel hooks lose no record.
//
// The package sessiontest holds a conformance suite every Store must pass.
package session
