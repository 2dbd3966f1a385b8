package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRulesVersionAndDisable: toolwall rules lists the catalog (with a
// prefix filter), --version prints the version like version does, and a
// rules.disable id that is no rule is a configuration error naming the
// nearest real one, for check (exit 1) and for the hook (every call
// denied).
func TestRulesVersionAndDisable(t *testing.T) {
	env := hookEnv(t)
	out, err := exec.Command(bin, "rules", "rm.").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "rm.dangerous-target") || !strings.Contains(string(out), "destroy") || strings.Contains(string(out), "git.reset-hard") {
		t.Errorf("rules rm.: %v\n%s", err, out)
	}
	v1, _ := exec.Command(bin, "--version").Output()
	v2, _ := exec.Command(bin, "version").Output()
	if string(v1) != string(v2) || !strings.HasPrefix(string(v1), "toolwall ") {
		t.Errorf("--version %q, version %q", v1, v2)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(cfg, []byte("[rules]\ndisable = [\"git.reset-hrad\"]\n"), 0o644)
	cmd := exec.Command(bin, "check", "--", "ls")
	cmd.Env = append(os.Environ(), append(env, "TOOLWALL_CONFIG="+cfg)...)
	out, err = cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), `the nearest is "git.reset-hard"`) {
		t.Errorf("check with a misspelled disable: %v\n%s", err, out)
	}
	hook := runHook(t, append(env, "TOOLWALL_CONFIG="+cfg), pre("s", "ls"))
	if d := decision(t, hook); d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "git.reset-hrad") {
		t.Errorf("hook with a misspelled disable: %+v", d)
	}
}

// TestRulesMCP: `toolwall rules mcp.` lists the MCP proxy's own rule ids
// (hooks and the proxy share one catalog), in the table and as JSON, and
// the whole listing stays sorted by id with them in it.
func TestRulesMCP(t *testing.T) {
	out, err := exec.Command(bin, "rules", "mcp.").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "mcp.tool-list-changed") || !strings.Contains(string(out), "mcpproxy") || !strings.Contains(string(out), "rug pull") {
		t.Errorf("rules mcp.: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "rules", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		ID        string   `json:"id"`
		Analyzers []string `json:"analyzers"`
		Action    string   `json:"action"`
	}
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	var ids []string
	found := false
	for _, r := range rows {
		ids = append(ids, r.ID)
		if r.ID == "mcp.tool-list-changed" {
			found = r.Action == "warn" && slices.Equal(r.Analyzers, []string{"mcpproxy"})
		}
	}
	if !found || !slices.IsSorted(ids) || !slices.Contains(ids, "rm.dangerous-target") {
		t.Errorf("rules --json: mcp.tool-list-changed found %v, sorted %v, %d rules", found, slices.IsSorted(ids), len(ids))
	}
}

// TestRulesWidth: `toolwall rules` fits every line in 100 columns (what
// a rule protects wrapped, no example), and --wide prints one line per
// rule with its example.
func TestRulesWidth(t *testing.T) {
	out, err := exec.Command(bin, "rules").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.Contains(string(out), "rm.dangerous-target") || strings.Contains(string(out), "--dangerously-skip-permissions") {
		t.Errorf("rules: the narrow table should list ids and leave examples out\n%s", out)
	}
	wide, err := exec.Command(bin, "rules", "--wide", "agents.approvals-off").Output()
	if err != nil || !strings.Contains(string(wide), "claude --dangerously-skip-permissions") || strings.Count(string(wide), "\n") != 2 {
		t.Errorf("rules --wide: %v\n%s", err, wide)
	}
}
