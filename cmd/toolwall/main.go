package main

import (
	"errors"
	"fmt"
	"os"
)

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the exit status: a command's
// own status, 1 for usage and internal errors.
func run(args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "toolwall:", err)
	return 1
}
