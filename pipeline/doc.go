// Package pipeline runs tool calls through middleware: the tool shield's tool
// pipeline, with the safety-shield layer, renaming, memoizing and the
// tool-health circuit breaker.
//
// A [Tool] executes a [Request] and returns a [Result]; a soft error (the
// model sees it and the run goes on) is a Result with IsError set, a Go
// error is a hard failure. A [Middleware] is a value: a name, a [Kind] and
// a Wrap function. A [Builder] stacks middleware around a core tool, the
// first registered layer outermost, and checks the tool shield's install-order
// rules when it builds:
//
//   - the shield sits inside every renaming layer ("shield-inside-rename"),
//     so aliases are judged under the name the registry executes;
//   - the shield sits outside every memoizing layer
//     ("shield-outside-memoize"), so a cached repeat is still judged and
//     recorded;
//   - at most one shield layer ("shield-exactly-once"), so calls are not
//     judged and recorded twice.
//
// A typical stack, outermost first:
//
//	Rename(aliases) → breaker.Middleware() → Shield(s, nil) → memo → Registry
//
// With the breaker outside the shield, shield refusals count as failures
// and, after enough of them, the breaker answers "temporarily unavailable"
// before the shield is asked ("Interactions").
//
// Every type here is safe for concurrent use once built: an agent may run
// tool calls in parallel.
package pipeline
