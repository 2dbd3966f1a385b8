package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
