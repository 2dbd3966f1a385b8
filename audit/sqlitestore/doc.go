// Package sqlitestore is the SQLite audit store, toolwall's default: a
// file (audit.db, beside the session state) with one row per decision,
// indexed by time, session, host call and rule, read by `toolwall audit`,
// `toolwall explain` and the local page.
//
// A hook starts a process per tool call, and opening SQLite costs more
// than the decision itself, so a store opened with an Inbox writes
// nothing to SQLite: Record and the outcomes are appended to the inbox,
// a JSONL file in package jsonlstore's format (about 15 µs, one write per
// line), and every read first moves the inbox's lines into SQLite in one
// transaction and empties it (an exclusive lock keeps writers waiting for
// that moment; a line moved twice after a crash is ignored the second
// time, since decision ids are unique). Without an Inbox every method
// writes SQLite directly (a long-running server).
//
// The database is opened on first use, in WAL mode with a busy timeout,
// with the conventions of package session: application_id marks the
// file, PRAGMA user_version numbers the schema migrations, and a file
// that is not a toolwall audit database is refused untouched.
package sqlitestore
