package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLinks: every relative link of README.md and of the files under
// docs/ names a file that exists and, with a #fragment, a heading of
// that Markdown file (GitHub's anchors: lower case, punctuation dropped,
// spaces to hyphens). A file moved or a heading renamed fails here.
func TestLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files := []string{filepath.Join(root, "README.md")}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?s)```.*?```")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := fence.ReplaceAllString(string(b), "")
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			p, frag, _ := strings.Cut(target, "#")
			path := f
			if p != "" {
				path = filepath.Join(filepath.Dir(f), p)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: no such file", f, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchors(t, path)[frag] {
				t.Errorf("%s: link %s: no such heading", f, target)
			}
		}
	}
}

// anchors are the heading anchors of a Markdown file.
func anchors(t *testing.T, path string) map[string]bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	drop := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	for _, l := range strings.Split(string(b), "\n") {
		h := strings.TrimLeft(l, "#")
		if h == l || !strings.HasPrefix(h, " ") {
			continue
		}
		a := strings.ToLower(strings.TrimSpace(h))
		out[strings.ReplaceAll(drop.ReplaceAllString(a, ""), " ", "-")] = true
	}
	return out
}
