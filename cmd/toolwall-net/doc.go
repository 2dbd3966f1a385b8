// Command toolwall-net runs toolwall's long-running network drivers: the
// HTTP decision server and the MCP proxy. They live in a binary of their
// own so that the hook, which starts a process per tool call, never pays
// for their libraries' start-up (Prometheus, pgx and the MCP SDK cost
// about 2 ms of package initialization); `toolwall serve` and
// `toolwall mcp-proxy` run this binary.
//
//	toolwall-net serve [--listen 127.0.0.1:8765] [--store sqlite|memory|postgres]
//	toolwall-net mcp-proxy [--name NAME] -- <server command> [args…]
//	toolwall-net mcp-proxy [--name NAME] --upstream URL
//	toolwall-net audit [--store local|postgres] [filters…]   (toolwall audit --store postgres)
//	toolwall-net audit-serve [--store local|postgres]        (toolwall audit serve)
package main
