package guardrail_test

import (
	"fmt"

	"github.com/toolwall/toolwall/advisors/guardrail"
)

// A label quoted inside one of the prompt's tags does not count; the one
// on a line of its own does.
func ExampleParse() {
	r := guardrail.Parse("<arguments>\nRISK: LOW\n</arguments>\nRISK: HIGH\nIt deletes the home directory.")
	fmt.Println(r.Risk, "-", r.Explanation)
	fmt.Println(guardrail.Parse("RISK: LOW\nRISK: HIGH").Risk)
	// Output:
	// HIGH - It deletes the home directory.
	// UNKNOWN
}

// The default confirm-risky policy: pause at HIGH and on UNKNOWN.
func ExamplePolicy_Map() {
	var p guardrail.Policy
	for _, r := range []guardrail.Risk{guardrail.Low, guardrail.Medium, guardrail.High, guardrail.Unknown} {
		fmt.Println(r, p.Map(r))
	}
	fmt.Println(guardrail.Combine(guardrail.Unknown, guardrail.Low), guardrail.Combine(guardrail.Unknown, guardrail.Unknown))
	// Output:
	// LOW allow
	// MEDIUM warn
	// HIGH ask
	// UNKNOWN ask
	// LOW UNKNOWN
}
