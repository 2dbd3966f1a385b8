package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchCommand: toolwall search is off until [search] enabled, needs
// the key's variable, and refuses a query with a credential in it before
// anything is sent (the provider's name does not even resolve here).
func TestSearchCommand(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	run := func(config string, extra []string, args ...string) (string, int) {
		if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, append([]string{"search"}, args...)...)
		cmd.Env = append(append(os.Environ(), hookEnv(t)...), append([]string{"TOOLWALL_CONFIG=" + cfg, "WS_KEY="}, extra...)...)
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("", nil, "go", "fuzzing"); code != exitUsage || !strings.Contains(out, "web search is off") {
		t.Errorf("without [search]: exit %d, %s", code, out)
	}
	on := "[search]\nenabled = true\napi_key_env = \"WS_KEY\"\n"
	if out, code := run(on, nil, "go", "fuzzing"); code != exitUsage || !strings.Contains(out, "WS_KEY is unset or empty") {
		t.Errorf("without the key: exit %d, %s", code, out)
	}
	out, code := run(on, []string{"WS_KEY=k-0123456789"}, "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	if code != exitDeny || !strings.Contains(out, "secrets.token-egress") || strings.Contains(out, "k-0123456789") {
		t.Errorf("a token in the query: exit %d, %s", code, out)
	}
}
