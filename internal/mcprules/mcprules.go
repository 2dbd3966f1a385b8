package mcprules

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// Analyzer is the name the proxy's own findings carry
// (toolwall.Finding.Analyzer) and `toolwall rules` lists them under.
const Analyzer = "mcpproxy"

// ToolListChanged is the rule id under which the proxy reports and
// records a tool list that changed after the first listing: a tool whose
// name, description, schemas or annotations differ, a tool added or
// removed (a "rug pull"). Its findings warn: the change is logged and
// recorded in the audit log, and the client is told the list changed.
const ToolListChanged = "mcp.tool-list-changed"

// List returns the proxy's own rules, sorted by id. Each call returns a
// new slice (no package-level state).
func List() []analysis.Rule {
	return []analysis.Rule{
		{ID: ToolListChanged, Action: toolwall.Warn, Protects: "against an MCP server changing a tool's name, description, schema or annotations, or adding or removing tools, after the first listing (a \"rug pull\" that smuggles new instructions to the model)", Example: ""},
	}
}
