package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// memoryLimit is the soft memory limit of a toolwall process (issue 8):
// past it the garbage collector works harder instead of the heap growing
// until the kernel or an address-space limit kills the process, which a
// host would read as "allow". Analysis itself is bounded far below it
// (see README, Bounds). $GOMEMLIMIT, when set, wins.
const memoryLimit = 256 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the exit status: a command's
// own status, 1 for usage and internal errors. A hook call (args start
// with "hook", as every host's hook command does) builds only the hook
// command.
func run(args []string) int {
	root := newRoot
	if len(args) > 0 && args[0] == "hook" {
		root = newHookRoot
	}
	return execute(root(), args)
}

// execute runs root with args and returns the exit status.
func execute(root *cobra.Command, args []string) int {
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
