//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// execNet runs toolwall-net as a child with this process's stdio and
// returns its exit status.
func execNet(path string, args []string) error {
	c := exec.Command(path, args...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	return exitOf(c.Run())
}

// exitOf turns a child's exit status into this process's.
func exitOf(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitError{ee.ExitCode()}
	}
	return err
}
