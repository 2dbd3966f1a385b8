// Package audittest is the conformance suite every audit.Store must pass
// (the SQLite, JSONL and PostgreSQL stores, and any store a driver
// brings): records round-trip whole, duplicates are ignored, outcomes
// attach by decision id and by host call id, filters (session, action,
// rule, tool, caller, time) and limits select the newest first,
// retention prunes, a closed store refuses, data survives a reopen, and
// concurrent writers lose nothing.
//
// The cases are scripts in testdata/, documented on [Run]; a store runs
// scripts of its own in the same language with [RunScripts].
package audittest
