package destroy

import (
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

func TestTags(t *testing.T) {
	an := New(Options{SkipGit: true})
	for _, r := range rows.Read(t, "testdata/tags.tsv", 4) {
		n := r.Line
		cols := r.Fields
		tag, neg := strings.CutPrefix(cols[0], "!")
		want := toolwall.Effect{Tag: toolwall.Tag(tag), Path: dash(cols[1]), Detail: dash(cols[2])}
		r, err := analyze(t, an, cols[3], toolwall.UserContext)
		if err != nil {
			t.Fatalf("tags.tsv:%d: %v", n, err)
		}
		found := false
		for _, e := range r.Effects {
			if e.Tag == want.Tag && e.Path == want.Path && (neg || e.Detail == want.Detail) {
				found = true
			}
		}
		if found == neg {
			t.Errorf("tags.tsv:%d: %q: effects %+v; want %s%+v", n, cols[3], r.Effects, map[bool]string{true: "no ", false: ""}[neg], want)
		}
	}
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}
