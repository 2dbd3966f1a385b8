// Package host drives toolwall from agent hosts' hook protocols: Claude
// Code, Codex, Gemini CLI, Cursor, GitHub Copilot CLI, OpenCode, Cline,
// Windsurf, Factory Droid, Kiro CLI, Qwen Code and Amp (one adapter
// package each under host/).
//
// [Hook] is what every host's hook does, written once: read the payload
// from stdin (bounded, a UTF-8 byte order mark stripped), decode it with
// the host's [Adapter], decide within a deadline, turn an ask the host
// cannot show into a deny that says a human must run the call, consult
// approvals, write the audit record, remember executed calls for chain
// rules (session memory), advance turns where the host reports them, and
// encode the answer in the host's contract. It never panics and never
// fails in a way the host would read as "allow": a malformed or oversized
// payload, a crash or a timeout inside the gate are answered with a deny
// (fail closed: hosts treat a crashed hook as "allow").
//
// An [Adapter] only decodes a payload into toolwall calls (tool names
// mapped onto toolwall's tool kinds: Bash or PowerShell for a shell,
// Write, Edit, MultiEdit, Read, WebFetch, MCP tools as mcp__server__tool,
// anything else under its own name) and encodes a verdict; it holds no
// rules (one decision point). The host protocols and their sources are
// in each adapter's package documentation; each adapter's doc.go names the
// facts it relies on.
//
// An MCP tool's call (named mcp__server__tool whatever the host's own
// spelling; see [MCPCall]) is judged as the MCP proxy judges it: its
// arguments are mapped onto the calls toolwall knows by package mcpargs
// (a command is a Bash call, a path written a Write, …) and judged
// beside the MCP call itself; arguments that cannot be read are refused.
//
// Where a host runs on Windows, the call's paths (C:\Users\me\proj) are
// read in the POSIX namespace the analyzers judge (/Users/me/proj; see
// paths.FromWindows) and its shell commands as PowerShell.
package host
