package hosts

import "encoding/json"

// ProbeSession is the session of Probe's payloads.
const ProbeSession = "toolwall-probe"

// Probe returns a PreToolUse payload host name would send for a shell
// call running command in directory cwd (nil for an unknown host), in
// session ProbeSession: what the tests send as a canary.
func Probe(name, command, cwd string) []byte {
	return ProbeIn(name, command, cwd, ProbeSession)
}

// ProbeIn is Probe in session session: `toolwall doctor` gives each run
// and host its own, so that its canaries never add up in one session's
// memory (toward repeated refusals).
func ProbeIn(name, command, cwd, session string) []byte {
	var v any
	switch canonical(name) {
	case "claude-code":
		v = map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "probe"}
	case "codex":
		v = map[string]any{"session_id": session, "turn_id": "probe", "transcript_path": nil, "cwd": cwd, "hook_event_name": "PreToolUse", "model": "probe", "permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "probe"}
	case "gemini":
		v = map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}}
	case "cursor":
		v = map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": session, "generation_id": "probe", "workspace_roots": []string{cwd}, "command": command, "cwd": cwd}
	case "copilot":
		args, _ := json.Marshal(map[string]string{"command": command})
		v = map[string]any{"timestamp": 1767225600000, "sessionId": session, "cwd": cwd, "toolName": "bash", "toolArgs": string(args)}
	case "opencode":
		v = map[string]any{"event": "tool.execute.before", "tool": "bash", "sessionID": session, "callID": "probe", "args": map[string]any{"command": command}, "directory": cwd, "worktree": cwd}
	case "cline":
		// The extension since 4.0: run_commands, its list JSON-encoded.
		cmds, _ := json.Marshal([]string{command})
		v = map[string]any{"clineVersion": "probe", "hookName": "PreToolUse", "timestamp": "0", "taskId": session, "workspaceRoots": []string{cwd}, "userId": "probe", "preToolUse": map[string]any{"toolName": "run_commands", "parameters": map[string]string{"commands": string(cmds)}}}
	case "windsurf":
		v = map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": session, "execution_id": "probe", "timestamp": "2026-01-01T00:00:00Z", "tool_info": map[string]any{"command_line": command, "cwd": cwd}}
	case "factory":
		v = map[string]any{"session_id": session, "transcript_path": "/probe/.factory/probe.jsonl", "cwd": cwd, "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Execute", "tool_input": map[string]any{"command": command}}
	case "kiro":
		v = map[string]any{"hook_event_name": "preToolUse", "session_id": session, "cwd": cwd, "tool_name": "execute_bash", "tool_input": map[string]any{"command": command}}
	case "qwen":
		v = map[string]any{"session_id": session, "transcript_path": "/probe/.qwen/probe.jsonl", "cwd": cwd, "hook_event_name": "PreToolUse", "timestamp": "2026-01-01T00:00:00Z", "permission_mode": "default", "tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}, "tool_call_id": "probe"}
	case "amp":
		v = map[string]any{"event": "tool.call", "tool": "Bash", "input": map[string]any{"cmd": command}, "thread": map[string]string{"id": session}, "workspaceRoot": cwd}
	default:
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}
