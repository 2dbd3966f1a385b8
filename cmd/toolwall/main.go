package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/host/hosts"
)

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// memoryLimit is the soft memory limit of a toolwall process:
// past it the garbage collector works harder instead of the heap growing
// until the kernel or an address-space limit kills the process, which a
// host would read as "allow". Analysis itself is bounded far below it
// (see docs/design.md, "Bounds"). $GOMEMLIMIT, when set, wins.
const memoryLimit = 256 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(run(os.Args[1:]))
}

// run executes the CLI with args and returns the exit status: a command's
// own status, 1 for usage and internal errors. The hook command every
// host's settings hold (`hook HOST`, no flags) runs without building the
// command tree: a hook call pays for each step (about 50 µs here). Any
// other hook call (flags, an unknown host) builds only the hook command.
func run(args []string) int {
	if len(args) == 2 && args[0] == "hook" {
		if a, ok := hosts.Lookup(args[1]); ok {
			configPath = "" // no --config: the default place
			return status(answerHook(context.Background(), a, "", false))
		}
	}
	root := newRoot
	if len(args) > 0 && args[0] == "hook" {
		root = newHookRoot
	}
	return execute(root(), args)
}

// execute runs root with args and returns the exit status.
func execute(root *cobra.Command, args []string) int {
	root.SetArgs(args)
	return status(root.Execute())
}

// status is the exit status for a command's error: 0 for nil, an
// exitError's code, else 1 with the error on stderr.
func status(err error) int {
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
