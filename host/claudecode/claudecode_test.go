package claudecode

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosttest"
	"github.com/toolwall/toolwall/host/view"
)

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, view.For("claude-code")) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, view.For("claude-code")) }

// TestEvents reads testdata/events.tsv: a misspelled PreToolUse is
// refused rather than ignored (an ignored event is an allow).
func TestEvents(t *testing.T) {
	b, err := os.ReadFile("testdata/events.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, want, _ := strings.Cut(line, "\t")
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
			t.Errorf("events.tsv:%d: %q: %s, want %s", n+1, name, got, want)
		}
	}
}
