// Package outfilter is the declarative output-filter pipeline of the tool-executor framework
// ("unified declarative TOML engine with 9 strategy types ... and 25
// embedded built-in rules; user-configurable via a filters.toml placed
// next to config.toml"): it shortens what a shell command printed before
// the model reads it — test runs down to failures and totals, lint output
// grouped by rule, git status and diff compacted, progress noise and
// repeated lines dropped.
//
// A filters.toml holds [[filter]] tables:
//
//	[[filter]]
//	name = "go-test"                  # required
//	match = '(^|[;&|]\s*)go test\b'   # RE2, searched in the command line
//	strategy = "test_summary"         # one of the nine kinds
//	patterns = ['...']                # strip_noise, keep_matching, strip_annotated
//	head = 50                         # truncate
//	tail = 50
//	max_lines = 30                    # test_summary per failure, git_diff per file
//	rule = '(?P<rule>...)'            # group_by_rule
//	examples = 3                      # group_by_rule
//	normalize = true                  # dedup ignores digits
//
// Unknown keys are errors. The first rule that matches applies; a user's
// rules ([Load], then [Pipeline.Then] with [Builtin]) come before the
// built-in ones.
//
// A filter never hides an error exit: when the command exits non-zero,
// stderr is kept whole, stdout lines that look like errors are kept
// whatever the strategy, and the rendered text ends with the exit status.
// A refusal by toolwall (exit status 126, the shell never started) is
// never filtered. [Wrap] applies a pipeline to an executor's shell
// outputs.
package outfilter
