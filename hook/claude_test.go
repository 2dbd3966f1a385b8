package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/jsonlstore"
)

// stub is a Shield that decides on a marker in the command and records
// what the driver asked of it.
type stub struct {
	mu    sync.Mutex
	calls []string
	panic bool
	quiet bool          // keep no log (benchmarks)
	sleep time.Duration // Evaluate takes this long
}

func (s *stub) log(f string, a ...any) {
	if s.quiet {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, fmt.Sprintf(f, a...))
}

func (s *stub) Evaluate(_ context.Context, c toolwall.Call) toolwall.Verdict {
	if s.panic {
		panic("boom")
	}
	time.Sleep(s.sleep)
	s.log("evaluate %s %s %s %s", c.Tool, c.Session, c.Cwd, c.Project)
	cmd, _ := c.Command()
	switch {
	case strings.Contains(cmd, "STUB-DENY"):
		return toolwall.Verdict{Action: toolwall.Deny, Reason: "stub says no.", Findings: []toolwall.Finding{{Rule: "stub.deny"}}}
	case strings.Contains(cmd, "STUB-ASK"):
		return toolwall.Verdict{Action: toolwall.Ask, Reason: "stub wants a human.", Findings: []toolwall.Finding{{Rule: "stub.ask"}}}
	case strings.Contains(cmd, "STUB-WARN"):
		return toolwall.Verdict{Action: toolwall.Warn, Reason: "risky", Findings: []toolwall.Finding{{Rule: "stub.warn"}}}
	}
	return toolwall.Verdict{}
}

func (s *stub) RecordInvocation(_ context.Context, c toolwall.Call, ok bool) {
	s.log("record %s %s %v", c.Tool, c.Session, ok)
}

func (s *stub) WatchedTools() []string { return []string{"Bash", "Write"} }

func (s *stub) AdvanceTurn(_ context.Context, id string) (int, error) {
	s.log("turn %s", id)
	return 1, nil
}

type golden struct {
	Name   string          `json:"name"`
	Stdin  json.RawMessage `json:"stdin"`
	Stdout json.RawMessage `json:"stdout"`
	Deny   string          `json:"deny"`
	Calls  []string        `json:"calls"`
}

func loadGolden(t testing.TB) []golden {
	b, err := os.ReadFile("testdata/claude/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var gs []golden
	if err := json.Unmarshal(b, &gs); err != nil {
		t.Fatal(err)
	}
	return gs
}

func TestClaudeCodeGolden(t *testing.T) {
	for _, g := range loadGolden(t) {
		t.Run(g.Name, func(t *testing.T) {
			s := &stub{}
			h := &ClaudeCode{Shield: s, Turns: s, ProjectDir: "/workspace/app", Home: "/home/user"}
			var out bytes.Buffer
			h.Handle(context.Background(), bytes.NewReader(g.Stdin), &out)
			switch {
			case g.Deny != "":
				assertDeny(t, out.Bytes(), g.Deny)
			case string(g.Stdout) == "null" || len(g.Stdout) == 0:
				if out.Len() != 0 {
					t.Errorf("stdout = %q, want nothing", out.String())
				}
			default:
				var got, want any
				if err := json.Unmarshal(out.Bytes(), &got); err != nil {
					t.Fatalf("stdout %q: %v", out.String(), err)
				}
				_ = json.Unmarshal(g.Stdout, &want)
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				if !bytes.Equal(gb, wb) {
					t.Errorf("stdout\n got %s\nwant %s", gb, wb)
				}
			}
			if fmt.Sprint(s.calls) != fmt.Sprint(g.Calls) && !(len(s.calls) == 0 && len(g.Calls) == 0) {
				t.Errorf("shield calls = %q, want %q", s.calls, g.Calls)
			}
		})
	}
}

// assertDeny checks out is one PreToolUse deny whose reason holds want.
func assertDeny(t *testing.T, out []byte, want string) {
	t.Helper()
	var o Output
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("stdout %q is not hook JSON: %v", out, err)
	}
	s := o.HookSpecificOutput
	if s.HookEventName != EventPreToolUse || s.PermissionDecision != "deny" || !strings.Contains(s.PermissionDecisionReason, want) {
		t.Errorf("got %+v, want a PreToolUse deny mentioning %q", s, want)
	}
}

func TestClaudeCodeBadInput(t *testing.T) {
	tests := []struct {
		name, stdin, want string
		max               int
	}{
		{"empty", "", "not valid JSON", 0},
		{"garbage", "rm -rf /", "not valid JSON", 0},
		{"truncated", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"`, "not valid JSON", 0},
		{"wrong types", `{"hook_event_name":"PreToolUse","tool_name":7}`, "not valid JSON", 0},
		{"too large", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("a", 200) + `"}}`, "larger than 100 bytes", 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &ClaudeCode{Shield: &stub{}, MaxPayload: tt.max}
			var out bytes.Buffer
			v := h.Handle(context.Background(), strings.NewReader(tt.stdin), &out)
			if v.Action != toolwall.Deny {
				t.Errorf("action = %v, want deny", v.Action)
			}
			assertDeny(t, out.Bytes(), tt.want)
		})
	}
}

type failReader struct{}

func (failReader) Read([]byte) (int, error) { return 0, errors.New("stdin closed") }

func TestClaudeCodeReadErrorAndPanic(t *testing.T) {
	var out bytes.Buffer
	(&ClaudeCode{Shield: &stub{}}).Handle(context.Background(), failReader{}, &out)
	assertDeny(t, out.Bytes(), "could not read")

	out.Reset()
	h := &ClaudeCode{Shield: &stub{panic: true}}
	v := h.Handle(context.Background(), strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), &out)
	if v.Action != toolwall.Deny {
		t.Fatalf("panic in shield: action %v, want deny", v.Action)
	}
	assertDeny(t, out.Bytes(), "internal error")
}

func FuzzClaudeCode(f *testing.F) {
	for _, g := range loadGolden(f) {
		f.Add(string(g.Stdin))
	}
	f.Add(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"not an object"}`)
	f.Fuzz(func(t *testing.T, in string) {
		h := &ClaudeCode{Shield: &stub{}, Turns: &stub{}}
		var out1, out2 bytes.Buffer
		start := time.Now()
		v1 := h.Handle(context.Background(), strings.NewReader(in), &out1)
		v2 := h.Handle(context.Background(), strings.NewReader(in), &out2)
		if time.Since(start) > 2*time.Second {
			t.Fatalf("slow: %v", time.Since(start))
		}
		if v1.Action != v2.Action || out1.String() != out2.String() {
			t.Fatalf("not deterministic: %v %q vs %v %q", v1.Action, out1.String(), v2.Action, out2.String())
		}
		if out1.Len() > 0 {
			var o Output
			if err := json.Unmarshal(out1.Bytes(), &o); err != nil || !toolwallDecision(o.HookSpecificOutput.PermissionDecision) {
				t.Fatalf("output is not a hook decision: %q", out1.String())
			}
		}
	})
}

func toolwallDecision(s string) bool { return s == "deny" || s == "ask" }

func BenchmarkClaudeCodePreToolUse(b *testing.B) {
	payload := []byte(`{"session_id":"s","cwd":"/workspace/app","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`)
	h := &ClaudeCode{Shield: &stub{quiet: true}}
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		h.Handle(context.Background(), bytes.NewReader(payload), &out)
	}
}

// TestClaudeCodeTimeout: a decision that takes longer than the timeout is
// a deny, answered before Claude Code's own hook timeout would let the
// call through.
func TestClaudeCodeTimeout(t *testing.T) {
	h := &ClaudeCode{Shield: &stub{sleep: time.Second}, Timeout: 50 * time.Millisecond}
	var out bytes.Buffer
	start := time.Now()
	v := h.Handle(context.Background(), strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), &out)
	if time.Since(start) > 500*time.Millisecond || v.Action != toolwall.Deny || v.Rules()[0] != "gate.timeout" {
		t.Fatalf("slow shield: %v %v after %v", v.Action, v.Rules(), time.Since(start))
	}
	assertDeny(t, out.Bytes(), "within 50ms")
}

// TestClaudeCodePanicOnOtherEvents: a panic while recording answers
// nothing PreToolUse-shaped (the host would reject it for another event).
func TestClaudeCodePanicOnOtherEvents(t *testing.T) {
	var out bytes.Buffer
	h := &ClaudeCode{Shield: &panicRecorder{}}
	h.Handle(context.Background(), strings.NewReader(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), &out)
	if out.Len() != 0 {
		t.Errorf("PostToolUse panic wrote %q", out.String())
	}
}

type panicRecorder struct{ stub }

func (*panicRecorder) RecordInvocation(context.Context, toolwall.Call, bool) { panic("record") }

// TestClaudeCodeAuditAndApprovals: every PreToolUse decision is recorded
// with its caller, the outcome is attached at PostToolUse, an asked call
// the user approved (it ran) passes the second time in the same session
// and directory, and a deny is never approved.
func TestClaudeCodeAuditAndApprovals(t *testing.T) {
	dir := t.TempDir()
	store := jsonlstore.Open(dir + "/audit.jsonl")
	h := &ClaudeCode{Shield: &stub{}, Audit: store, Approvals: approval.Open(dir+"/approvals.jsonl", approval.Options{})}
	ctx := context.Background()
	send := func(event, id, cmd string, extra map[string]any) (toolwall.Verdict, string) {
		p := map[string]any{"session_id": "s", "cwd": "/w", "hook_event_name": event, "tool_name": "Bash",
			"tool_input": map[string]any{"command": cmd, "description": "d-" + id}, "tool_use_id": id, "permission_mode": "default"}
		for k, v := range extra {
			p[k] = v
		}
		b, _ := json.Marshal(p)
		var out bytes.Buffer
		v := h.Handle(ctx, bytes.NewReader(b), &out)
		return v, out.String()
	}
	v, out := send(EventPreToolUse, "t1", "echo STUB-ASK", map[string]any{"agent_type": "reviewer"})
	if v.Action != toolwall.Ask || !strings.Contains(out, "toolwall explain ") {
		t.Fatalf("first ask: %v %s", v.Action, out)
	}
	send(EventPostToolUse, "t1", "echo STUB-ASK", map[string]any{"agent_type": "reviewer", "tool_response": map[string]any{"exit_code": 0}, "duration_ms": 1200})
	if v, out := send(EventPreToolUse, "t2", "echo STUB-ASK", map[string]any{"agent_type": "reviewer"}); v.Action != toolwall.Allow || out != "" {
		t.Errorf("approved ask again: %v %q", v.Action, out)
	}
	if v, _ := send(EventPreToolUse, "t3", "echo STUB-ASK", nil); v.Action != toolwall.Ask {
		t.Errorf("another caller: %v, want ask", v.Action)
	}
	send(EventPreToolUse, "t4", "echo STUB-DENY", nil)
	send(EventPostToolUse, "t4", "echo STUB-DENY", map[string]any{"tool_response": map[string]any{}})
	if v, _ := send(EventPreToolUse, "t5", "echo STUB-DENY", nil); v.Action != toolwall.Deny {
		t.Errorf("deny after a (bogus) PostToolUse: %v", v.Action)
	}
	send(EventPreToolUse, "t6", "ls", nil)
	rs, err := store.Query(ctx, audit.Filter{Session: "s"})
	if err != nil || len(rs) != 6 {
		t.Fatalf("%d records (%v), want 6", len(rs), err)
	}
	first := rs[len(rs)-1]
	if first.Caller != "reviewer" || first.CallID != "t1" || first.Verdict.Action != toolwall.Ask || first.Driver != Driver ||
		first.Outcome == nil || *first.Outcome.ExitCode != 0 || first.Outcome.Duration != 1200*time.Millisecond {
		t.Errorf("first record %+v outcome %+v", first, first.Outcome)
	}
	if rs[len(rs)-2].Verdict.Action != toolwall.Allow || len(rs[len(rs)-2].Verdict.Notes) != 1 {
		t.Errorf("approved record %+v", rs[len(rs)-2].Verdict)
	}
}
