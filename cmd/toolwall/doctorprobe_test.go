package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/audit"
)

// TestDoctorProbesStayOut: doctor's canaries are recorded as probes
// (driver doctor:HOST), which toolwall audit lists only with --probes, and
// each run probes in a session of its own, so that a run never finds the
// refusals of the runs before it (chain.repeated-refusal).
func TestDoctorProbesStayOut(t *testing.T) {
	home := t.TempDir()
	if out, code := toolwallIn(t, home, home, "install", "claude-code"); code != 0 {
		t.Fatal(out)
	}
	for range 3 {
		if out, _ := toolwallIn(t, home, home, "doctor"); !strings.Contains(out, "denied") {
			t.Fatalf("doctor did not probe:\n%s", out)
		}
	}
	// An agent's call through the same hook stays an agent's record.
	toolwallIn(t, home, home, "check", "--", "git status")
	if out, code := toolwallIn(t, home, home, "audit", "--json"); code != 0 || strings.Contains(out, audit.ProbeDriver) {
		t.Errorf("toolwall audit lists probes (exit %d):\n%s", code, out)
	}
	out, code := toolwallIn(t, home, home, "audit", "--json", "--probes")
	if code != 0 {
		t.Fatalf("audit --probes: exit %d\n%s", code, out)
	}
	var sessions []string
	denied := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r audit.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if !audit.IsProbe(r.Driver) {
			continue
		}
		if r.Driver != "doctor:claude-code" {
			t.Errorf("probe driver %q, want doctor:claude-code", r.Driver)
		}
		if r.Verdict.Action.String() == "deny" {
			denied++
		}
		if slices.Contains(r.Verdict.Rules(), "chain.repeated-refusal") {
			t.Errorf("a probe counted the probes before it: %s", line)
		}
		if !slices.Contains(sessions, r.Session) {
			sessions = append(sessions, r.Session)
		}
	}
	if denied != 3 || len(sessions) != 3 {
		t.Errorf("%d canaries denied in sessions %v, want 3 in 3 sessions:\n%s", denied, sessions, out)
	}
}

// TestDoctorBrokenConfigOnce: with a mistyped configuration key, doctor
// names the error once (with the key it probably meant), not once per
// host, and exits 1.
func TestDoctorBrokenConfigOnce(t *testing.T) {
	home := t.TempDir()
	if out, code := toolwallIn(t, home, home, "install", "claude-code", "gemini"); code != 0 {
		t.Fatal(out)
	}
	conf := filepath.Join(home, ".config", "toolwall", "config.toml")
	os.MkdirAll(filepath.Dir(conf), 0o755)
	if err := os.WriteFile(conf, []byte("[memory]\nretension = \"24h\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := toolwallIn(t, home, home, "doctor")
	if code != 1 || strings.Count(out, "retension") != 1 || !strings.Contains(out, "did you mean memory.retention?") || strings.Count(out, "NOT ALLOWED") != 2 {
		t.Errorf("doctor with a broken configuration: exit %d\n%s", code, out)
	}
}
