// Package postgres is an [audit.Store] in PostgreSQL, through
// github.com/jackc/pgx/v5, for fleets: every replica of the HTTP decision
// server on one database writes its audit records into one log, so an
// outcome sent to replica B (POST /v1/record) attaches to the decision
// replica A made, and `toolwall audit --store postgres` reads the whole
// fleet's decisions in one place (sessions, approvals and audit
// through the same interfaces as the hook, in PostgreSQL for fleets).
//
// The store passes the conformance suite of every audit store
// (audit/audittest), with the SQLite and JSONL stores' meaning: a record
// whose id is stored already is ignored; an outcome attaches by decision
// id, or by host call id to the latest decision on that call; a record of
// a session written without a turn takes the turn of the session's
// latest turn mark written before it; Prune deletes the records decided
// before a time and the turn marks no later record reads.
//
// An outcome may arrive before its record (the record's write was slow,
// failed and was retried, or went to another replica's queue): then it
// is held, in a row of its own that has no record yet, and attaches when
// the record is written, whichever replica writes it. [Store.Outcome]
// says so with an error matching both [ErrHeld] and [audit.ErrNotFound],
// so that a driver can warn that no decision had the id at that moment.
// The record's insert and the held outcome meet on the table's primary
// key, so two replicas writing the two at once cannot miss each other.
// Held outcomes whose record never comes are deleted by Prune with the
// records of their time. An outcome by host call id
// ([Store.CallOutcome]) needs its record, as in the other stores.
//
// Rows live in two tables, "audit_records" and "audit_turns", in the
// schema the session store uses (default "toolwall"), created and
// migrated by [Open] and [New] through session/postgres.Migrate, under
// the same advisory lock as the session and approval stores, so the
// three migrate one schema in turn. Host strings (decision id, session,
// call id, caller, tool, driver, rule ids) are bytea, so any bytes
// round-trip and are matched exactly; the record is its JSON (without
// its outcome and turn, which have columns of their own); times are
// Unix microseconds. [Store.RecordMany] writes any number of records,
// and [Store.OutcomeMany] attaches any number of outcomes, in one
// statement (the HTTP server writes a request's records and outcomes
// so: one round trip where one per call costs about eight times the
// time per record, see BenchmarkRecord).
//
// With Options.Retention set, the store prunes by itself at most once
// per Options.PruneEvery in each process (on a write), as the approvals
// store does.
//
// Tests find their database through $TOOLWALL_TEST_POSTGRES (see
// session/postgres/postgrestest) and skip, saying so, when it is unset.
package postgres
