//go:build !linux

package resident

import "errors"

// Call reports Absent: a resident is used on Linux only, where a client
// can tell its peer's user and executable (SO_PEERCRED, /proc).
func Call(full, socket string, args []string, input int) (int, Outcome) { return 0, Absent }

// KeepInput reports an error: see [Call].
func KeepInput() (int, bool, error) { return -1, false, errNoResident }

// Reopen reports an error: see [Call].
func Reopen(int) (int, error) { return -1, errNoResident }

// AsStdin reports an error: see [Call].
func AsStdin(int) error { return errNoResident }

var errNoResident = errors.New("resident: not on this system")

// Start does nothing: see [Call].
func Start(full string) error { return nil }
