// Package hosttest is the conformance suite every host adapter passes:
// golden payloads in and answers out (testdata/golden.json of the
// adapter's package), malformed and oversized payloads, an unknown tool,
// a crash inside the gate, a deny and an ask over every tool call of the
// goldens, and a fuzz target. Each adapter's test supplies a [View]: how
// its host reads a hook's answer, written from the host's documentation
// and source (the agent-host protocol notes), so the suite checks what
// the host will do, not only what toolwall printed.
package hosttest
