// Package mcprules is the catalog of the rule ids the MCP proxy
// (package mcpproxy) reports itself, beside the ids of the analysis its
// calls go through, so that `toolwall rules` lists the hooks' and the
// proxy's rules together ("Hooks and the proxy share rule ids,
// so `toolwall rules` covers both").
//
// It is a package of its own, importing neither the MCP SDK nor
// anything that initializes at start-up, because the toolwall binary the
// hook starts for every tool call links it to list the catalog; mcpproxy
// lives in toolwall-net.
package mcprules
