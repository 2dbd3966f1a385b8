// Package audit is the record of what toolwall decided and what then ran
// (the tool-executor framework's AuditLogger): every driver — hook, CLI check, executors,
// HTTP server, MCP proxy — writes one [Record] per decision through a
// [Sink], before the call runs, and later attaches the call's [Outcome].
//
// This package holds the record shape and the interface; stores (SQLite,
// JSONL), queries and retention build on it.
package audit
