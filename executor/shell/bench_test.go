package shell_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/shell"
)

// BenchmarkRun is one allowed command through the executor (gate, audit
// off, process group, envelope); BenchmarkBareBash is the same command
// started with os/exec, for the executor's overhead.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	e := shell.New(shell.Options{Gate: engine.New(engine.Options{}), Project: dir, Environments: executor.Environments{Cwd: dir}})
	req := &executor.Request{Call: toolwall.NewBashCall("true")}
	for b.Loop() {
		if out, err := e.Execute(context.Background(), req); err != nil || out.Process.ExitCode != 0 {
			b.Fatal(out, err)
		}
	}
}

func BenchmarkBareBash(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransactionPlan is the shell reader's write-target plan.
func BenchmarkTransactionPlan(b *testing.B) {
	for b.Loop() {
		shell.Plan("rm -f a.txt && echo x > b.txt && sed -i s/a/b/ c.txt", "/work/p", os.Getenv("HOME"))
	}
}
