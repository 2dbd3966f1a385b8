// Package mcpargs maps the arguments of an MCP tool call onto the tool
// calls toolwall judges ([Extract]): a shell command is a Bash call, a
// path written a Write, a path read a Read, a URL a WebFetch, a delete
// "rm -rf -- PATH", a move "mv". It is the one reading of MCP arguments:
// the MCP proxy (package mcpproxy) judges a tools/call through it, and
// the hooks (package host) judge a host's MCP tool call through it, so
// the same call meets the same analysis and rule ids whichever way it
// comes. It holds no rules; descriptions and annotations of a tool are
// never consulted.
package mcpargs
