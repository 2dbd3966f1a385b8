package hosts

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/amp"
	"github.com/toolwall/toolwall/host/claudecode"
	"github.com/toolwall/toolwall/host/cline"
	"github.com/toolwall/toolwall/host/codex"
	"github.com/toolwall/toolwall/host/copilot"
	"github.com/toolwall/toolwall/host/cursor"
	"github.com/toolwall/toolwall/host/factory"
	"github.com/toolwall/toolwall/host/gemini"
	"github.com/toolwall/toolwall/host/kiro"
	"github.com/toolwall/toolwall/host/opencode"
	"github.com/toolwall/toolwall/host/qwen"
	"github.com/toolwall/toolwall/host/windsurf"
)

// All returns every adapter, in the order docs/hosts.md lists the hosts.
func All() []host.Adapter {
	return []host.Adapter{
		claudecode.Adapter{}, codex.Adapter{}, gemini.Adapter{}, cursor.Adapter{},
		copilot.Adapter{}, opencode.Adapter{}, cline.Adapter{}, windsurf.Adapter{},
		factory.Adapter{}, kiro.Adapter{}, qwen.Adapter{}, amp.Adapter{},
	}
}

// Names returns every host's name.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name())
	}
	return out
}

// Lookup returns the adapter named name, or one of its other spellings
// (claude, droid, gemini-cli, copilot-cli, qwen-code, kiro-cli, cascade).
func Lookup(name string) (host.Adapter, bool) {
	n := canonical(name)
	for _, a := range All() {
		if a.Name() == n {
			return a, true
		}
	}
	return nil, false
}

func canonical(name string) string {
	a, ok := map[string]string{"claude": "claude-code", "droid": "factory", "factory-droid": "factory", "gemini-cli": "gemini",
		"copilot-cli": "copilot", "github-copilot": "copilot", "qwen-code": "qwen", "kiro-cli": "kiro", "cascade": "windsurf",
		"devin": "windsurf", "codex-cli": "codex"}[strings.ToLower(name)]
	if ok {
		return a
	}
	return strings.ToLower(name)
}

// Detect tells which host sent payload, from its shape (the fields only
// one host sends, the event names, the transcript's directory) and, where
// the shape is Claude Code's, from the variables the host sets for its
// hooks (getenv may be nil). A payload nothing sets apart is Claude
// Code's.
func Detect(payload []byte, getenv func(string) string) host.Adapter {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	payload = bytes.TrimPrefix(payload, []byte("\xef\xbb\xbf"))
	var m map[string]json.RawMessage
	if json.Unmarshal(payload, &m) != nil {
		return claudecode.Adapter{}
	}
	has := func(k string) bool { _, ok := m[k]; return ok }
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	event, transcript := str("hook_event_name"), str("transcript_path")
	switch {
	case has("agent_action_name") || has("trajectory_id"):
		return windsurf.Adapter{}
	case has("clineVersion") || has("preToolUse") || has("tool_call") || has("taskId"):
		return cline.Adapter{}
	case str("event") == "tool.call":
		return amp.Adapter{}
	case strings.HasPrefix(str("event"), "tool.execute.") || str("event") == "chat.message":
		return opencode.Adapter{}
	case has("toolName") || has("toolArgs") || has("toolResult") || has("sessionId") && !has("hookEventName"):
		return copilot.Adapter{}
	case has("conversation_id") || has("generation_id") || has("workspace_roots") || has("cursor_version"),
		strings.HasPrefix(event, "before") || strings.HasPrefix(event, "after") && event != "AfterTool":
		return cursor.Adapter{}
	case event == "BeforeTool" || event == "AfterTool" || event == "BeforeAgent" || event == "AfterAgent" || has("mcp_context"):
		return gemini.Adapter{}
	case has("hookEventName") || has("sessionId"):
		return factory.Adapter{}
	case event == "preToolUse" || event == "postToolUse" || event == "userPromptSubmit" || event == "agentSpawn":
		return kiro.Adapter{}
	case has("turn_id") || strings.Contains(transcript, "/.codex/"):
		return codex.Adapter{}
	case has("tool_call_id") || strings.Contains(transcript, "/.qwen/"):
		return qwen.Adapter{}
	case strings.Contains(transcript, "/.factory/"):
		return factory.Adapter{}
	case strings.Contains(transcript, "/.gemini/"):
		return gemini.Adapter{}
	case has("timestamp") && transcript == "" && !has("permission_mode"):
		return copilot.Adapter{} // the PascalCase shape: Claude's fields, a timestamp, no transcript
	}
	switch str("tool_name") {
	case "run_shell_command", "write_file", "read_file", "replace", "web_fetch":
		if getenv("QWEN_PROJECT_DIR") != "" {
			return qwen.Adapter{}
		}
		return gemini.Adapter{}
	case "Execute", "Create":
		return factory.Adapter{}
	case "apply_patch":
		return codex.Adapter{}
	}
	for _, a := range []host.Adapter{claudecode.Adapter{}, gemini.Adapter{}, qwen.Adapter{}, factory.Adapter{}} {
		if getenv(a.ProjectEnv()) != "" {
			return a
		}
	}
	return claudecode.Adapter{}
}
