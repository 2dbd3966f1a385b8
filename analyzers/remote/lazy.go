package remote

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. The one-liner
// rules hold some seventy patterns that only commands with interpreter
// code need, while the hook process pays every package's init on every
// tool call (about 0.6 ms for these patterns compiled eagerly).
// TestPatternsCompile compiles them all, so a bad pattern still fails
// the tests rather than a user's call.
type lazyRE struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRegexp(src string) *lazyRE { return &lazyRE{src: src} }

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// MatchString reports whether s contains a match.
func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

// FindAllStringIndex is regexp.Regexp.FindAllStringIndex.
func (l *lazyRE) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}

// FindString is regexp.Regexp.FindString.
func (l *lazyRE) FindString(s string) string { return l.get().FindString(s) }
