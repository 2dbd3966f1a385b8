//go:build !unix

package jsonl

import "os"

// lock does nothing where flock does not exist (see the package doc).
func lock(*os.File, bool) error { return nil }
