package toolwall

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
)

// table returns the fields of each row of a tab-separated data file.
func table(t *testing.T, name string) [][]string {
	t.Helper()
	var out [][]string
	for _, r := range rows.Read(t, name, 0) {
		out = append(out, r.Fields)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBands(t *testing.T) {
	for _, r := range table(t, "testdata/bands.tsv") {
		th := Thresholds{Warn: num(t, r[1]), Block: num(t, r[2])}
		b := th.Band(num(t, r[0]))
		if b.String() != r[3] || b.Action().String() != r[4] {
			t.Errorf("score %s under %v: band %v action %v, want %s %s", r[0], th, b, b.Action(), r[3], r[4])
		}
	}
}

func TestNewThresholds(t *testing.T) {
	for _, r := range table(t, "testdata/thresholds.tsv") {
		th, notes := NewThresholds(num(t, r[0]), num(t, r[1]))
		if th.Warn != num(t, r[2]) || th.Block != num(t, r[3]) || strconv.Itoa(len(notes)) != r[4] {
			t.Errorf("NewThresholds(%s, %s) = %+v %q, want %s %s with %s notes", r[0], r[1], th, notes, r[2], r[3], r[4])
		}
	}
}

func TestActionText(t *testing.T) {
	for _, a := range []Action{Allow, Warn, Ask, Deny} {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back Action
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Errorf("%v round trip: %s → %v, %v", a, b, back, err)
		}
	}
	if a, err := ParseAction("BLOCK"); err != nil || a != Deny {
		t.Errorf("ParseAction(BLOCK) = %v, %v", a, err)
	}
	if _, err := ParseAction("maybe"); err == nil {
		t.Error("ParseAction(maybe) succeeded")
	}
	if Stricter(Ask, Warn) != Ask || Stricter(Allow, Deny) != Deny || !Ask.Stops() || Warn.Stops() {
		t.Error("ordering broken")
	}
	if _, err := Action(9).MarshalText(); err == nil {
		t.Error("invalid action marshalled")
	}
}

func TestCallFields(t *testing.T) {
	c := NewBashCall("rm -rf \"$HOME\"\n\tls")
	if got, ok := c.Command(); !ok || got != "rm -rf \"$HOME\"\n\tls" {
		t.Errorf("Command() = %q, %v", got, ok)
	}
	if c.Summary() != `rm -rf "$HOME" ls` {
		t.Errorf("Summary() = %q", c.Summary())
	}
	w := Call{Tool: ToolWrite, Input: json.RawMessage(`{"file_path":"/etc/x","content":"y"}`)}
	if _, ok := w.Command(); ok {
		t.Error("Write call has a command")
	}
	if w.Summary() != "Write /etc/x" {
		t.Errorf("Summary() = %q", w.Summary())
	}
	bad := Call{Tool: ToolBash, Input: json.RawMessage(`{"command": 7}`)}
	if _, ok := bad.Command(); ok {
		t.Error("non-string command accepted")
	}
	long := NewBashCall(strings.Repeat("x", 300))
	if len(long.Summary()) != 200 {
		t.Errorf("summary length %d", len(long.Summary()))
	}
}
