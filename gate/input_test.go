package gate_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// eachRow calls f with the line number and columns of each row of
// testdata file name; a row without want columns fails the test.
func eachRow(t *testing.T, name string, want int, f func(n int, cols []string)) {
	t.Helper()
	for _, r := range rows.Read(t, "testdata/"+name, want) {
		f(r.Line, r.Fields)
	}
}

// TestInput runs testdata/input.txt: commands judged for how they are
// written (NUL bytes).
func TestInput(t *testing.T) {
	g := fullGate(nil)
	eachRow(t, "input.txt", 3, func(n int, cols []string) {
		cmd, err := strconv.Unquote(cols[0])
		if err != nil {
			t.Fatalf("input.txt:%d: %v", n, err)
		}
		v := g.Evaluate(context.Background(), bashCall(cmd))
		if v.Action.String() != cols[1] || strings.Join(v.Rules(), " ") != cols[2] {
			t.Errorf("input.txt:%d: %q: %v %v, want %s %s", n, cmd, v.Action, v.Rules(), cols[1], cols[2])
		}
	})
}

// TestToolInputs runs testdata/tool-inputs.txt: tool inputs judged for
// how they are written (a name given twice, one that is not UTF-8).
func TestToolInputs(t *testing.T) {
	g := fullGate(nil)
	eachRow(t, "tool-inputs.txt", 4, func(n int, cols []string) {
		if !json.Valid([]byte(cols[1])) {
			t.Fatalf("tool-inputs.txt:%d: the input is not JSON", n)
		}
		call := toolwall.Call{Tool: cols[0], Input: json.RawMessage(cols[1]), Cwd: "/w", Home: "/home/u"}
		v := g.Evaluate(context.Background(), call)
		if v.Action.String() != cols[2] || strings.Join(v.Rules(), " ") != cols[3] {
			t.Errorf("tool-inputs.txt:%d: %s %s: %v %v, want %s %s", n, cols[0], cols[1], v.Action, v.Rules(), cols[2], cols[3])
		}
	})
}
