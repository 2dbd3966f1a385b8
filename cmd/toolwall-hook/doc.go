// Command toolwall-hook is the hook command toolwall installs into agent
// hosts: `toolwall-hook hook HOST [flags]` answers exactly as `toolwall
// hook HOST [flags]` does, at about the cost of starting an empty Go
// program.
//
// It hands the call to a resident toolwall process of the same user
// (package internal/resident: a Unix socket, the peer checked to be this
// user's toolwall binary beside this one), and when none answers it runs
// the toolwall binary itself and starts a resident for the next call. A
// resident exits after 30 minutes without a call, or when its binary is
// replaced. TOOLWALL_RESIDENT=off in the hook's environment makes every
// call run the toolwall binary; TOOLWALL_RESIDENT=only (for tests and
// diagnosis) refuses a call no resident served, with exit status 2 and
// the reason (absent, untrusted, refused, broken) on stderr. Anything but a hook command is passed to
// the toolwall binary unchanged. If that binary cannot be run, the call
// is refused (exit status 2, the reason on stderr).
package main
