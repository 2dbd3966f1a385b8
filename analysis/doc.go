// Package analysis defines the interface between the gate and the
// analyzers: an [Analyzer] is a value (after golang.org/x/tools/go/analysis)
// that looks at one [Input] and adds findings and risk-tag effects to a
// [Report]. Analyzers are pure: no I/O except where their doc says so,
// deterministic, safe for concurrent use.
//
// A [Later] analyzer belongs to the gate's later stage: it may call out (a
// model, a service), take time, fail or be cancelled. It reports findings
// and [toolwall.Opinion]s to a [LaterReport], or an error, which the gate
// never reads as safe (see Later.OnError).
package analysis
