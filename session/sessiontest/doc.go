// Package sessiontest checks that a [session.Store] behaves as the
// interface documents, in the style of testing/slogtest: a store's own
// tests call [Run] with a constructor, and the same operations run against
// every implementation with the same expected results.
//
// The operations live in scripts under testdata/ (embedded, so the suite
// runs from any package). A script holds cases; each case starts a fresh
// store and runs one operation per line, checking the result written after
// "=>". See [Run] for the language.
package sessiontest
