// Command docgen writes the references of docs/reference that are
// generated from the code, so they cannot go stale: rules.md from the
// rule catalog (the same one `toolwall rules` lists) and configuration.md
// from the configuration types of package policy, their TOML keys and
// their doc comments. Run it with
//
//	go generate ./internal/docgen
//
// after changing a rule or a configuration key; TestGenerated fails
// while a reference differs from what this command writes.
package main

//go:generate go run . -root ../..

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", "../..", "the repository's root directory")
	flag.Parse()
	if err := write(*root); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

// write writes every generated reference under root.
func write(root string) error {
	docs, err := generate(root)
	if err != nil {
		return err
	}
	for name, b := range docs {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate returns each generated reference by its path relative to root.
func generate(root string) (map[string][]byte, error) {
	cfg, err := configReference(filepath.Join(root, "policy"))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		filepath.Join("docs", "reference", "rules.md"):         rulesReference(),
		filepath.Join("docs", "reference", "configuration.md"): cfg,
	}, nil
}
