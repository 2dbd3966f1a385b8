//go:build unix

package policy

import (
	"os"
	"syscall"
)

// errLink is the error of opening a symbolic link with O_NOFOLLOW.
var errLink error = syscall.ELOOP

// openFlags opens for reading without blocking on a FIFO, and without
// following a final symbolic link when noFollow is set.
func openFlags(noFollow bool) int {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	return flags
}
