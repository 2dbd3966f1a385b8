package destroy

import (
	"context"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// BenchmarkAnalyze measures the analyzer alone on a script already read
// (the shell reader's cost is the shell package's benchmark): ordinary
// one-liners, and the worst inputs it bounds (a 16,000-deep path, 12,000
// delete operands, a find of 5,000 tests, 2,000 find -exec tails, 4,000
// renames and links, 4,000 versioned package runs), with an existence
// oracle that says nothing exists. Target: one-liners in a few µs, no
// input over 50 ms.
func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"benign", "go test ./... && git status --short | head -20 > /tmp/out.txt"},
		{"cleanup", "rm -rf node_modules dist && find . -name '*.pyc' -delete"},
		{"dangerous", "cd /tmp && sudo rm -rf --no-preserve-root ~/* / && dd if=/dev/zero of=/dev/sda"},
		{"container", "docker run --rm -v $HOME:/h alpine sh -c 'rm -rf /h/*'"},
		{"deep-path", "rm -rf " + strings.Repeat("a/", 16000) + "x"},
		{"many-operands", "rm -rf" + strings.Repeat(" missing/x", 12000)},
		{"long-find", "find . " + strings.Repeat("-name a -o ", 5000) + "-delete"},
		{"find-execs", "find . " + strings.Repeat("-exec rm {} + ", 2000)},
		{"links", strings.Repeat("mv a b; ln -s c d; ", 2000) + "rm -rf d"},
		{"versioned", strings.Repeat("npx rimraf@5 x; ", 4000)},
	} {
		s, err := shell.Read(bc.cmd, shell.Options{Cwd: testProject, Home: testHome, MaxCommands: 10000})
		if err != nil {
			b.Fatalf("%s: %v", bc.name, err)
		}
		call := toolwall.NewBashCall(bc.cmd)
		call.Cwd, call.Project, call.Home = testProject, testProject, testHome
		in := &analysis.Input{Call: call, Script: s, Exists: func(string) (bool, bool) { return false, true }}
		an := New(Options{SkipGit: true})
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				an.Run(context.Background(), in, &analysis.Report{})
			}
		})
	}
}
