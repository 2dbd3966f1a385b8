// Package auditlist is `toolwall audit`: it lists, filters and follows
// the records of an audit.Store. The toolwall binary runs it on the
// SQLite or JSONL store beside the hook's state; toolwall-net runs it on
// the PostgreSQL audit log of a server fleet (`toolwall audit --store
// postgres` hands over to it), since the hook's binary does not link a
// PostgreSQL driver. Both print the same lines.
package auditlist
