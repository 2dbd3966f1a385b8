package approval_test

import (
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/approval/approvaltest"
)

// TestConformance runs the approvals suite on the JSON Lines store.
func TestConformance(t *testing.T) {
	approvaltest.Run(t, func(t *testing.T, opts approval.Options) approval.Keeper {
		return approval.Open(filepath.Join(t.TempDir(), "approvals.jsonl"), opts)
	})
}
