// Package opencode is the OpenCode adapter and its plugin.
//
// OpenCode has no shell-hook protocol: blocking is done by an in-process
// plugin hook that throws before the tool runs. toolwall ships two
// plugins, one per plugin API, because neither OpenCode major version
// runs the other's (opencode.ai docs "Migrate plugins from V1": "V1 plugin
// implementations do not run in V2"):
//
//   - plugin.js, OpenCode 1.x (anomalyco/opencode packages/plugin/src/
//     index.ts, packages/opencode/src/plugin/index.ts): a named export
//     function returning {"tool.execute.before": (input, output)}, input
//     {tool, sessionID, callID}, output {args}; installed into
//     ~/.config/opencode/plugin/ or .opencode/plugin/.
//   - plugin_v2.js, OpenCode 2 (packages/core/src/plugin/module.ts,
//     source-directory.ts, packages/plugin/src/promise/adapter.ts): a
//     default export {id, setup(ctx)} — what Plugin.define returns — whose
//     setup registers ctx.tool.hook("execute.before", callback) with the
//     event {tool, sessionID, agent, messageID, id, input}, and
//     "execute.after" and ctx.session.hook("prompt"); installed into
//     ~/.config/opencode/plugins/ or .opencode/plugins/. OpenCode 2 loads
//     *.js files there without configuration; a configured local path
//     must name a directory holding an index file.
//
// Both spawn `toolwall hook opencode` for every tool call, write {event,
// tool, sessionID, callID, args, directory, worktree} on its stdin, and
// throw — blocking the call — unless the answer is exactly
// {"action":"allow"}: a toolwall that cannot start, exits non-zero, times
// out or prints anything else blocks too (fail closed inside the plugin,
// since OpenCode skips a plugin that fails to load). "tool.execute.after"
// reports the call ran, "chat.message" a user message (the next turn).
//
// What a throw does differs by version. In OpenCode 1.x a throw in
// tool.execute.before rejects that call: the model gets the message as the
// tool's error and the session goes on. In OpenCode 2 (anomalyco/opencode
// packages/plugin/src/promise/adapter.ts at 07bc181c,
// packages/core/src/tool.ts at 1001f905, plugin/hooks.ts at 0f2daeba)
// the promise plugin API wraps the callback as Effect.promise(() =>
// callback(event)), so a throw is not the Tool.Error that core's hook
// runner treats as "rejects the call before it runs" but an Effect defect;
// Tool snapshot's execute yields execute.before before it executes the
// tool, so the tool never runs either way — the call is blocked — but the
// defect is not turned into a tool error for the model there: how the
// session reports it (a failed tool part, or the turn ending with an
// error) was not traced further. toolwall relies only on the call not
// running.
//
// Tools: bash (1.x) or shell (2) {command, workdir}, write {filePath or
// path, content}, edit {filePath or path, oldString, newString},
// multiedit {filePath, edits}, read {filePath or path}, webfetch {url},
// apply_patch or patch {patchText} (Codex's patch format). MCP tools fire
// the same hook as <server>_<tool>, which cannot be told from a plugin's
// tool by its form: any tool not in OpenCode's own list is read as an MCP
// tool (mcp__<server>_<tool>), whose arguments the hook judges by what
// they would do. The hook has no ask channel: an ask is a deny saying a
// human must run the call.
package opencode
