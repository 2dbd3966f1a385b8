// Package jsonlstore is the JSONL audit store: one JSON object per line
// in an append-only file (package jsonl), written with one write per
// line, so a hook process pays about 15 µs to record a decision and
// parallel hooks never lose one.
//
// Lines are envelopes:
//
//	{"type":"decision","record":{…audit.Record…}}
//	{"type":"outcome","id":"…","outcome":{…}}                       by decision id
//	{"type":"outcome","session":"…","call_id":"…","outcome":{…}}    by host call id
//
// Writes never read the file: a second record with an id already written
// is ignored when read (the first wins), and an outcome attaches when
// read to its decision (by call id: the latest decision on that call
// written before it), or is dropped when there is none. Reads scan the
// whole file, so this store suits small logs, log shippers and people
// with grep; the SQLite store (package sqlitestore) indexes the same
// lines for queries, and is what toolwall reads by default.
package jsonlstore
