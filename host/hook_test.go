package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/jsonlstore"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/host/codex"
	"github.com/toolwall/toolwall/host/hosttest"
)

func send(t *testing.T, h *host.Hook, p map[string]any) (host.Response, toolwall.Verdict) {
	t.Helper()
	b, _ := json.Marshal(p)
	var out, errOut bytes.Buffer
	v, exit := h.Handle(context.Background(), bytes.NewReader(b), &out, &errOut)
	return host.Response{Stdout: out.String(), Stderr: errOut.String(), Exit: exit}, v
}

// TestApprovalWhereNoAsk: on a host that cannot ask (Codex), an ask is
// a deny naming `toolwall approve ID`; once a person approved that
// decision, the same call in the same session and directory passes. A
// deny is never approvable. Every decision is an audit record with the
// host's driver name.
func TestApprovalWhereNoAsk(t *testing.T) {
	dir := t.TempDir()
	store := jsonlstore.Open(dir + "/audit.jsonl")
	ap := approval.Open(dir+"/approvals.jsonl", approval.Options{})
	h := &host.Hook{Adapter: codex.Adapter{}, Shield: &hosttest.Stub{}, Audit: store, Approvals: ap}
	pre := func(cmd, id string) map[string]any {
		return map[string]any{"session_id": "c", "turn_id": "t", "cwd": "/w", "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}, "tool_use_id": id}
	}
	r, v := send(t, h, pre("echo STUB-ASK", "1"))
	m := regexp.MustCompile("toolwall approve ([0-9a-f]+)").FindStringSubmatch(r.Stdout)
	if v.Action != toolwall.Ask || m == nil || !strings.Contains(r.Stdout, `"permissionDecision":"deny"`) {
		t.Fatalf("ask on codex: %v %s", v.Action, r.Stdout)
	}
	// Codex runs nothing after a deny, so no PostToolUse approves it.
	send(t, h, map[string]any{"session_id": "c", "cwd": "/w", "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "echo STUB-ASK"}, "tool_use_id": "1", "tool_response": map[string]any{}})
	if _, v := send(t, h, pre("echo STUB-ASK", "2")); v.Action != toolwall.Ask {
		t.Fatalf("approved by a post event on a host that cannot ask: %v", v.Action)
	}
	if _, err := ap.Approve(context.Background(), m[1], "toolwall approve"); err != nil {
		t.Fatal(err)
	}
	if r, v := send(t, h, pre("echo STUB-ASK", "3")); v.Action != toolwall.Allow || r.Stdout != "" {
		t.Errorf("after toolwall approve: %v %q", v.Action, r.Stdout)
	}
	if r, _ := send(t, h, pre("echo STUB-DENY", "4")); strings.Contains(r.Stdout, "toolwall approve") {
		t.Errorf("a deny offers approval: %s", r.Stdout)
	}
	rs, err := store.Query(context.Background(), audit.Filter{Session: "c"})
	if err != nil || len(rs) != 4 || rs[0].Driver != "hook:codex" {
		t.Fatalf("%d records (%v): %+v", len(rs), err, rs)
	}
}

// TestApprovalWhereAsk: on Claude Code an ask shows the prompt; the call
// running afterwards (PostToolUse) is the human's approval, unless the
// session runs unattended (bypassPermissions).
func TestApprovalWhereAsk(t *testing.T) {
	dir := t.TempDir()
	h := &host.Hook{Adapter: claudecode.Adapter{}, Shield: &hosttest.Stub{}, Approvals: approval.Open(dir+"/a.jsonl", approval.Options{})}
	for _, mode := range []string{"default", "bypassPermissions"} {
		p := func(event, id string) map[string]any {
			return map[string]any{"session_id": mode, "cwd": "/w", "hook_event_name": event, "tool_name": "Bash",
				"tool_input": map[string]any{"command": "echo STUB-ASK"}, "tool_use_id": id, "permission_mode": mode, "tool_response": map[string]any{}}
		}
		send(t, h, p("PreToolUse", "1"))
		send(t, h, p("PostToolUse", "1"))
		_, v := send(t, h, p("PreToolUse", "2"))
		want := toolwall.Allow
		if mode == "bypassPermissions" {
			want = toolwall.Ask
		}
		if v.Action != want {
			t.Errorf("%s: second call %v, want %v", mode, v.Action, want)
		}
	}
}
