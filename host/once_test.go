package host_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/cursor"
	"github.com/toolwall/toolwall/host/hosttest"
)

// decisions is a host.Decider in memory.
type decisions struct {
	mu sync.Mutex
	m  map[string]struct {
		v  toolwall.Verdict
		id string
	}
}

func (d *decisions) Decided(_ context.Context, s, key string) (toolwall.Verdict, string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	x, ok := d.m[s+"\x00"+key]
	return x.v, x.id, ok
}

func (d *decisions) Decide(_ context.Context, s, key string, v toolwall.Verdict, id string) (toolwall.Verdict, string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if x, ok := d.m[s+"\x00"+key]; ok {
		return x.v, x.id, true
	}
	if d.m == nil {
		d.m = map[string]struct {
			v  toolwall.Verdict
			id string
		}{}
	}
	d.m[s+"\x00"+key] = struct {
		v  toolwall.Verdict
		id string
	}{v, id}
	return v, id, false
}

// TestOnceDecidesOnce: Cursor's two events for one shell command of a
// generation are judged once, and its two reports that the command ran
// recorded once; the same command in another generation is judged
// again. Without a Decider every event is judged.
func TestOnceDecidesOnce(t *testing.T) {
	stub := &hosttest.Stub{}
	h := &host.Hook{Adapter: cursor.Adapter{}, Shield: stub, Decisions: &decisions{}}
	ev := func(event, gen string, extra map[string]any) map[string]any {
		p := map[string]any{"hook_event_name": event, "conversation_id": "c1", "generation_id": gen, "workspace_roots": []string{"/w"}, "cwd": "/w"}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	shell := map[string]any{"tool_name": "Shell", "tool_input": map[string]any{"command": "echo STUB-DENY"}, "tool_use_id": "tu1"}
	count := func(prefix string) int {
		n := 0
		for _, l := range stub.Log {
			if strings.HasPrefix(l, prefix) {
				n++
			}
		}
		return n
	}
	_, a := send(t, h, ev("preToolUse", "g1", shell))
	_, b := send(t, h, ev("beforeShellExecution", "g1", map[string]any{"command": "echo STUB-DENY"}))
	if a.Action != toolwall.Deny || b.Action != toolwall.Deny || count("evaluate") != 1 {
		t.Fatalf("one call, two events: %v, %v, log %q", a.Action, b.Action, stub.Log)
	}
	send(t, h, ev("postToolUse", "g1", shell))
	send(t, h, ev("afterShellExecution", "g1", map[string]any{"command": "echo STUB-DENY", "exit_code": 0}))
	if count("record") != 1 {
		t.Errorf("one run reported twice: log %q", stub.Log)
	}
	send(t, h, ev("beforeShellExecution", "g2", map[string]any{"command": "echo STUB-DENY"}))
	send(t, h, ev("beforeShellExecution", "g2", map[string]any{"command": "echo other"}))
	send(t, h, ev("beforeShellExecution", "g2", map[string]any{"command": "echo other", "cwd": "/"}))
	if count("evaluate") != 4 {
		t.Errorf("another generation, another command, another directory: log %q", stub.Log)
	}
	h.Decisions = nil
	send(t, h, ev("beforeShellExecution", "g2", map[string]any{"command": "echo other"}))
	if count("evaluate") != 5 {
		t.Errorf("without a Decider: log %q", stub.Log)
	}
}
