package advisor_test

import (
	"fmt"

	"github.com/toolwall/toolwall/advisors/advisor"
)

// The answer counts only as a number alone on a line; a reasoning span
// before it is left out.
func ExampleParsePercent() {
	fmt.Println(advisor.ParsePercent("<think>\nmaybe 10\n</think>\n85%"))
	_, err := advisor.ParsePercent("I would say 85% likely")
	fmt.Println(err)
	// Output:
	// 85 <nil>
	// advisor: the answer holds no percentage: "I would say 85% likely"
}
