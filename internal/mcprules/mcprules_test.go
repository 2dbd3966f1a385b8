package mcprules_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/mcprules"
)

// TestList: the proxy's rule ids are sorted, unique, under "mcp.", each
// says what it protects, and none is an id of the gate's catalog (a
// listing that merges both would show it twice, with two meanings).
func TestList(t *testing.T) {
	rs := mcprules.List()
	if len(rs) == 0 {
		t.Fatal("no rules")
	}
	gate := map[string]bool{}
	for _, r := range engine.Rules(nil) {
		gate[r.ID] = true
	}
	var ids []string
	for _, r := range rs {
		if !strings.HasPrefix(r.ID, "mcp.") || r.Protects == "" {
			t.Errorf("rule %+v", r)
		}
		if gate[r.ID] {
			t.Errorf("%s is also a rule id of the gate", r.ID)
		}
		ids = append(ids, r.ID)
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("ids not sorted and unique: %v", ids)
	}
	if !slices.Contains(ids, mcprules.ToolListChanged) {
		t.Errorf("%s is not listed", mcprules.ToolListChanged)
	}
}
