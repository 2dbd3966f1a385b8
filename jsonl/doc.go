// Package jsonl is an append-only JSON Lines file shared by many
// processes: each hook process appends one line with one write(2) on a
// file opened with O_APPEND, so parallel writers never interleave or
// lose a line, and a line whose write returned survives a kill -9 of its
// writer (it is in the kernel's page cache, hence in the file).
//
// Writers hold a shared flock(2) while they write; readers, [File.Rewrite]
// (retention) and [File.Drain] (indexing into a database) hold an
// exclusive one. Rewrite replaces the file by rename, so a writer that
// opened the old file checks, once it holds its lock, that its file is
// still the one at the path, and opens the new one if not.
//
// Audit records (package audit/jsonlstore) and approvals (package
// approval) are stored this way. On systems without flock (not unix),
// locking is skipped: appends stay atomic, a concurrent Rewrite or Drain
// may lose lines.
package jsonl
