//go:build unix

package jsonl

import (
	"os"
	"syscall"
)

// lock takes a flock on fd, shared or exclusive; closing fd releases it.
func lock(fd *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(fd.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
