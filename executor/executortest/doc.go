// Package executortest holds conformance checks for executor wrappers
// (the tool-executor framework's "ToolExecutor trait contract"): [Forwarding] calls every
// method of executor.Executor — found by reflection, so a method added to
// the interface is covered without editing the tests — through a wrapper
// around a [Recorder] and fails when the wrapper did not consult its inner
// executor, or answered more permissively than it; [NoEmbedding] fails
// when a struct in a package embeds an Executor, which would let a
// forgotten method fall through unreviewed.
package executortest
