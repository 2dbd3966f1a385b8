//go:build !unix

package policy

import (
	"errors"
	"os"
)

// errLink never matches: systems without O_NOFOLLOW follow links (the
// file must still be a regular one, of at most MaxFile bytes).
var errLink = errors.New("policy: no O_NOFOLLOW here")

// openFlags opens for reading.
func openFlags(bool) int { return os.O_RDONLY }
