// Package provenance says where bytes come from: every file path a
// session's calls touch gets origins — the network (with its URL), a
// secret, the agent's own writing (with whether toolwall would stop its
// content), the project — and each program that copies, extracts,
// decodes or rewrites a file passes its input's origin on with a step
// added (an archive of, decoded from, transformed from). Programs
// declare how they pass origins on in the program catalog ("flow" and
// "runs" directives, package programs); the flow analyzer turns a call
// into effects that carry origins, and the gate folds a session's
// effects in order into a [Map] and checks the sinks — running a file,
// building a directory, installing a package, a place that runs later,
// sending a file out — against it.
//
// The package is pure: it encodes flows into effect details, folds
// effects into a map and writes the sentence a reason quotes.
package provenance
