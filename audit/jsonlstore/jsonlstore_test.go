package jsonlstore_test

import (
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/audittest"
	"github.com/toolwall/toolwall/audit/jsonlstore"
)

func TestConformance(t *testing.T) {
	audittest.Run(t, func(t *testing.T, dir string) audit.Store {
		return jsonlstore.Open(filepath.Join(dir, "audit.jsonl"))
	})
}
