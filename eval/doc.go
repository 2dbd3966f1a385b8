// Package eval measures a [toolwall.Shield] against files of cases: the
// acceptance format of testdata/spec/FORMAT.md (.jsonl), plain command lists
// (.txt, one command per line, with an expectation given by the caller)
// and peer corpora (.tsv, expected<TAB>command).
//
// Expectations: "allow" passes on allow or warn, "warn" on warn, "ask" on
// ask, "deny" (or "block") on deny, "stop" on ask or deny. A case with a
// rule id passes only when the verdict carries that rule. A case with
// history is run on a fresh shield whose session first records those calls
// as executed.
package eval
