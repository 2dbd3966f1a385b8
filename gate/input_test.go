package gate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// rows calls f with the tab-separated columns of each line of testdata
// file name that is neither blank nor a comment; a line without want
// columns fails the test.
func rows(t *testing.T, name string, want int, f func(n int, cols []string)) {
	t.Helper()
	fh, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != want {
			t.Fatalf("%s:%d: want %d columns", name, n, want)
		}
		f(n, cols)
	}
}

// TestInput runs testdata/input.txt: commands judged for how they are
// written (NUL bytes).
func TestInput(t *testing.T) {
	g := fullGate(nil)
	rows(t, "input.txt", 3, func(n int, cols []string) {
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
	rows(t, "tool-inputs.txt", 4, func(n int, cols []string) {
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
