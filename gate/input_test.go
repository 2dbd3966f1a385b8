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

// TestInput runs testdata/input.txt: commands judged for how they are
// written (NUL bytes).
func TestInput(t *testing.T) {
	f, err := os.Open("testdata/input.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := fullGate(nil)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("input.txt:%d: want 3 columns", n)
		}
		cmd, err := strconv.Unquote(cols[0])
		if err != nil {
			t.Fatalf("input.txt:%d: %v", n, err)
		}
		v := g.Evaluate(context.Background(), bashCall(cmd))
		if v.Action.String() != cols[1] || strings.Join(v.Rules(), " ") != cols[2] {
			t.Errorf("input.txt:%d: %q: %v %v, want %s %s", n, cmd, v.Action, v.Rules(), cols[1], cols[2])
		}
	}
}

// TestToolInputs runs testdata/tool-inputs.txt: tool inputs judged for
// how they are written (a name given twice).
func TestToolInputs(t *testing.T) {
	f, err := os.Open("testdata/tool-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := fullGate(nil)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 || !json.Valid([]byte(cols[1])) {
			t.Fatalf("tool-inputs.txt:%d: want 4 columns, the second JSON", n)
		}
		call := toolwall.Call{Tool: cols[0], Input: json.RawMessage(cols[1]), Cwd: "/w", Home: "/home/u"}
		v := g.Evaluate(context.Background(), call)
		if v.Action.String() != cols[2] || strings.Join(v.Rules(), " ") != cols[3] {
			t.Errorf("tool-inputs.txt:%d: %s %s: %v %v, want %s %s", n, cols[0], cols[1], v.Action, v.Rules(), cols[2], cols[3])
		}
	}
}
