// Package cline is the Cline adapter: the VS Code extension's hooks and
// the Cline CLI / SDK file hooks.
//
// Protocol (cline/cline .clinerules/hooks/README.md,
// apps/vscode/src/core/hooks/hook-factory.ts, sdk/examples/hooks,
// sdk/packages/core/src/hooks/hook-file-hooks.ts and
// sdk/packages/core/src/extensions/tools/definitions.ts;
// shared/reference/agent-hosts.md §7). The extension runs an executable
// named PreToolUse (PostToolUse, UserPromptSubmit) with
// {hookName, taskId, workspaceRoots, preToolUse: {toolName, parameters}}
// (postToolUse: {…, success}; userPromptSubmit: {prompt}), parameter
// values as strings. Tools: execute_command {command}, write_to_file
// {path, content}, replace_in_file {path, diff}, read_file {path},
// web_fetch {url}, use_mcp_tool {server_name, tool_name, arguments}. The
// CLI / SDK sends {hookName: "tool_call", taskId, workspaceRoots,
// tool_call: {id, name, input}} ("tool_result" after) with tools
// run_commands {commands | command | cmd, or a bare string}, read_files
// {files: [{path}]}, editor {path, old_text, new_text}, write_file,
// apply_patch, fetch_web_content {requests: [{url}]}.
//
// The answer is JSON on stdout, honoured whatever the exit status:
// {"cancel": true, "errorMessage": "…"} blocks, {"cancel": false} lets the
// call run. Cline has no ask ("review" is undocumented): an ask is a deny
// saying a human must run the call. A timeout, a crash or output that is
// not JSON is logged and the call proceeds, hence the Hook's own deadline.
// The extension's hooks do not run on Windows.
package cline
