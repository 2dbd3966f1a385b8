// Package file is the file executor of the tool-executor framework: Read, Write, Edit, LS
// and Glob inside a set of roots, each call re-checked by the gate.
//
//   - Paths are made absolute against the call's working directory and
//     canonicalised: symbolic links in the longest existing prefix are
//     resolved, and a path whose canonical form is outside every root is
//     refused (file.outside-roots) — a symlink out of the project, a
//     ../ walk, an absolute path elsewhere.
//   - The gate judges the call with the canonical path, so a link cannot
//     hide its target from the write rules of the gate's file analyzers
//     (protected files, git hooks, shell start-up files, toolwall's own
//     files).
//   - The read sandbox ([tools.file] of the tool-executor framework): deny_read globs with
//     allow_read exceptions layered on top; empty deny_read is inactive.
//     It applies to Read and to Edit (whose success tells whether a text
//     is in the file).
//   - The operation itself goes through an os.Root at the root, so a
//     link swapped in after the check still cannot lead outside; a Read
//     is checked again against the sandbox by the real path of the file
//     it opened.
package file
