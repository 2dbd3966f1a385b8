package codex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/hosttest"
)

// View reads an answer as Codex does (codex-rs/hooks output_parser.rs):
// exit 0 with empty stdout allows; exit 0 with exactly
// {"hookSpecificOutput":{"hookEventName","permissionDecision":"deny",
// "permissionDecisionReason":<non-empty>}} denies; exit 2 with non-empty
// stderr denies. Anything else — an unknown field, "ask", "allow" without
// updatedInput, an empty reason, another exit status — marks the hook
// Failed and the call proceeds, so it is not a valid answer here.
func View(r host.Response, pre bool) hosttest.Reading {
	switch {
	case r.Exit == 2 && strings.TrimSpace(r.Stderr) != "":
		return hosttest.Reading{Valid: true, Action: toolwall.Deny, Reason: r.Stderr}
	case r.Exit != 0:
		return hosttest.Reading{}
	case strings.TrimSpace(r.Stdout) == "":
		return hosttest.Reading{Valid: true}
	case !pre:
		return hosttest.Reading{}
	}
	var o struct {
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	dec.DisallowUnknownFields()
	if dec.Decode(&o) != nil {
		return hosttest.Reading{}
	}
	s := o.HookSpecificOutput
	if s.HookEventName != "PreToolUse" || s.PermissionDecision != "deny" || s.PermissionDecisionReason == "" {
		return hosttest.Reading{}
	}
	return hosttest.Reading{Valid: true, Action: toolwall.Deny, Reason: s.PermissionDecisionReason}
}

func TestConformance(t *testing.T) { hosttest.Run(t, Adapter{}, View) }

func FuzzAdapter(f *testing.F) { hosttest.Fuzz(f, Adapter{}, View) }

func TestPatchCalls(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: new.sh\n+#!/bin/sh\n+echo hi\n*** Update File: src/a.go\n@@ func a\n-old\n+new\n ctx\n*** Update File: b.txt\n*** Move to: c.txt\n-x\n+y\n*** Delete File: /etc/passwd\n*** End Patch\n"
	calls, ok := host.PatchCalls(patch, "/w")
	var got []string
	for _, c := range calls {
		got = append(got, c.Tool+" "+string(c.Input))
	}
	want := []string{
		`Write {"content":"#!/bin/sh\necho hi\n","file_path":"/w/new.sh"}`,
		`Edit {"file_path":"/w/src/a.go","new_string":"new\nctx\n","old_string":"old\nctx\n"}`,
		`Write {"content":"y\n","file_path":"/w/c.txt"}`,
		`Bash {"command":"rm -f -- '/w/b.txt'"}`,
		`Bash {"command":"rm -f -- '/etc/passwd'"}`,
	}
	if !ok || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("PatchCalls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, ok := host.PatchCalls("just text", "/w"); ok {
		t.Error("text without headers read as a patch")
	}
}
