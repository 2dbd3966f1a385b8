// Package analysistest holds the helpers analyzer tests share: reading a
// command the way the gate does and running one analyzer on it, the
// strictest action of a report, and tab-separated case tables under a
// package's testdata directory. After golang.org/x/tools/go/analysis/analysistest.
package analysistest
