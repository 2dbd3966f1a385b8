package claudecode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosttest"
	"github.com/toolwall/toolwall/host/view"
	"github.com/toolwall/toolwall/internal/rows"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, view.For("claude-code")) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, view.For("claude-code")) }

// TestEvents reads testdata/events.tsv: a misspelled PreToolUse is
// refused rather than ignored (an ignored event is an allow).
func TestEvents(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/events.tsv", 0) {
		name, want := r.Fields[0], strings.Join(r.Fields[1:], "\t")
		p, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": name, "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
		req, err := Adapter{}.Decode(p)
		got := req.Event.String()
		switch {
		case err != nil:
			got = "malformed"
		case req.Event == host.Ignored:
			got = "ignored"
		}
		if got != want {
			t.Errorf("%s: %q: %s, want %s", r.Pos(), name, got, want)
		}
	}
}

// TestCaller reads testdata/callers.tsv: a sub-agent's call carries its
// agent_type, else its agent_id, as the call's Caller.
func TestCaller(t *testing.T) {
	dash := func(s string) string {
		if s == "-" {
			return ""
		}
		return strings.ReplaceAll(s, `\n`, "\n")
	}
	for _, r := range rows.Read(t, "testdata/callers.tsv", 3) {
		f := r.Fields
		p := map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
		if v := dash(f[0]); v != "" {
			p["agent_type"] = v
		}
		if v := dash(f[1]); v != "" {
			p["agent_id"] = v
		}
		raw, _ := json.Marshal(p)
		req, err := Adapter{}.Decode(raw)
		if err != nil || len(req.Calls) != 1 {
			t.Fatalf("%s: %v", r.Pos(), err)
		}
		if got := req.Calls[0].Caller; got != dash(f[2]) {
			t.Errorf("%s: Caller %q, want %q", r.Pos(), got, dash(f[2]))
		}
	}
}
