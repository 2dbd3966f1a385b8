//go:build unix

package main

import (
	"os"
	"syscall"
)

// execNet replaces this process with toolwall-net: the MCP client's
// stdio, the service manager's signals and the exit status all reach it
// directly.
func execNet(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
