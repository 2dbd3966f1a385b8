//go:build unix

package approval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// lockWait bounds the pause between two tries at a held lock.
const lockWait = 20 * time.Millisecond

// lock takes the exclusive flock(2) on the store's lock file (the store's
// path with ".lock" added, created with mode 0600 when missing, in a
// directory made with mode 0700 when missing) and returns the function
// that releases it. The lock belongs to the open file, so it also keeps
// apart goroutines of one process, and the kernel drops it when its
// process dies. While another holder has it, lock tries again after 1 ms,
// doubling up to lockWait, until ctx is done (flock itself cannot be
// given a deadline).
func (s *Store) lock(ctx context.Context) (func(), error) {
	name := s.file.Path + ".lock"
	fd, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		// No store yet: its directory is made as the store's first
		// append would (mode 0700).
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			return nil, fmt.Errorf("approval: %w", err)
		}
		fd, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("approval: %w", err)
	}
	for wait := time.Millisecond; ; wait = min(2*wait, lockWait) {
		err := unix.Flock(int(fd.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { fd.Close() }, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			fd.Close()
			return nil, fmt.Errorf("approval: locking %s: %w", fd.Name(), err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			fd.Close()
			return nil, fmt.Errorf("approval: waiting for %s: %w", fd.Name(), ctx.Err())
		case <-t.C:
		}
	}
}
