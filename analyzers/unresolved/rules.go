package unresolved

import (
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
)

// rules are the rule ids the unresolved analyzer reports.
var rules = []analysis.Rule{
	{ID: RuleCommand, Action: toolwall.Ask, Protects: "against a program only known at run time, or privilege raised through a variable", Example: "$CMD -rf ~"},
}
