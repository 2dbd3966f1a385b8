package analysistest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/shell"
)

// Places are where a test call runs: working directory (also the
// project) and home.
type Places struct {
	Cwd, Home string
}

// Bash reads command with the shell reader as the gate would, in places
// p and privilege ctx, runs a on it and returns its report. A command that
// does not parse fails the test.
func Bash(t testing.TB, a *analysis.Analyzer, command string, p Places, ctx toolwall.ExecContext) *analysis.Report {
	t.Helper()
	call := toolwall.NewBashCall(command)
	call.Cwd, call.Project, call.Home, call.Context = p.Cwd, p.Cwd, p.Home, ctx
	script, err := shell.Read(command, shell.Options{Cwd: p.Cwd, Home: p.Home})
	if err != nil {
		t.Fatalf("shell.Read(%q): %v", command, err)
	}
	r := (&analysis.Report{}).For(a.Name)
	a.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
	return r
}

// Strongest returns the most severe action among r's findings (Allow for
// none).
func Strongest(r *analysis.Report) toolwall.Action {
	act := toolwall.Allow
	for _, f := range r.Findings {
		act = toolwall.Stricter(act, f.Action)
	}
	return act
}

// Row is one line of a case table: its line number and fields.
type Row = rows.Row

// ReadTSV reads testdata/name: blank lines and "#" comments are skipped,
// each other line must split into cols tab-separated fields (the last one
// takes the rest of the line), and a literal `\n` in the last field
// stands for a newline. A malformed line fails the test.
func ReadTSV(t testing.TB, name string, cols int) []Row {
	t.Helper()
	rs := rows.ReadRest(t, filepath.Join("testdata", name), cols)
	for _, r := range rs {
		r.Fields[cols-1] = strings.ReplaceAll(r.Fields[cols-1], `\n`, "\n")
	}
	return rs
}
