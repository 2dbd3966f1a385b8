// Package secrets finds shell commands that touch secrets: reading a
// private key, a cloud or cluster credential, a system password file or a
// project .env (rule secrets.read, ask); sending one, a tree holding them
// or the environment to the network (secrets.exfil, deny); and deleting,
// truncating, overwriting or appending to the files that control logins
// (secrets.delete-auth and secrets.modify-auth, deny; loosening their
// permissions is modify-auth too); staging a secret into git
// (secrets.commit, ask); and serving a tree that holds secrets over HTTP
// (secrets.serve, ask).
//
// [Classify] names the kind of a path and is shared with the file-tool
// analyzer (analyzers/files), so a Bash `cat ~/.ssh/id_rsa` and a Read of
// the same file are judged alike. [Protected] says which paths may not be
// destroyed, [Holds] which directory trees contain secrets.
//
// The analyzer works on the shell reader's [shell.Script]: every command
// that would run, after wrappers (sudo, env, …) are unwrapped, with
// resolved words, redirects and pipe upstreams. It follows data through a
// pipe (tar … ~/.ssh | nc), an xargs or find -exec tail, a $(…)
// substitution into a network command's arguments, and files this same
// script copied a secret to (cp key /tmp/k && curl -T /tmp/k …). It never
// touches the file system: paths are judged by name, so a symlink to a key
// is not seen.
//
// Sources: DESIGN.md ("read the shell as the shell does", "what cannot be
// resolved is not safe", "block the irreversible"), seed 003 (read
// sandbox deny_read of **/*.env and secrets), seed 004 (root context gets
// only the catastrophic set, so this analyzer is silent there), and the
// acceptance cases c190–c205, c296–c297, c315–c316, c409.
package secrets
