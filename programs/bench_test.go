package programs_test

import (
	"os"
	"testing"

	"github.com/toolwall/toolwall/programs"
)

// BenchmarkLoad reads the whole catalog, as the first Lookup of a
// process does.
func BenchmarkLoad(b *testing.B) {
	fsys := os.DirFS(".")
	for b.Loop() {
		if _, err := programs.LoadFS(fsys, "catalog"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse reads one typical command line through its entry.
func BenchmarkParse(b *testing.B) {
	argv := tokens(b, "curl -fsSL -H 'Accept: x' https://x.example/install.sh -o /tmp/i.sh")
	p := programs.Lookup("curl")
	for b.Loop() {
		programs.Parse(p, argv)
	}
}

// BenchmarkParseNear reads a git command line whose long options the
// entry does not list (each is looked for as a near spelling, one nearly
// spells --hard).
func BenchmarkParseNear(b *testing.B) {
	argv := tokens(b, "git reset --no-recurse --quiet-ish --HARD HEAD~1")
	p := programs.Lookup("git")
	for b.Loop() {
		programs.Parse(p, argv)
	}
}

// BenchmarkFirstLookup is what a fresh process pays to find one entry:
// index the embedded catalog's names and read one entry.
func BenchmarkFirstLookup(b *testing.B) {
	for b.Loop() {
		c := programs.OpenBuiltinForBench()
		if c.Lookup("rm") == nil {
			b.Fatal("no rm")
		}
	}
}

// BenchmarkFirstLookupGit is BenchmarkFirstLookup for git, the largest
// entry (a fresh process's first git command pays for it).
func BenchmarkFirstLookupGit(b *testing.B) {
	for b.Loop() {
		c := programs.OpenBuiltinForBench()
		if c.Lookup("git") == nil {
			b.Fatal("no git")
		}
	}
}
