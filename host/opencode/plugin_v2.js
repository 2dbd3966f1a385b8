// toolwall guard for OpenCode 2 (the V2 plugin API): every tool call is
// checked by `toolwall hook opencode` before it runs. Installed by
// `toolwall install opencode`; remove it with `toolwall uninstall opencode`.
// It fails closed: if toolwall cannot be run, times out or answers
// anything but {"action":"allow"}, the call is blocked.
//
// The default export is what Plugin.define({id, setup}) returns (define
// returns its argument), written out so the file needs no package. The
// no-op server() lets an OpenCode 1.x that finds this file load it as a
// plugin that does nothing; 1.x runs toolwall's V1 plugin instead.
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

// callID: the host names a call's id `id`; earlier V2 releases `callID`.
const callID = (event) => (event.id !== undefined ? event.id : event.callID);

function failed(event) {
  if (event.status === "error") return String((event.error && event.error.message) || event.error || "error");
  if (event.result && event.result.type === "error") return String(event.result.value || "error");
  return "";
}

export default {
  id: "toolwall",
  async setup(ctx) {
    const at = (ctx && ctx.location) || {};
    const directory = at.directory || process.cwd();
    const worktree = at.worktree || (at.project && at.project.worktree) || directory;
    await ctx.tool.hook("execute.before", async (event) => {
      const a = ask({ event: "tool.execute.before", tool: event.tool, sessionID: event.sessionID, callID: callID(event), args: event.input, directory, worktree });
      if (a.action !== "allow") throw new Error(a.reason);
    });
    // What follows only feeds session memory: a release without these
    // hooks must not keep the guard above from loading.
    try {
      await ctx.tool.hook("execute.after", async (event) => {
        ask({ event: "tool.execute.after", tool: event.tool, sessionID: event.sessionID, callID: callID(event), args: event.input, directory, worktree, error: failed(event) });
      });
    } catch (_) {}
    try {
      await ctx.session.hook("prompt", async (event) => {
        ask({ event: "chat.message", sessionID: event && event.sessionID, directory, worktree });
      });
    } catch (_) {}
  },
  server: async () => ({}),
};
