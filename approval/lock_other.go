//go:build !unix

package approval

import (
	"context"
	"sync"
)

// granting keeps apart the grants of this process's goroutines.
var granting sync.Mutex

// lock stands in for the flock of unix systems, which other systems do
// not have: it keeps apart the grants of one process only. Two processes
// granting the same ask at the same moment (two `toolwall approve` at
// once, two servers on one file) can both record a grant there; use the
// PostgreSQL store (approval/postgres) where that matters.
func (s *Store) lock(context.Context) (func(), error) {
	granting.Lock()
	return granting.Unlock, nil
}
