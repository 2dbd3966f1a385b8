package analysis

import (
	"testing"

	"github.com/toolwall/toolwall"
)

// TestTagOnce: an effect reported twice (two analyzers that see it) is
// listed once; effects that differ in any field are all kept.
func TestTagOnce(t *testing.T) {
	var r Report
	r.Tag(toolwall.TagExecLocal, "/w/x.sh", "")
	r.Tag(toolwall.TagExecLocal, "/w/x.sh", "")
	r.Tag(toolwall.TagExecLocal, "/w/y.sh", "")
	r.Tag(toolwall.TagExecLocal, "/w/x.sh", "via bash")
	if len(r.Effects) != 3 {
		t.Fatalf("effects %+v, want 3", r.Effects)
	}
}
