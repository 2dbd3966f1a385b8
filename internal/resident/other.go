//go:build !linux

package resident

// Call reports Absent: a resident is used on Linux only, where a client
// can tell its peer's user and executable (SO_PEERCRED, /proc).
func Call(full, socket string, args []string) (int, Outcome) { return 0, Absent }

// Start does nothing: see [Call].
func Start(full string) error { return nil }
