package persist

import "github.com/toolwall/toolwall/analyzers/files"

// This file holds every call into package files, whose knowledge of what
// a path is (protected, sensitive, system) is moving to a package of its
// own; the rest of the analyzer uses the types below.

// level orders what a write to a path means.
type level uint8

// Levels of a write, weakest first.
const (
	levelNone      level = iota // nothing: the project, /tmp, the rest of home
	levelSystem                 // under a system root
	levelSensitive              // runs code later for this user (shell rc files, git hooks)
	levelProtected              // runs code at boot, at login, on a schedule or as root, or decides who may log in
)

// judgment is what a write to one path means.
type judgment struct {
	level level
	// why completes "it writes PATH, which …".
	why string
	// system: the path is under a system root.
	system bool
	// advice replaces the rule's usual advice when set.
	advice string
}

// judgePath judges a write to p (absolute, clean) for a user whose home
// is home, working on project: files.Judge, then this package's own
// places (places.go) where they say more.
func judgePath(p, home, project string) judgment {
	if j, ok := sshPlace(p, home); ok {
		return j
	}
	f := files.Judge(p, home, project)
	j := judgment{why: f.Why, system: f.System, advice: f.Advice}
	switch f.Rule {
	case files.RuleWriteProtected:
		j.level = levelProtected
	case files.RuleWriteSensitive:
		j.level = levelSensitive
	case files.RuleWriteSystem:
		j.level = levelSystem
	}
	if j.level < levelProtected {
		if e, ok := extraPlace(p, home, project); ok && e.level > j.level {
			e.system = j.system
			j = e
		}
	}
	return j
}
