// Package postgres keeps approvals ([approval.Keeper]) in PostgreSQL,
// through github.com/jackc/pgx/v5, so that every replica of the HTTP
// decision server on one database shares them: an ask decided on
// replica A and approved through A's POST /v1/approve is allowed when
// the same call comes to replica B.
//
// The rules are package approval's, and the store passes the same
// conformance suite (approval/approvaltest) as the JSON Lines store: only
// an ask is noted pending; a deny never is, so it can never be approved;
// a grant is for the same call ([approval.Key]: session, caller,
// directory, tool and input) and holds for Options.TTL, else up to the
// retention; an ask is approved once, even when two replicas approve it
// at the same moment (a unique index on the granted decision). Tenants
// are kept apart by the session in the key, which the server prefixes
// with the tenant.
//
// Entries are rows of one append-only table, "approvals", in the schema
// the session store uses (default "toolwall"), created and migrated by
// [Open] and [New] under the same advisory lock as package
// session/postgres, so the two stores migrate one schema in turn. Host
// strings are bytea (any bytes round-trip); times are Unix microseconds
// from the store's clock (approval.Options.Now). Expired grants and
// entries past the retention are deleted by [Store.Prune], which [Store.Check]
// runs by itself at most once per Options.PruneEvery in each process.
//
// Tests find their database through $TOOLWALL_TEST_POSTGRES (see
// session/postgres/postgrestest) and skip, saying so, when it is unset.
package postgres
