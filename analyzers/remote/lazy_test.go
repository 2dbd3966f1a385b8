package remote

import "testing"

// TestPatternsCompile compiles every lazily compiled pattern.
func TestPatternsCompile(t *testing.T) {
	for _, m := range []langRE{fetchRE, evalRE, decodeRE, stdinRE, deleteRE, forkBombRE} {
		for l, re := range m {
			if re != nil && re.get() == nil {
				t.Errorf("language %v: pattern %q did not compile", l, re.src)
			}
		}
	}
	for l, f := range shellFactRE() {
		for _, re := range []*lazyRE{f.connects, f.receives, f.handoff, f.spawns} {
			if re.get() == nil {
				t.Errorf("language %v: fact %q did not compile", l, re.src)
			}
		}
	}
	for _, re := range []*lazyRE{nodeNeedsRecursive, rootArgRE, homeArgRE, rimrafRE, escapeRE, wrapCallRE, awkSystemRE} {
		if re.get() == nil {
			t.Errorf("pattern %q did not compile", re.src)
		}
	}
}
