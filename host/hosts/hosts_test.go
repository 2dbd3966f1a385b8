package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestDetect: every golden payload of every adapter is told apart as its
// own host's, from its shape alone.
func TestDetect(t *testing.T) {
	for _, a := range All() {
		dir := a.Name()
		switch dir {
		case "claude-code":
			dir = "claudecode"
		}
		b, err := os.ReadFile(filepath.Join("..", dir, "testdata", "golden.json"))
		if err != nil {
			t.Fatal(err)
		}
		var gs []struct {
			Name  string          `json:"name"`
			Stdin json.RawMessage `json:"stdin"`
			Raw   string          `json:"raw"`
		}
		if err := json.Unmarshal(b, &gs); err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			p := []byte(g.Raw)
			if g.Raw == "" {
				p = g.Stdin
			}
			if got := Detect(p, nil); got.Name() != a.Name() {
				t.Errorf("%s/%s: detected as %s", a.Name(), g.Name, got.Name())
			}
		}
	}
}

func TestLookup(t *testing.T) {
	for in, want := range map[string]string{"claude": "claude-code", "Claude-Code": "claude-code", "droid": "factory", "gemini-cli": "gemini", "kiro": "kiro", "amp": "amp"} {
		if a, ok := Lookup(in); !ok || a.Name() != want {
			t.Errorf("Lookup(%q) = %v, %v", in, a, ok)
		}
	}
	if _, ok := Lookup("claude_code"); ok {
		t.Error("claude_code found")
	}
	if len(Names()) != 12 {
		t.Errorf("%d hosts", len(Names()))
	}
}

// TestProbe: every host has a probe payload, detected as its own.
func TestProbe(t *testing.T) {
	for _, n := range Names() {
		p := Probe(n, "ls", "/w")
		if p == nil {
			t.Errorf("%s: no probe", n)
			continue
		}
		if got := Detect(p, nil).Name(); got != n {
			t.Errorf("%s probe detected as %s", n, got)
		}
	}
}
