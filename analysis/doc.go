// Package analysis defines the interface between the gate and the
// analyzers: an [Analyzer] is a value (after golang.org/x/tools/go/analysis)
// that looks at one [Input] and adds findings and risk-tag effects to a
// [Report]. Analyzers are pure: no I/O except where their doc says so,
// deterministic, safe for concurrent use.
package analysis
