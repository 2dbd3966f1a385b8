// Package amp is the Amp (Sourcegraph) adapter and its plugin.
//
// Amp blocks tool calls from an experimental in-process plugin
// (@ampcode/plugin; ampcode.com/manual; cc-safety-net's Amp integration;
// shared/reference/agent-hosts.md §9): amp.on('tool.call', handler) gets
// {tool, input, thread: {id}} and returns {action: 'allow'} or {action:
// 'reject-and-continue', message}. toolwall ships that plugin (plugin.ts,
// installed into ~/.config/amp/plugins/ or .amp/plugins/): it spawns
// `toolwall hook amp`, writes {event: "tool.call", tool, input, thread,
// workspaceRoot} on its stdin and rejects the call unless the answer is
// exactly {"action":"allow"} — a toolwall that cannot start, exits
// non-zero, times out or prints anything else rejects too.
//
// Tools: Bash {cmd, cwd}, create_file {path, content}, edit_file {path,
// old_str, new_str}, Read {path}, read_web_page {url}; MCP tools
// mcp__server__tool. The names of edit_file's and create_file's
// arguments are not confirmed by a primary source: several spellings are
// read. Amp reports no executed calls to the plugin, so an allowed call
// is remembered as run when it is decided; there is no ask.
package amp
