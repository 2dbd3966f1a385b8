// Package opencode is the OpenCode adapter and its plugin.
//
// OpenCode has no shell-hook protocol: blocking is done by an in-process
// plugin's "tool.execute.before" hook that throws (anomalyco/opencode
// packages/plugin/src/index.ts; opencode.ai/docs/plugins;
// shared/reference/agent-hosts.md §6). toolwall ships that plugin
// (plugin.js, installed into ~/.config/opencode/plugin/ or
// .opencode/plugin/): it spawns `toolwall hook opencode` for every tool
// call, writes {event, tool, sessionID, callID, args, directory,
// worktree} on its stdin, and throws — blocking the call, the message
// going to the model as the tool error — unless the answer is exactly
// {"action":"allow"}: a toolwall that cannot start, exits non-zero, times
// out or prints anything else blocks too (fail closed inside the plugin,
// since OpenCode skips a plugin that fails to load). "tool.execute.after"
// reports the call ran, "chat.message" a user message (the next turn).
//
// Tools: bash {command, workdir}, write {filePath, content}, edit
// {filePath, oldString, newString}, multiedit {filePath, edits}, read
// {filePath}, webfetch {url}, apply_patch {patchText} (Codex's patch
// format); MCP tools are <server>_<tool>, kept as they come. The hook has
// no ask channel: an ask is a deny saying a human must run the call.
package opencode
