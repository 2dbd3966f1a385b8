package remote

import (
	"testing"

	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// TestBuildTool: buildTool names every program root buildInputs finds
// inputs for (build skips the others without looking), tried with every
// catalog program and the subcommands the build tools take.
func TestBuildTool(t *testing.T) {
	tails := []string{"", " install", " install .", " run x", " run .", " test", " build", " check", " -m pytest", " ci"}
	found := map[string]bool{}
	for _, p := range programs.Builtin().Programs() {
		for _, tail := range tails {
			s, err := shell.Read(p.Name+tail, shell.Options{Cwd: "/w"})
			if err != nil || len(s.Commands) == 0 {
				continue
			}
			c := s.Commands[0]
			if len(buildInputs(c, "/w")) == 0 {
				continue
			}
			found[rootName(c)] = true
			if !buildTool(rootName(c)) {
				t.Errorf("%q has build inputs, but buildTool(%q) is false", p.Name+tail, rootName(c))
			}
		}
	}
	if len(found) < 8 {
		t.Errorf("only %v had build inputs: the test reads too little", found)
	}
}
