package policy

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/advisors/adversarial"
)

// body returns the file of the case named name in configs.txt.
func body(t *testing.T, name string) string {
	for _, c := range configCases(t) {
		if c.name == name {
			return c.body
		}
	}
	t.Fatalf("no case %q", name)
	return ""
}

// TestToolTables: [trajectory], [search] and [adversarial] give the
// options their packages take, defaults filled where the table is silent.
func TestToolTables(t *testing.T) {
	cfg, err := Parse("x", []byte(body(t, "adversarial, full")))
	if err != nil {
		t.Fatal(err)
	}
	o, m := cfg.AdversarialOptions(), cfg.AdversarialClient()
	if o.OnError != adversarial.FallbackAsk || o.Window != 20 || !slices.Equal(o.Tools, []string{"Bash", "web_search"}) || o.Timeout != 5*time.Second {
		t.Errorf("adversarial options %+v", o)
	}
	if m.Model != "llama3.1:8b" || m.BaseURL != "http://127.0.0.1:11434/v1" || m.Timeout != 5*time.Second {
		t.Errorf("adversarial model %+v", m)
	}
	if d := (&Config{}).AdversarialOptions(); d.OnError != adversarial.FallbackDeny || d.Window != 0 {
		t.Errorf("adversarial defaults %+v: on_error must default to deny", d)
	}
	cfg, err = Parse("x", []byte(body(t, "search, full")))
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Search; s.MaxResults != 20 || s.Timeout.Duration != 10*time.Second || s.APIKeyEnv != "BRAVE_API_KEY" || !s.Enabled {
		t.Errorf("search options %+v", s)
	}
	cfg, err = Parse("x", []byte(body(t, "trajectory, full")))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TrajectoryDecay() != 2 || !cfg.Trajectory.Enabled || len(cfg.Trajectory.ReadOnly) != 2 {
		t.Errorf("trajectory %+v", cfg.Trajectory)
	}
	var b strings.Builder
	if err := cfg.Describe(&b); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{"trajectory: on, decay 2 per turn, read-only tools Read, Grep, Glob, LS, mcp__docs__search, TodoWrite", "search: off", "adversarial: off"} {
		if !strings.Contains(text, want) {
			t.Errorf("Describe lacks %q:\n%s", want, b.String())
		}
	}
}
