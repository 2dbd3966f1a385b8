package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated fails when a generated reference under docs/reference
// differs from what the code says now (a rule or a configuration key
// added, changed or removed without `go generate ./internal/docgen`).
func TestGenerated(t *testing.T) {
	docs, err := generate("../..")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range docs {
		path := filepath.Join("../..", name)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (exists %v); run go generate ./internal/docgen", name, err, exists(path))
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/docgen", name)
		}
	}
}
