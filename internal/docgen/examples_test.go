package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/policy"
)

// TestConfigExamples: every TOML block of README.md and of the files
// under docs/ is a configuration toolwall loads (known keys, valid
// values, [[rule]] examples that match), so an example cannot drift from
// the configuration it shows.
func TestConfigExamples(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md")}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```toml\n(.*?)```")
	n := 0
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range block.FindAllStringSubmatch(string(b), -1) {
			n++
			if _, err := policy.Parse(f, []byte(m[1])); err != nil {
				t.Errorf("%s, TOML block %d: %v\n%s", f, i+1, err, strings.TrimSpace(m[1]))
			}
		}
	}
	if n == 0 {
		t.Error("no TOML block found")
	}
}
