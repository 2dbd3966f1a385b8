package destroy

import (
	"context"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// BenchmarkAnalyze measures the analyzer alone on a script already read
// (the shell reader's cost is the shell package's benchmark).
func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"benign", "go test ./... && git status --short | head -20 > /tmp/out.txt"},
		{"cleanup", "rm -rf node_modules dist && find . -name '*.pyc' -delete"},
		{"dangerous", "cd /tmp && sudo rm -rf --no-preserve-root ~/* / && dd if=/dev/zero of=/dev/sda"},
	} {
		s, err := shell.Read(bc.cmd, shell.Options{Cwd: testProject, Home: testHome})
		if err != nil {
			b.Fatal(err)
		}
		call := toolwall.NewBashCall(bc.cmd)
		call.Cwd, call.Project, call.Home = testProject, testProject, testHome
		in := &analysis.Input{Call: call, Script: s}
		an := New(Options{SkipGit: true})
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				an.Run(context.Background(), in, &analysis.Report{})
			}
		})
	}
}
