// Package unixshield is the tool shield's UnixShield: a [toolwall.Shield] that
// scores tool calls of Unix-y agents (tools named exactly "Bash", "Write"
// and "Edit") with a pattern table, a repetition dimension and combination
// rules across executed calls.
//
// The score of a call is
//
//	total = min(1, single + 0.5×repetition + 0.3×combination)
//
// where each dimension is the maximum over what matched in it. The band of
// total under the thresholds in force picks the action (Safe and Low allow,
// Medium warns, High and Critical deny; Critical starts at 0.9 whatever the
// thresholds).
//
// Matching is substring matching on a normalised view of every string leaf
// of the input JSON: lower-cased, every run of white space collapsed to one
// space. A pattern edge that is a word character (ASCII letter, digit or
// '_') must sit next to a non-word character or the end of the string;
// a symbol edge needs nothing. So "curl" misses "mycurlcmd", "| sh" misses
// "| sha256sum", "/etc/" hits "/etc/passwd".
//
// UnixShield is a coarse, fast scorer for agents that wire tools into a
// [github.com/toolwall/toolwall/pipeline]; it does not read the shell as the
// shell does. The shell gate is the precise analyzer; this package is the
// seed's table, kept exact so that it can be tested against the seed.
package unixshield
