// toolwall guard for Amp: every tool call is checked by `toolwall hook amp`
// before it runs. Installed by `toolwall install amp`; remove it with
// `toolwall uninstall amp`. It fails closed: if toolwall cannot be run,
// times out or answers anything but {"action":"allow"}, the call is
// rejected. (Plain JavaScript, valid TypeScript.)
import { spawnSync } from "node:child_process";

const TOOLWALL = "@TOOLWALL@";
const TIMEOUT_MS = 10000;

export function check(event, workspaceRoot) {
  const r = spawnSync(TOOLWALL, ["hook", "amp"], {
    input: JSON.stringify({ event: "tool.call", tool: event.tool, input: event.input, thread: event.thread, workspaceRoot }),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 20,
  });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : "exit status " + r.status;
    return { action: "reject-and-continue", message: "toolwall could not check this call (" + why + "), so it is rejected. Ask the user to check the toolwall installation (toolwall doctor)." };
  }
  try {
    const a = JSON.parse(r.stdout);
    if (a && a.action === "allow") return { action: "allow" };
    if (a && a.action === "deny" && typeof a.reason === "string" && a.reason) return { action: "reject-and-continue", message: a.reason };
  } catch (_) {}
  return { action: "reject-and-continue", message: "toolwall gave an answer the plugin cannot read, so the call is rejected." };
}

export default function (amp) {
  amp.on("tool.call", (event, ctx) => check(event, (ctx && ctx.system && ctx.system.workspaceRoot) || (amp.system && amp.system.workspaceRoot) || ""));
}
