// Package cline is the Cline adapter: the VS Code extension's hook
// scripts (3.x, and 4.x built on Cline's SDK) and the Cline CLI / SDK
// hook files.
//
// Each fact below names the Cline version and the source file (in the
// cline/cline repository) it was read from: extension 4.1.13 and SDK core
// 0.0.78 at commit 21cb8d25, extension 3.89.2 at commit 9c1f9133.
// testdata/golden.json and testdata/payloads.json hold payloads built as
// that code builds them, each naming its version and source.
//
// # Which scripts run
//
// `toolwall install cline` writes executable scripts PreToolUse,
// PostToolUse and UserPromptSubmit into ~/Documents/Cline/Hooks
// (--project: .clinerules/hooks). The extension runs a file of exactly
// that name found there or in a workspace's .clinerules/hooks, if it is
// executable, with "Enable Hooks" on (4.1.13
// apps/vscode/src/core/hooks/hook-factory.ts findUnixHook,
// core/storage/disk.ts getAllHooksDirs). On Windows the extension runs
// only <HookName>.ps1, through `powershell -NoProfile -NonInteractive
// -ExecutionPolicy Bypass -File` (hook-factory.ts findWindowsHook,
// HookProcess.ts getHookLaunchConfig), and the CLI runs a .ps1 hook with
// `powershell -File` (hook-file-hooks.ts): there the install writes
// PreToolUse.ps1, PostToolUse.ps1 and UserPromptSubmit.ps1 instead, into
// Documents\Cline\Hooks under the home and under the folder PowerShell
// reports as MyDocuments (documents-path.ts getDocumentsPath asks it the
// same way; OneDrive moves it). Each hands its input to toolwall as UTF-8
// and exits with toolwall's status. On Linux with
// xdg-user-dir installed the extension's Documents is the XDG documents
// directory, the home when none is set (core/storage/documents-path.ts
// getDocumentsPath): the install writes the scripts there too. The CLI reads
// ~/Documents/Cline/Hooks, ~/.cline/hooks, .clinerules/hooks and
// .cline/hooks, a file named after the hook with or without an extension,
// run by the interpreter of its #! line (0.0.78
// the SDK's shared package, src/storage/paths.ts resolveHooksConfigSearchPaths,
// sdk/packages/core/src/hooks/hook-file-config.ts, hook-file-hooks.ts
// inferHookCommand): one set of scripts serves both, and each call is
// judged once.
//
// # What the scripts receive
//
// Extension, every version (hook-factory.ts completeParams, proto
// HookInput): {clineVersion, hookName ("PreToolUse", "PostToolUse",
// "UserPromptSubmit"), timestamp, taskId, workspaceRoots, userId, model:
// {provider, slug}, preToolUse: {toolName, parameters} | postToolUse:
// {toolName, parameters, result, success, executionTimeMs} |
// userPromptSubmit: {prompt, attachments}}. taskId is the session;
// workspaceRoots[0] the project.
//
//   - 3.x (3.89.2 apps/vscode/src/core/task/ToolExecutor.ts: parameters =
//     the tool block's params, all strings): execute_command {command},
//     write_to_file {path, content}, replace_in_file {path, diff},
//     read_file {path}, web_fetch {url}, browser_action {action, url},
//     use_mcp_tool {server_name, tool_name, arguments (a JSON string)}.
//   - 4.x (4.1.13 apps/vscode/src/sdk/hooks-adapter.ts beforeTool /
//     afterTool: parameters = toStringRecord(input)): the SDK's tool
//     names, and every parameter value that is not a string JSON-encoded
//     as one: run_commands {"commands": "[\"git status\"]"}, read_files
//     {"files": "[{\"path\":…}]"}, editor {path, old_text, new_text,
//     insert_line: "3", a null as "null"}, fetch_web_content {"requests":
//     "[{\"url\":…,\"prompt\":…}]"}, apply_patch {input}, search_codebase,
//     skills, ask_question, submit_and_exit, spawn_agent, team_*. An input
//     that is not an object (a bare command line, a list) arrives with no
//     parameters at all. Such a string is decoded where the tool takes a
//     list or an object, as Cline's runtime does itself
//     (the SDK's shared package, src/parse/json.ts
//     normalizeJsonLikeStringsForSchema); string arguments (a file's
//     content that is JSON, say) are left as they are.
//
// CLI / SDK (0.0.78 sdk/packages/core/src/hooks/hook-file-hooks.ts
// createPayloadBase, runToolCallStart, runToolCallEnd, runPromptSubmit):
// {clineVersion, hookName ("tool_call", "tool_result", "prompt_submit"),
// timestamp, taskId, sessionContext, workspaceRoots, userId, agent_id,
// parent_agent_id, iteration, tool_call: {id, name, input} | tool_result:
// {id, name, input, output, error, durationMs, …} | userPromptSubmit}.
// tool_call.input is the model's input as Cline will run it, read here
// (the payload's preToolUse copy, encoded as above, is not). A
// tool_result with an error is a call that failed.
//
// # How the tools are read
//
// run_commands takes every shape of the SDK's RunCommandsInputUnionSchema
// (0.0.78 sdk/packages/core/src/extensions/tools/schemas.ts; helpers.ts
// normalizeRunCommandsInput): a command line, a list of them, {commands},
// {command}, {cmd}. A string runs through the shell. A {command, args}
// entry with an args list runs the program directly, without a shell
// (executors/bash.ts createShellExecutor: only when the args key is
// present): it is judged as its argument vector, every word quoted, so
// that nothing in it is expanded (rm -rf ~ there deletes ./~). The
// extension may instead type it into a VS Code terminal, quoting only the
// words that hold certain characters (4.1.13
// apps/vscode/src/sdk/vscode-run-commands-tool.ts formatCommandForTerminal):
// that line is judged too. An entry without args, or with args that are
// not a list of strings, is a command line for the shell.
//
// read_files takes every shape of ReadFilesInputUnionSchema (a path, a
// list, {files}, {file_paths}, {paths}, {path | file_path | filePath});
// each file is a Read. editor is a Write of new_text without old_text or
// insert_line, else an Edit; fetch_web_content a WebFetch per request;
// apply_patch the files its patch writes.
//
// A call that cannot be read is refused (input.malformed), never taken
// for a harmless one: a run_commands without a readable command, a
// read_files naming no file, an editor, write or read naming no path, a
// fetch without a URL, a patch naming no file, and a tool toolwall does
// not know that carries a command argument (command, commands, cmd,
// script, …). Other tools go on under their own name with their input as
// it came, as in every adapter. An MCP tool of the SDK is named
// server__tool (sdk/packages/core/src/extensions/mcp/name-transform.ts;
// a name over 64 characters is cut and given a hash suffix) and goes on
// under that name unchanged, its arguments as the payload carries them
// (in the extension, encoded as above); a 3.x use_mcp_tool is
// mcp__server__tool with its arguments decoded. A report of a call that
// ran is recorded even when it cannot be read.
//
// # The answer
//
// JSON on stdout, exit status 0 always: {"cancel": false} lets the call
// run; {"cancel": true, "errorMessage": "…"} refuses it. Both the
// extension (4.1.13 hook-factory.ts: JSON honoured whatever the exit
// status; validateHookOutput wants cancel a boolean, errorMessage a
// string) and the CLI (0.0.78 hook-file-hooks.ts parseHookControl) read
// it so.
//
// A refusal stops the whole task, not the one call: cancel becomes
// {stop: true, reason} (4.1.13 hooks-adapter.ts mapStopControl; 0.0.78
// hook-file-hooks.ts beforeToolResultFromControl), and the runtime throws
// a controlled stop that ends the run as aborted with errorMessage as
// its error (sdk/packages/agents/src/agent-runtime.ts applyStopControl).
// The hooks of all the tool calls of a step run before any of them
// (executeToolCalls), so none of that step's calls run; the model does
// not get the reason as the tool's result. A refusal of one call exists
// only for in-process hooks (AgentBeforeToolResult.skip, or a policy
// that asks for approval); file hooks have none, and "review" is read but
// not acted on. So every refusal's
// errorMessage ends with [Stops], and post events are never answered
// with a cancel. Cline has no ask: an ask is a deny saying a human must
// run the call.
//
// A timeout (30 s in the extension, 120 s in the CLI), a crash, or output
// that is not JSON is logged and the call proceeds (4.1.13 hook-factory.ts
// HOOK_EXECUTION_TIMEOUT_MS, a non-zero exit without JSON thrown and
// caught in hooks-adapter.ts; 0.0.78 hook-file-hooks.ts
// runBlockingHookCommands): hence the Hook's own deadline, well inside.
package cline
