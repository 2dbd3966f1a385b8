// Package mcpproxy is toolwall's MCP proxy: an MCP server in front of
// another MCP server, built on the official SDK
// (github.com/modelcontextprotocol/go-sdk) on both sides, that judges
// every tools/call before it is forwarded. Agents built on an SDK, and
// desktop clients, reach tools through MCP servers no hook sees; the
// proxy puts the same gate in that path. It holds no rules (DESIGN
// principle 6): it decodes, calls the engine, encodes.
//
// A call to tool T of the server named N has the tool id "mcp:N/T" in
// decisions and audit records. Its arguments are mapped by [mcpargs.Extract] onto
// the calls the engine knows (a shell command is a Bash call, a path
// written a Write, a path read a Read, a URL a WebFetch, a delete
// "rm -rf -- PATH", a move "mv"), so they go through the same analysis
// and rule ids as the hooks; the strictest verdict decides. A tool that
// runs commands or code, or types keystrokes into a terminal, has every
// string argument judged as a command (code as its language says),
// whatever its name, except the notes a caller writes about the call
// (a top-level description, title, reason, …). A deny comes
// back as a tool result with isError and the reason; an ask is put to the
// client's user through MCP elicitation when the client supports it, and
// is otherwise refused with a reason that says a human must allow it. The
// upstream server never sees a refused call.
//
// tools/list passes through unchanged. Tool descriptions and annotations
// are untrusted data: they are never used to decide. A tool list that
// changes after the first listing (a tool's name, description, schemas or
// annotations; a tool added or removed) is reported in the log and the
// audit log under [RuleToolListChanged] (a "rug pull") and passed on to
// the client as notifications/tools/list_changed.
//
// Served over stdio ([Proxy.Lines]), the proxy screens each line of the
// client before the SDK reads it: the SDK ends the connection on the
// first message it cannot decode, so a line that is not a JSON-RPC 2.0
// message is answered with a parse error (-32700) or an invalid request
// error (-32600), a tools/call nested deeper than [MaxDepth] with a
// refusal, and the proxy keeps serving.
//
// Calls that ran are recorded in session memory as the hook records them,
// under one session per proxy, so chains across calls (download, then
// run) are caught here too.
package mcpproxy
