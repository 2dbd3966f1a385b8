package claudecode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosttest"
)

// View reads an answer as Claude Code does (hooks reference): exit 0 with
// a hookSpecificOutput whose permissionDecision is allow, deny, ask or
// defer; nothing on stdout allows; a top-level "decision" other than
// approve/block is ignored; exit 2 blocks with stderr; any other exit
// lets the call through.
func View(r host.Response, pre bool) hosttest.Reading {
	switch {
	case r.Exit == 2:
		return hosttest.Reading{Valid: true, Action: toolwall.Deny, Reason: r.Stderr}
	case r.Exit != 0:
		return hosttest.Reading{Valid: false}
	case strings.TrimSpace(r.Stdout) == "":
		return hosttest.Reading{Valid: true}
	}
	var o struct {
		HookSpecificOutput *struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(r.Stdout), &o) != nil || o.HookSpecificOutput == nil || !pre || o.HookSpecificOutput.HookEventName != "PreToolUse" {
		return hosttest.Reading{Valid: false}
	}
	s := o.HookSpecificOutput
	switch s.PermissionDecision {
	case "deny":
		return hosttest.Reading{Valid: true, Action: toolwall.Deny, Reason: s.PermissionDecisionReason}
	case "ask":
		return hosttest.Reading{Valid: true, Action: toolwall.Ask, Reason: s.PermissionDecisionReason}
	case "allow":
		return hosttest.Reading{Valid: true}
	}
	return hosttest.Reading{Valid: false}
}

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, View) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, View) }
