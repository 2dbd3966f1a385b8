// toolwall guard for OpenCode: every tool call is checked by
// `toolwall hook opencode` before it runs. Installed by
// `toolwall install opencode`; remove it with `toolwall uninstall opencode`.
// It fails closed: if toolwall cannot be run, times out or answers
// anything but {"action":"allow"}, the call is blocked.
import { spawnSync } from "node:child_process";

const TOOLWALL = "@TOOLWALL@";
const TIMEOUT_MS = 10000;

function ask(payload) {
  const r = spawnSync(TOOLWALL, ["hook", "opencode"], {
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 20,
  });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : "exit status " + r.status + ": " + (r.stderr || "").trim();
    return { action: "deny", reason: "toolwall could not check this call (" + why + "), so it is blocked. Ask the user to check the toolwall installation (toolwall doctor)." };
  }
  try {
    const a = JSON.parse(r.stdout);
    if (a && a.action === "allow") return a;
    if (a && a.action === "deny" && typeof a.reason === "string" && a.reason) return a;
  } catch (_) {}
  return { action: "deny", reason: "toolwall gave an answer the plugin cannot read, so the call is blocked." };
}

export const Toolwall = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const a = ask({ event: "tool.execute.before", tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output.args, directory, worktree });
    if (a.action !== "allow") throw new Error(a.reason);
  },
  "tool.execute.after": async (input, output) => {
    ask({ event: "tool.execute.after", tool: input.tool, sessionID: input.sessionID, callID: input.callID, args: output && output.args, directory, worktree, error: output && output.error ? String(output.error) : "" });
  },
  "chat.message": async (input) => {
    ask({ event: "chat.message", sessionID: input && input.sessionID, directory, worktree });
  },
});
