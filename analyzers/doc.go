// Package analyzers is the registry of toolwall's built-in analyzers; each
// lives in a package of its own below this one:
//
//   - destroy: recursive deletes, the project folder, find -delete,
//     recursive chmod/chown, fork bombs, mv to /dev/null, disk overwrite
//     (the shell guardrail and beyond)
//   - remote: network content into an interpreter, decoded payloads,
//     interpreter one-liners; download / exec / egress tags
//   - secrets: private keys, credentials, auth files: read, sent, deleted
//   - ops: git work, databases, infrastructure, system control, sudo
//   - files: the Write, Edit, MultiEdit, NotebookEdit and Read tools
//   - ssrf: URLs of fetch tools, before DNS
//   - unresolved: commands whose program cannot be known before they run
//   - self (built by the driver with its paths): toolwall's own files
package analyzers
