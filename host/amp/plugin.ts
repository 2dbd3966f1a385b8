// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now
// toolwall guard for Amp: every tool call is checked by `toolwall hook amp`
// before it runs. Installed by `toolwall install amp`; remove it with
// `toolwall uninstall amp`. Amp loads it only when started with PLUGINS=all
// and only with the acknowledgement comment above as its first line. It
// fails closed: if toolwall cannot be run, times out or answers anything
// but {"action":"allow"}, the call is rejected. (Plain JavaScript, valid
// TypeScript.)
import { spawnSync } from "node:child_process";

const TOOLWALL = "@TOOLWALL@";
const TIMEOUT_MS = 10000;

const reject = (message) => ({ action: "reject-and-continue", message });

// check asks toolwall about one tool.call event. shell is what Amp's own
// helper reads as the shell command the call runs ({command, dir}, or null
// when it runs none).
export function check(event, workspaceRoot, shell) {
  const r = spawnSync(TOOLWALL, ["hook", "amp"], {
    input: JSON.stringify({ event: "tool.call", tool: event.tool, input: event.input, thread: event.thread, toolUseID: event.toolUseID, workspaceRoot, shell: shell || null }),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 20,
  });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : "exit status " + r.status;
    return reject("toolwall could not check this call (" + why + "), so it is rejected. Ask the user to check the toolwall installation (toolwall doctor).");
  }
  try {
    const a = JSON.parse(r.stdout);
    if (a && a.action === "allow") return { action: "allow" };
    if (a && a.action === "deny" && typeof a.reason === "string" && a.reason) return reject(a.reason);
  } catch (_) {}
  return reject("toolwall gave an answer the plugin cannot read, so the call is rejected.");
}

export default function (amp) {
  amp.on("tool.call", (event, ctx) => {
    const root = (ctx && ctx.system && ctx.system.workspaceRoot) || (amp.system && amp.system.workspaceRoot) || "";
    let shell = null;
    try {
      if (amp.helpers && typeof amp.helpers.shellCommandFromToolCall === "function") shell = amp.helpers.shellCommandFromToolCall(event);
    } catch (e) {
      return reject("Amp could not read the shell command of this call, so toolwall rejects it.");
    }
    return check(event, root, shell);
  });
}
