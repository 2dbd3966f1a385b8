// Package approvaltest is the conformance suite of approvals stores
// ([approval.Keeper]): the JSON Lines store of package approval and the
// PostgreSQL store of approval/postgres pass the same scripts, so a
// grant means the same on a laptop's hook and on a fleet of servers.
//
// [Run] plays the scripts of testdata/approvals.txt (embedded; format in
// its header: an ask can be approved, a deny never; a grant is for the
// same call in the same session, directory and caller; grants expire;
// prune drops what the retention and the TTL ended) and a few checks
// that need whole entries (the note naming a grant, the newest grant
// first, session and directory bytes kept as given).
package approvaltest
