package shell_test

import (
	"context"
	"fmt"
	"os"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/shell"
)

// ExampleExecutor_Run runs one allowed command and one the gate refuses
// at the execution boundary: exit status 126, and the shell never starts.
func ExampleExecutor_Run() {
	project, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(project)
	e := shell.New(shell.Options{
		Gate:    engine.New(engine.Options{}),
		Project: project,
		// A scratch HOME: the refused command below names ~.
		Environments: executor.Environments{Cwd: project, Inherit: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + project}},
		Transaction:  &shell.Transaction{}, // undo the file changes of a failing command
	})
	ctx := context.Background()
	out, _ := e.Run(ctx, "echo built > out.txt && cat out.txt", toolwall.Call{})
	fmt.Printf("exit %d: %s", out.Process.ExitCode, out.Process.Stdout)
	out, _ = e.Run(ctx, "echo half > out.txt; exit 3", toolwall.Call{})
	b, _ := os.ReadFile(project + "/out.txt")
	fmt.Printf("exit %d, rolled back %v: out.txt still holds %s", out.Process.ExitCode, out.Process.RolledBack, b)
	out, _ = e.Run(ctx, "rm -rf ~", toolwall.Call{})
	fmt.Println("exit", out.Process.ExitCode, "rules", out.Verdict.Rules()[0])
	// Output:
	// exit 0: built
	// exit 3, rolled back true: out.txt still holds built
	// exit 126 rules rm.dangerous-target
}
