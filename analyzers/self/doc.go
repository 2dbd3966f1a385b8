// Package self keeps an agent from switching toolwall off: it denies any
// tool call that would write, move, delete or change the permissions of
// toolwall's own files — its configuration, its session state database,
// its binaries wherever they are installed, the resident's socket and
// pid file — or of a directory that holds them, refuses stopping
// toolwall's processes (SIGSTOP: a frozen resident leaves every hook call
// to time out) and asks before killing them, asks before any change to
// the project's own policy file (.toolwall.toml), and asks before any
// write to an agent host's settings files, where the hook itself is
// wired.
//
// Reading these files is fine. Which files are toolwall's own is known
// only at run time (flags, environment), so the analyzer is built with
// [New] by the driver rather than listed in analyzers.All.
//
// The rule is coarse on purpose: a Bash command that names a protected
// path as an operand or a write redirect is judged by its command name; a
// short list of read-only commands passes, everything else is refused.
// Legitimate work seldom names these files, and a refusal tells the model
// to ask the user.
package self
