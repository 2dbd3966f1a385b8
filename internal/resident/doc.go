// Package resident lets a hook process hand its tool call to a resident
// toolwall process of the same user, so that a hook costs about what an
// empty Go program costs to start (issues 7, 9 and 10 ask for 1.5 × of
// it) instead of the runtime, package and catalog initialisation of the
// whole toolwall binary on every call.
//
// The client (cmd/toolwall-hook, a binary that links little beyond this
// package) reads the resident's pid from [PidFile], checks that process
// (this user; its executable is the toolwall binary beside the client,
// not a replaced file; no LD_* variables), connects to [Socket], checks
// that the socket's peer is that process, and sends a [Request] — the
// hook's arguments, working directory, environment and resource limits —
// with its standard input and two pipes for the hook's output and error
// attached (SCM_RIGHTS). The resident (`toolwall resident`,
// cmd/toolwall) serves only toolwall-hook, and only a client whose
// limits, namespaces and runtime settings are its own; it runs the same
// hook command the toolwall binary would run, with that environment,
// directory and those streams, closes the pipes and replies with the exit
// status ([Reply]). The client writes what came through the pipes once
// the reply is in, and nothing when none comes within [ReplyTimeout].
// The verdict is the one the binary itself would give: the same code on
// the same input; the resident keeps only what toolwall caches in a
// process anyway (the program catalog, the analyzers' tables) and the
// state database open, and reads the configuration per call.
//
// When nothing trustworthy answers, the client runs the toolwall binary
// itself (and starts a resident for the next call with [Start]); so an
// agent that kills the resident, or puts its own listener on the socket,
// only makes hooks slower, never weaker.
//
// The protocol: a request is "TWR1", a 4-byte big-endian length and a
// body of length-prefixed strings and numbers (see [Request.Marshal]); a
// reply is "TWR1" and a 4-byte status. Linux only; elsewhere [Call] reports
// [Absent] and the client always runs the binary.
package resident
