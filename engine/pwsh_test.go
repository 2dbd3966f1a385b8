package engine

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis/analysistest"
)

// TestPowerShell: PowerShell calls judged by the engine that ships, read
// by the PowerShell reader into the commands the analyzers judge
// (testdata/powershell.tsv), including the routes an agent would take
// around a rule.
func TestPowerShell(t *testing.T) {
	e := New(Options{})
	for _, row := range analysistest.ReadTSV(t, "powershell.tsv", 3) {
		want, rule, command := row.Fields[0], row.Fields[1], row.Fields[2]
		in, _ := json.Marshal(map[string]string{"command": command})
		v := e.Evaluate(context.Background(), toolwall.Call{Tool: toolwall.ToolPowerShell, Input: in,
			Cwd: "/Users/me/proj", Project: "/Users/me/proj", Home: "/Users/me"})
		if v.Action.String() != want || rule != "-" && !slices.Contains(v.Rules(), rule) {
			t.Errorf("line %d: %s\n  got %v %v: %s", row.Line, command, v.Action, v.Rules(), v.Reason)
		}
	}
}

// TestWindowsNamesInBash: names that are other programs on a POSIX system
// (format, net, sc, reg, cipher) are Windows's in a Bash call only when
// written with .exe (testdata/windows-bash.tsv).
func TestWindowsNamesInBash(t *testing.T) {
	e := New(Options{})
	for _, row := range analysistest.ReadTSV(t, "windows-bash.tsv", 3) {
		want, rule, command := row.Fields[0], row.Fields[1], row.Fields[2]
		c := toolwall.NewBashCall(command)
		c.Cwd, c.Project, c.Home = "/workspace/app", "/workspace/app", "/home/user"
		v := e.Evaluate(context.Background(), c)
		if v.Action.String() != want || rule != "-" && !slices.Contains(v.Rules(), rule) {
			t.Errorf("line %d: %s\n  got %v %v: %s", row.Line, command, v.Action, v.Rules(), v.Reason)
		}
	}
}
