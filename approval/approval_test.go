package approval_test

import (
	"context"
	"errors"
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

// TestApproveWithoutStore: approving on a machine with no approvals yet
// (not even their directory) says there is nothing to approve.
func TestApproveWithoutStore(t *testing.T) {
	s := approval.Open(filepath.Join(t.TempDir(), "state", "approvals.jsonl"), approval.Options{})
	if _, err := s.Approve(context.Background(), "d1", "test"); !errors.Is(err, approval.ErrNotPending) {
		t.Errorf("approve with no store: %v, want ErrNotPending", err)
	}
}
