package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/llm/llmtest"
)

// TestRunAdversarial: with [adversarial] enabled, toolwall run asks the
// model (through the toolwall-llm helper) before the command runs: a DENY
// refuses it with exit 126 and nothing runs; an ALLOW runs it; a model
// that is down refuses (on_error deny by default); and toolwall explain
// shows the audited decision with the model's answer and the claim.
func TestRunAdversarial(t *testing.T) {
	srv := llmtest.New(t)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.Messages[0].Content, "touch") {
			return llmtest.Reply{Text: "DECISION: DENY\nCreating files is not part of the task.", InputTokens: 700, OutputTokens: 9}
		}
		return llmtest.Reply{Text: "DECISION: ALLOW\nIt prints a word.", InputTokens: 690, OutputTokens: 6}
	})
	conf := llmConfig(t, srv, "openai", "[adversarial]\nenabled = true\n")
	dir := t.TempDir()
	env := append(os.Environ(), "TOOLWALL_CONFIG="+conf, "TOOLWALL_STATE="+filepath.Join(t.TempDir(), "state.db"), "XDG_CONFIG_HOME="+t.TempDir())
	run := func(args ...string) (string, string, int) {
		c := exec.Command(bin, args...)
		c.Env, c.Dir = env, dir
		var stdout, stderr strings.Builder
		c.Stdout, c.Stderr = &stdout, &stderr
		_ = c.Run()
		return stdout.String(), stderr.String(), c.ProcessState.ExitCode()
	}
	if out, errs, code := run("run", "--", "echo", "hello"); code != 0 || out != "hello\n" {
		t.Fatalf("echo hello: exit %d, %q %q", code, out, errs)
	}
	_, errs, code := run("run", "--", "touch", "made")
	if code != 126 || !strings.Contains(errs, "[adversarial.deny]") || !strings.Contains(errs, "Creating files is not part of the task") {
		t.Fatalf("touch: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
		t.Fatal("the denied command ran")
	}
	out, _, code := run("audit", "--action", "deny", "--json")
	if code != 0 {
		t.Fatalf("audit: exit %d %s", code, out)
	}
	var id string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			ID     string `json:"id"`
			Driver string `json:"driver"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Driver == "executor:adversarial" {
			id = r.ID
		}
	}
	if id == "" {
		t.Fatalf("no adversarial decision in the audit log:\n%s", out)
	}
	out, _, _ = run("explain", id)
	for _, want := range []string{"by executor:adversarial", "claim:    the primary agent called Bash in turn 0", "model:    adversarial scripted-model: DENY (deny; 700 in + 9 out tokens", "adversarial.deny"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "outcome:  refused") {
		t.Errorf("explain does not say the refused call never ran:\n%s", out)
	}
	// The listing shows the refused run as refused, not failed.
	out, _, _ = run("audit", "--action", "deny")
	if line := out[strings.Index(out, id):]; !strings.Contains(line[:strings.IndexByte(line+"\n", '\n')], " refused ") {
		t.Errorf("audit does not list the refused run as refused:\n%s", out)
	}
	srv2 := llmtest.New(t, llmtest.Reply{Status: 503, Text: "down"})
	env = append(env, "TOOLWALL_CONFIG="+llmConfig(t, srv2, "anthropic", "[adversarial]\nenabled = true\n"))
	if _, errs, code := run("run", "--", "echo", "hello"); code != 126 || !strings.Contains(errs, "[adversarial.unavailable]") {
		t.Errorf("model down: exit %d, %q", code, errs)
	}
}
