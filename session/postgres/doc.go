// Package postgres is a [session.Store] in PostgreSQL, through
// github.com/jackc/pgx/v5, for fleets: every replica of the HTTP decision
// server that opens the same database and schema shares one session
// memory, so a download recorded on replica A arms the chain rule on
// replica B, and a replica killed mid-request loses no call it
// acknowledged (each write is one transaction, committed before the
// method returns).
//
// The store passes the same conformance suite as the SQLite and memory
// stores (session/sessiontest). Each write is sent as one pgx batch: one
// round trip and one implicit transaction, so it applies whole or not at
// all. Concurrent writes to one session are ordered by the session row's
// lock, which every write takes first.
//
// Tables live in their own schema (default "toolwall", see
// [Options.Schema]), created and migrated by [Open] and [New] under an
// advisory lock, so replicas starting together do not race. A schema
// written by a newer toolwall is refused.
//
// Failures match [session.ErrUnavailable] like the other stores' (a
// cancelled context matches the context's error instead), so the gate
// carries on with single-call analysis and says "chain memory off".
//
// Tests that need a database find it through the environment variable
// named by postgrestest.EnvDSN and skip when it is unset.
package postgres
