package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

// auditEnv is a hook environment with its own state directory and a user
// configuration holding body.
func auditEnv(t *testing.T, body string) (env []string, dir string) {
	dir = t.TempDir()
	conf := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{"TOOLWALL_STATE=" + filepath.Join(dir, "state.db"), "TOOLWALL_CONFIG=" + conf,
		"CLAUDE_PROJECT_DIR=/workspace/app", "HOME=/home/user"}, dir
}

// run runs the binary with env and args; it returns stdout and the exit
// status. The child has no controlling terminal (a new session).
func runBin(t *testing.T, env []string, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String() + errb.String(), code
}

// records reads the audit store through `toolwall audit --json`.
func records(t *testing.T, env []string, args ...string) []audit.Record {
	t.Helper()
	out, code := runBin(t, env, "", append([]string{"audit", "--json", "--limit", "0"}, args...)...)
	if code != 0 {
		t.Fatalf("toolwall audit: %d %s", code, out)
	}
	var rs []audit.Record
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var r audit.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestHookAuditTurns: the records of a session's calls carry the user
// turn they were made in, counted from its prompt events, though the hook
// reads no session memory for a harmless call.
func TestHookAuditTurns(t *testing.T) {
	env, _ := auditEnv(t, "")
	prompt := func(session string) {
		runHook(t, env, map[string]any{"session_id": session, "cwd": "/workspace/app", "hook_event_name": "UserPromptSubmit", "prompt": "go on"})
	}
	runHook(t, env, preID("t1", "ls", "toolu_0"))
	prompt("t1")
	runHook(t, env, preID("t1", "git status", "toolu_1"))
	prompt("t1")
	prompt("t2")
	runHook(t, env, preID("t1", "git diff", "toolu_2"))
	runHook(t, env, preID("t2", "ls", "toolu_3"))
	want := map[string]int{"toolu_0": 0, "toolu_1": 1, "toolu_2": 2, "toolu_3": 1}
	rs := records(t, env)
	if len(rs) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(rs), len(want), rs)
	}
	for _, r := range rs {
		if r.Turn != want[r.CallID] {
			t.Errorf("%s (%s): turn %d, want %d", r.CallID, r.Session, r.Turn, want[r.CallID])
		}
	}
	// The listing shows the turn, and "-" for calls not reported as run.
	out, code := runBin(t, env, "", "audit", "--session", "t1")
	if code != 0 || !strings.Contains(out, "t1 turn 2 ") || !strings.Contains(out, "t1 turn 1 ") || !strings.Contains(out, "  -        -  git diff") {
		t.Errorf("toolwall audit:\n%s", out)
	}
}

func preID(session, command, id string) map[string]any {
	p := pre(session, command)
	p["tool_use_id"] = id
	return p
}

func postID(session, command, id string) map[string]any {
	p := post(session, command)
	p["tool_use_id"] = id
	return p
}

// TestHookAuditParallel: N hook processes at once, with distinct and with
// identical tool_use_ids, lose no audit record; their outcomes attach.
func TestHookAuditParallel(t *testing.T) {
	env, _ := auditEnv(t, "")
	const n = 24
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			runHook(t, env, preID("par", fmt.Sprintf("ls dir%d", i), fmt.Sprintf("toolu_%d", i)))
			runHook(t, env, postID("par", fmt.Sprintf("ls dir%d", i), fmt.Sprintf("toolu_%d", i)))
		}()
		go func() {
			defer wg.Done()
			runHook(t, env, preID("same", "ls", "toolu_x"))
		}()
	}
	wg.Wait()
	rs := records(t, env, "--session", "par")
	if len(rs) != n {
		t.Fatalf("%d records in session par, want %d", len(rs), n)
	}
	for _, r := range rs {
		if r.Outcome == nil || !r.Outcome.Success || r.Driver != "hook:claude-code" || r.Verdict.Action.String() != "allow" {
			t.Errorf("record %+v outcome %+v", r, r.Outcome)
		}
	}
	if rs := records(t, env, "--session", "same"); len(rs) != n {
		t.Errorf("%d records with one tool_use_id, want %d", len(rs), n)
	}
}

const askConfig = `
[[rule]]
id = "team.deploy"
command = ["deploy **"]
action = "ask"
reason = "Deploys need a human."
match = ["deploy prod"]

[[rule]]
id = "team.nuke"
command = ["nuke **"]
action = "deny"
reason = "Never."
match = ["nuke all"]
`

// TestHookApprovals: an asked call the user approved (Claude Code ran it:
// PostToolUse) passes the second time in the same session and directory;
// another session asks again; a deny stays a deny; an approval expires.
func TestHookApprovals(t *testing.T) {
	env, _ := auditEnv(t, askConfig+"\n[approvals]\nttl = \"2s\"\n")
	if d := decision(t, runHook(t, env, preID("s1", "deploy prod", "t1"))); d.PermissionDecision != "ask" || !strings.Contains(d.PermissionDecisionReason, "team.deploy") {
		t.Fatalf("first deploy: %+v", d)
	}
	runHook(t, env, postID("s1", "deploy prod", "t1"))
	if d := decision(t, runHook(t, env, preID("s1", "deploy prod", "t2"))); d.PermissionDecision != "allow" {
		t.Errorf("approved deploy again: %+v, want allow", d)
	}
	if d := decision(t, runHook(t, env, preID("s2", "deploy prod", "t3"))); d.PermissionDecision != "ask" {
		t.Errorf("deploy in another session: %+v, want ask", d)
	}
	decision(t, runHook(t, env, preID("n", "nuke all", "t4")))
	runHook(t, env, postID("n", "nuke all", "t4"))
	if d := decision(t, runHook(t, env, preID("n", "nuke all", "t5"))); d.PermissionDecision != "deny" {
		t.Errorf("deny after PostToolUse: %+v", d)
	}
	bypass := preID("s1", "deploy staging", "t6")
	bypass["permission_mode"] = "bypassPermissions"
	runHook(t, env, bypass)
	runHook(t, env, postID("s1", "deploy staging", "t6"))
	if d := decision(t, runHook(t, env, preID("s1", "deploy staging", "t7"))); d.PermissionDecision != "ask" {
		t.Errorf("a call run without a prompt became approved: %+v", d)
	}
	time.Sleep(2100 * time.Millisecond)
	if d := decision(t, runHook(t, env, preID("s1", "deploy prod", "t8"))); d.PermissionDecision != "ask" {
		t.Errorf("approval after its ttl: %+v, want ask", d)
	}
	var approved int
	for _, r := range records(t, env, "--session", "s1") {
		if r.CallID == "t2" && r.Verdict.Action.String() == "allow" && len(r.Verdict.Notes) > 0 && strings.Contains(r.Verdict.Notes[len(r.Verdict.Notes)-1], "approved") {
			approved++
		}
	}
	if approved != 1 {
		t.Errorf("the approved call's record does not say it was approved")
	}
}

// TestAgentCannotApprove: an agent's tool call cannot run toolwall
// approve, write the approvals or the audit store, and toolwall approve
// refuses to run without a terminal.
func TestAgentCannotApprove(t *testing.T) {
	env, dir := auditEnv(t, askConfig)
	d := decision(t, runHook(t, env, preID("s", "deploy prod", "t1")))
	id := d.PermissionDecisionReason[strings.LastIndex(d.PermissionDecisionReason, "toolwall explain ")+len("toolwall explain ") : len(d.PermissionDecisionReason)-1]
	for _, cmd := range []string{
		"toolwall approve " + id,
		"~/go/bin/toolwall approve " + id,
		"bash -c 'toolwall approve " + id + "'",
		`echo '{"type":"grant"}' >> ` + filepath.Join(dir, "approvals.jsonl"),
		"rm " + filepath.Join(dir, "audit.jsonl"),
		"sqlite3 " + filepath.Join(dir, "audit.db") + " 'delete from records'",
		"cp /dev/null " + filepath.Join(dir, "approvals.jsonl"),
		"rm " + filepath.Join(dir, "approvals.jsonl.lock"),
	} {
		if d := decision(t, runHook(t, env, preID("s", cmd, "t2"))); d.PermissionDecision != "deny" {
			t.Errorf("%q: %+v, want deny", cmd, d)
		}
	}
	w := map[string]any{"session_id": "s", "cwd": "/workspace/app", "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_use_id": "t3",
		"tool_input": map[string]any{"file_path": filepath.Join(dir, "approvals.jsonl"), "content": "{}"}}
	if d := decision(t, runHook(t, env, w)); d.PermissionDecision != "deny" {
		t.Errorf("Write of the approvals: %+v", d)
	}
	out, code := runBin(t, env, "y\n", "approve", id)
	if code == 0 || !strings.Contains(out, "must be run by a person at a terminal") {
		t.Errorf("approve without a terminal: %d %s", code, out)
	}
	if d := decision(t, runHook(t, env, preID("s", "deploy prod", "t4"))); d.PermissionDecision != "ask" {
		t.Errorf("after the attempts: %+v, want ask", d)
	}
}

// TestAuditRedactExplainPrune: a secret in a call never reaches the
// store, the record says what was hidden, explain shows the decision,
// filters select, and prune deletes.
func TestAuditRedactExplainPrune(t *testing.T) {
	env, dir := auditEnv(t, askConfig)
	const key = "AKIAIOSFODNN7EXAMPLE"
	runHook(t, env, preID("r", "aws s3 ls --profile x "+key, "t1"))
	runHook(t, env, preID("r", "nuke all", "t2"))
	runHook(t, env, preID("q", "deploy prod", "t3"))
	rs := records(t, env, "--session", "r")
	if len(rs) != 2 {
		t.Fatalf("%d records", len(rs))
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "audit.db"))
	if bytes.Contains(raw, []byte(key)) {
		t.Error("the key is in the audit database")
	}
	if rs[0].Tool != "Bash" || len(rs[0].Redacted) == 0 || !strings.Contains(rs[0].Redacted[0], "AWS access key id in input.command") {
		t.Errorf("redaction note: %+v", rs[0].Redacted)
	}
	if got := records(t, env, "--action", "ask,warn"); len(got) != 1 || got[0].Verdict.Rules()[0] != "team.deploy" {
		t.Errorf("--action ask,warn: %+v", got)
	}
	if got := records(t, env, "--rule", "team.deploy"); len(got) != 1 || got[0].Session != "q" {
		t.Errorf("--rule: %+v", got)
	}
	if got := records(t, env, "--since", "1h"); len(got) != 3 {
		t.Errorf("--since 1h: %d", len(got))
	}
	if got := records(t, env, "--until", "1h"); len(got) != 0 {
		t.Errorf("--until 1h: %d", len(got))
	}
	out, code := runBin(t, env, "", "explain", rs[1].ID)
	// The record holds where the time went: the reading and each analyzer.
	for _, stage := range []string{"read", "destroy", "policy"} {
		if !slices.ContainsFunc(rs[1].Verdict.Timings, func(t toolwall.Timing) bool { return t.Stage == stage }) {
			t.Errorf("record without the %s timing: %+v", stage, rs[1].Verdict.Timings)
		}
	}
	for _, want := range []string{"decision " + rs[1].ID + ": deny", "team.nuke", "Never.", "session r", "call id t2", "timings:  read "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("explain lacks %q: %s", want, out)
		}
	}
	if out, code := runBin(t, env, "", "explain", "nope"); code == 0 || !strings.Contains(out, "no such decision") {
		t.Errorf("explain of an unknown id: %d %s", code, out)
	}
	if out, code := runBin(t, env, "", "explain", "rm -rf ~"); code == 0 || !strings.Contains(out, "toolwall explain -- rm -rf ~") {
		t.Errorf("explain of a command without --: %d %s", code, out)
	}
	list, _ := runBin(t, env, "", "audit")
	if strings.Count(list, "\n") != 3 || !strings.Contains(list, "team.nuke") || strings.Contains(list, key) {
		t.Errorf("audit listing:\n%s", list)
	}
	if out, _ := runBin(t, env, "", "audit", "prune", "--older-than", "1ns"); !strings.Contains(out, "pruned 3 records") {
		t.Errorf("prune: %s", out)
	}
	if got := records(t, env); len(got) != 0 {
		t.Errorf("after prune: %d records", len(got))
	}
}

// TestPolicyLayersThroughBinary: toolwall policy check prints the
// effective policy; a project file that loosens a user rule is an error
// naming both files, and the hook denies calls in that project.
func TestPolicyLayersThroughBinary(t *testing.T) {
	env, dir := auditEnv(t, askConfig)
	project := filepath.Join(dir, "proj")
	os.MkdirAll(project, 0o700)
	out, code := runBin(t, env, "", "policy", "check", "--project", project)
	for _, want := range []string{"user", "team.deploy", "ask", "team.nuke", "approvals last:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("policy check lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	loosen := "[[rule]]\nid = \"team.nuke\"\ncommand = [\"nuke **\"]\naction = \"warn\"\nreason = \"only warn\"\nmatch = [\"nuke x\"]\n"
	os.WriteFile(filepath.Join(project, ".toolwall.toml"), []byte(loosen), 0o600)
	out, code = runBin(t, env, "", "policy", "check", "--project", project)
	if code != 1 || !strings.Contains(out, filepath.Join(dir, "config.toml")) || !strings.Contains(out, filepath.Join(project, ".toolwall.toml")) {
		t.Errorf("loosening project file: exit %d\n%s", code, out)
	}
	p := preID("s", "ls", "t1")
	p["cwd"] = project
	penv := append(env, "CLAUDE_PROJECT_DIR="+project)
	if d := decision(t, runHook(t, penv, p)); d.PermissionDecision != "deny" || !strings.Contains(d.PermissionDecisionReason, "config.invalid") {
		t.Errorf("hook in a project whose file loosens: %+v", d)
	}
	tighten := "[[rule]]\nid = \"proj.no-ls\"\ncommand = [\"ls **\"]\naction = \"ask\"\nreason = \"ls is watched here\"\nmatch = [\"ls\"]\n"
	os.WriteFile(filepath.Join(project, ".toolwall.toml"), []byte(tighten), 0o600)
	if d := decision(t, runHook(t, penv, p)); d.PermissionDecision != "ask" || !strings.Contains(d.PermissionDecisionReason, "proj.no-ls") {
		t.Errorf("hook in a project whose file tightens: %+v", d)
	}
}
