package view

import (
	"encoding/json"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
)

// Reading is what a host makes of a hook's answer.
type Reading struct {
	// Valid: the answer is well-formed in the host's contract (a host
	// that rejects an answer lets the call through, so an invalid answer
	// is a failure even where it was meant to deny).
	Valid bool
	// Action is what the host does with the call: Allow, Ask or Deny.
	Action toolwall.Action
	// Reason is the text the host passes on ("" when none).
	Reason string
}

// View reads a response the way a host does, for a PreToolUse event when
// pre is set, else for another event (where only validity counts).
type View func(r host.Response, pre bool) Reading

// For returns how host name reads a hook's answer (nil for an unknown
// host).
func For(name string) View {
	switch name {
	case "claude-code", "factory", "qwen":
		return Claude
	case "codex":
		return Codex
	case "gemini":
		return Gemini
	case "cursor":
		return Cursor
	case "copilot":
		return Copilot
	case "opencode", "amp":
		return Plugin
	case "cline":
		return Cline
	case "windsurf", "kiro":
		return ExitCode
	}
	return nil
}

var (
	allow = Reading{Valid: true, Action: toolwall.Allow}
	bad   = Reading{}
)

func deny(reason string) Reading { return Reading{Valid: true, Action: toolwall.Deny, Reason: reason} }

// Claude reads an answer as Claude Code does (§1; Factory Droid §10 and
// Qwen Code §12 read the same): exit 0 with a hookSpecificOutput whose
// permissionDecision is allow, deny or ask; nothing on stdout allows;
// exit 2 blocks with stderr; any other exit lets the call through (not a
// valid answer).
func Claude(r host.Response, pre bool) Reading {
	switch {
	case r.Exit == 2:
		return deny(r.Stderr)
	case r.Exit != 0:
		return bad
	case strings.TrimSpace(r.Stdout) == "":
		return allow
	}
	var o struct {
		HookSpecificOutput *struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(r.Stdout), &o) != nil || o.HookSpecificOutput == nil || !pre || o.HookSpecificOutput.HookEventName != "PreToolUse" {
		return bad
	}
	s := o.HookSpecificOutput
	switch s.PermissionDecision {
	case "deny":
		return deny(s.PermissionDecisionReason)
	case "ask":
		return Reading{Valid: true, Action: toolwall.Ask, Reason: s.PermissionDecisionReason}
	case "allow":
		return allow
	}
	return bad
}

// Codex reads an answer as Codex does (§2, output_parser.rs): exit 0 with
// empty stdout allows; exit 0 with exactly the hookSpecificOutput deny
// (no other field, a non-empty reason) denies; exit 2 with non-empty
// stderr denies. Anything else marks the hook Failed and the call
// proceeds.
func Codex(r host.Response, pre bool) Reading {
	switch {
	case r.Exit == 2 && strings.TrimSpace(r.Stderr) != "":
		return deny(r.Stderr)
	case r.Exit != 0:
		return bad
	case strings.TrimSpace(r.Stdout) == "":
		return allow
	case !pre:
		return bad
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
		return bad
	}
	s := o.HookSpecificOutput
	if s.HookEventName != "PreToolUse" || s.PermissionDecision != "deny" || s.PermissionDecisionReason == "" {
		return bad
	}
	return deny(s.PermissionDecisionReason)
}

// Gemini reads an answer as Gemini CLI does (§3, hookRunner.ts): the JSON
// on stdout (else stderr) decides whatever the exit status — decision
// deny or block denies, ask asks, allow, approve or none allows;
// "continue": false stops the whole agent loop (not a valid answer to one
// call). Text that is not JSON allows on exit 0 or 1 and denies on any
// other status; no output with a non-zero status is a failed hook.
func Gemini(r host.Response, pre bool) Reading {
	text := strings.TrimSpace(r.Stdout)
	if text == "" {
		text = strings.TrimSpace(r.Stderr)
	}
	if text == "" {
		if r.Exit == 0 {
			return allow
		}
		return bad
	}
	var o struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		Continue *bool  `json:"continue"`
	}
	if json.Unmarshal([]byte(text), &o) != nil {
		if r.Exit == 0 || r.Exit == 1 {
			return allow
		}
		return deny(text)
	}
	if o.Continue != nil && !*o.Continue {
		return bad
	}
	switch o.Decision {
	case "deny", "block":
		return deny(o.Reason)
	case "ask":
		return Reading{Valid: true, Action: toolwall.Ask, Reason: o.Reason}
	case "", "allow", "approve":
		return allow
	}
	return bad
}

// Cursor reads an answer as Cursor does with failClosed: stdout must
// be JSON; {"permission":"deny"} denies (agent_message to the model),
// "ask" asks, "allow" allows; other events take {} or {"continue":true}.
// Output that is not JSON blocks under failClosed but says nothing: it is
// not a valid answer.
func Cursor(r host.Response, pre bool) Reading {
	if r.Exit == 2 {
		return deny(r.Stderr)
	}
	var o struct {
		Permission   string `json:"permission"`
		AgentMessage string `json:"agent_message"`
		Continue     *bool  `json:"continue"`
	}
	if r.Exit != 0 || json.Unmarshal([]byte(r.Stdout), &o) != nil {
		return bad
	}
	if !pre {
		return allow
	}
	switch o.Permission {
	case "deny":
		return deny(o.AgentMessage)
	case "ask":
		return Reading{Valid: true, Action: toolwall.Ask, Reason: o.AgentMessage}
	case "allow":
		return allow
	}
	return bad
}

// Copilot reads an answer as Copilot CLI does (§5): exit 0 with nothing
// allows; {"permissionDecision":"deny","permissionDecisionReason":…}
// (the reason required) denies, "ask" asks, "allow" allows; exit 2 denies.
func Copilot(r host.Response, pre bool) Reading {
	switch {
	case r.Exit == 2:
		return deny(r.Stderr)
	case r.Exit != 0:
		return bad
	case strings.TrimSpace(r.Stdout) == "":
		return allow
	case !pre:
		return bad
	}
	var o struct {
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	}
	if json.Unmarshal([]byte(r.Stdout), &o) != nil {
		return bad
	}
	switch {
	case o.PermissionDecision == "deny" && o.PermissionDecisionReason != "":
		return deny(o.PermissionDecisionReason)
	case o.PermissionDecision == "ask":
		return Reading{Valid: true, Action: toolwall.Ask, Reason: o.PermissionDecisionReason}
	case o.PermissionDecision == "allow":
		return allow
	}
	return bad
}

// Plugin reads an answer as toolwall's own OpenCode and Amp plugins do
// (opencode/plugin.js, amp/plugin.ts): exit 0 and {"action":"allow"}
// allows; {"action":"deny","reason":<non-empty>} blocks with the reason;
// anything else blocks too (the plugins fail closed) but is not a valid
// answer.
func Plugin(r host.Response, pre bool) Reading {
	var o struct {
		Action string `json:"action"`
		Reason string `json:"reason"`
	}
	if r.Exit != 0 || json.Unmarshal([]byte(r.Stdout), &o) != nil {
		return bad
	}
	switch {
	case o.Action == "allow":
		return allow
	case o.Action == "deny" && o.Reason != "" && pre:
		return deny(o.Reason)
	}
	return bad
}

// Cline reads an answer as Cline does (§7): JSON on stdout, whatever the
// exit status; "cancel": true blocks with errorMessage (and stops the
// task), false lets the call run. Output that is not JSON is logged and
// the call proceeds. A cancel after a call ran stops the task for
// nothing: not a valid answer to such an event.
func Cline(r host.Response, pre bool) Reading {
	var o struct {
		Cancel       *bool  `json:"cancel"`
		ErrorMessage string `json:"errorMessage"`
	}
	if json.Unmarshal([]byte(r.Stdout), &o) != nil || o.Cancel == nil {
		return bad
	}
	switch {
	case *o.Cancel && pre:
		return deny(o.ErrorMessage)
	case *o.Cancel:
		return bad
	}
	return allow
}

// ExitCode reads an answer as Windsurf (§8) and Kiro CLI (§11) do: exit 2
// blocks with stderr as the reason, exit 0 proceeds, any other status is
// logged and the call proceeds (not a valid answer).
func ExitCode(r host.Response, pre bool) Reading {
	switch r.Exit {
	case 2:
		if !pre || strings.TrimSpace(r.Stderr) == "" {
			return bad
		}
		return deny(r.Stderr)
	case 0:
		return allow
	}
	return bad
}
