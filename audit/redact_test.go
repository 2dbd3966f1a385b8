package audit

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

type redactCase struct{ in, want, kinds string }

func redactCases(t testing.TB) []redactCase {
	var out []redactCase
	for _, r := range rows.Read(t, "testdata/redact.tsv", 3) {
		p := r.Fields
		unesc := strings.NewReplacer(`\n`, "\n")
		out = append(out, redactCase{unesc.Replace(p[0]), unesc.Replace(p[1]), p[2]})
	}
	return out
}

func TestRedactString(t *testing.T) {
	for _, c := range redactCases(t) {
		got, kinds := RedactString(c.in)
		k := strings.Join(kinds, ",")
		if k == "" {
			k = "-"
		}
		if got != c.want || k != c.kinds {
			t.Errorf("%q:\n got %q (%s)\nwant %q (%s)", c.in, got, k, c.want, c.kinds)
		}
	}
}

// TestNewRedacts: the record of a call carrying a secret hides it in the
// input and in every verdict text that quotes the command, notes what was
// hidden, and cuts long strings.
func TestNewRedacts(t *testing.T) {
	const key = "AKIAIOSFODNN7EXAMPLE"
	call := toolwall.NewBashCall("aws s3 ls --profile x # " + key)
	call.Session, call.ID, call.Caller = "s", "toolu_1", "reviewer"
	v := toolwall.Verdict{Action: toolwall.Ask, Reason: "`aws ... " + key + "` asks",
		Findings: []toolwall.Finding{{Rule: "x.y", Reason: "names " + key}},
		Commands: []string{"aws s3 ls " + key}, Notes: []string{key}}
	r := New("id1", "test", call, v, time.Unix(5, 0), time.Millisecond)
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), key) {
		t.Fatalf("record keeps the key: %s", b)
	}
	want := []string{"AWS access key id in input.command", "AWS access key id in reason", "AWS access key id in commands", "AWS access key id in notes"}
	if strings.Join(r.Redacted, "|") != strings.Join(want, "|") {
		t.Errorf("notes %q, want %q", r.Redacted, want)
	}
	if v.Commands[0] != "aws s3 ls "+key {
		t.Error("New changed the caller's verdict")
	}
	if r.Caller != "reviewer" || r.CallID != "toolu_1" || r.At.Location() != time.UTC {
		t.Errorf("record %+v", r)
	}
	big := toolwall.Call{Tool: "Write", Input: json.RawMessage(`{"file_path":"/x","content":"` + strings.Repeat("a", 10000) + `"}`)}
	r = New("id2", "test", big, toolwall.Verdict{}, time.Now(), 0)
	if len(r.Input) > MaxField+100 || len(r.Redacted) != 1 || !strings.Contains(r.Redacted[0], "input.content cut to 4096 of 10000 bytes") {
		t.Errorf("long content: %d bytes, notes %q", len(r.Input), r.Redacted)
	}
	r = New("id3", "test", toolwall.Call{Tool: "X", Input: json.RawMessage(`not json`)}, toolwall.Verdict{}, time.Now(), 0)
	if string(r.Input) != `"not json"` {
		t.Errorf("non-JSON input kept as %s", r.Input)
	}
}

func FuzzRedact(f *testing.F) {
	for _, c := range redactCases(f) {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := RedactString(s)
		twice, kinds := RedactString(once)
		if twice != once {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", s, once, twice, kinds)
		}
		in, _ := json.Marshal(map[string]string{"command": s})
		r := New("id", "fuzz", toolwall.Call{Tool: "Bash", Input: in}, toolwall.Verdict{}, time.Now(), 0)
		if !json.Valid(r.Input) {
			t.Fatalf("input not JSON: %q", r.Input)
		}
	})
}

func BenchmarkNewHarmless(b *testing.B) {
	call := toolwall.NewBashCall("go test ./... 2>&1 | tail -20")
	for b.Loop() {
		New("id", "bench", call, toolwall.Verdict{}, time.Now(), 0)
	}
}
