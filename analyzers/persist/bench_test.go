package persist_test

import (
	"context"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/shell"
)

// BenchmarkAnalyze measures the analyzer alone on a script already read
// (the reader's cost is the shell package's benchmark).
func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct{ name, cmd string }{
		{"benign", "go test ./... && git status --short | head -20 > /tmp/out.txt && echo done >> .gitignore"},
		{"writes", "cp build/app /usr/local/bin/ && sudo tee -a /etc/hosts < hosts && sed -i 's/a/b/' src/x.go"},
		{"dangerous", "echo '* * * * * root /tmp/x' > /etc/cron.d/x; useradd -o -u 0 evil; auditctl -D; python3 laZagne.py all; > /var/log/auth.log"},
		{"timer", "sudo systemd-run --on-calendar=daily /tmp/x && systemctl enable --now x"},
	} {
		s, err := shell.Read(bc.cmd, shell.Options{Cwd: testCwd, Home: testHome})
		if err != nil {
			b.Fatal(err)
		}
		call := toolwall.NewBashCall(bc.cmd)
		call.Cwd, call.Project, call.Home = testCwd, testCwd, testHome
		in := &analysis.Input{Call: call, Script: s}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				persist.Analyzer.Run(context.Background(), in, &analysis.Report{})
			}
		})
	}
}
