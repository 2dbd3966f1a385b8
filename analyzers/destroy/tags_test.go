package destroy

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

func TestTags(t *testing.T) {
	f, err := os.Open("testdata/tags.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	an := New(Options{SkipGit: true})
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		cols := strings.Split(l, "\t")
		if len(cols) != 4 {
			t.Fatalf("tags.tsv:%d: want 4 columns, got %q", n, l)
		}
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
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}
