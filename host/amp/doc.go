// Package amp is the Amp (Sourcegraph) adapter and its plugin.
//
// Checked against the Amp plugin API as published with @ampcode/plugin
// (ampcode.com/manual/plugin-api, type reference of 2026-06; Amp
// releases are dated builds). Amp has no hook protocol: it blocks tool
// calls from an experimental in-process plugin.
//
//   - Loading (plugin-api): *.ts files in ~/.config/amp/plugins/ (global)
//     or .amp/plugins/ (project), run by Amp's bundled Bun; only when Amp
//     is started with PLUGINS=all, and only a file that carries the
//     acknowledgement comment (toolwall writes it as the first line):
//     // @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now
//   - Event (plugin-api types): amp.on('tool.call', (event, ctx)) with
//     event {toolUseID, tool, input, thread: {id}}; the handler returns
//     {action: 'allow'} or {action: 'reject-and-continue', message} (the
//     call is refused and the thread goes on). amp.helpers
//     .shellCommandFromToolCall(event) returns the shell command a call
//     runs ({command, dir}) or null.
//   - Tools (`amp tools list`, plugin-api examples): Bash {cmd, cwd},
//     create_file {path, content}, edit_file {path, old_str, new_str},
//     Read {path, read_range}, glob, Grep, read_web_page {url}; MCP tools
//     mcp__<server>__<tool>. edit_file's and create_file's argument names
//     are not in a primary source: several spellings are read, and one
//     naming no path is refused.
//
// toolwall ships that plugin (plugin.ts; `toolwall install amp`): it
// spawns `toolwall hook amp`, writes {event: "tool.call", tool, input,
// thread, toolUseID, workspaceRoot, shell} on its stdin — shell being
// what Amp's own helper reads as the command, so that any tool Amp says
// runs one is judged as that command — and rejects the call unless the
// answer is exactly {"action":"allow"}: a toolwall that cannot start,
// exits non-zero, times out or prints anything else rejects too. A tool
// toolwall does not know is judged under its own name, unless its input
// carries a command: that is refused. There is no ask: an ask is a deny
// saying a human must run the call. The plugin reports no executed calls
// (Amp's tool.result event is not used), so an allowed call is
// remembered as run when it is decided.
package amp
