package provenance_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/provenance"
)

// TestFold folds the records of testdata/fold.json (turns 1, 2, …) and
// checks each path's origin, and a flow's story.
func TestFold(t *testing.T) {
	b, err := os.ReadFile("testdata/fold.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name    string
		Records [][]struct {
			Tag  toolwall.Tag
			Path string
			Flow provenance.Flow
		}
		Lookup map[string]string
		Story  []string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			m := &provenance.Map{}
			for i, r := range c.Records {
				var effects []toolwall.Effect
				for _, e := range r {
					effects = append(effects, toolwall.Effect{Tag: e.Tag, Path: e.Path, Detail: e.Flow.Encode()})
				}
				for _, e := range m.Apply(effects, i+1, "call") {
					if e.Tag == provenance.TagDerive || e.Tag == provenance.TagDeriveTree {
						t.Errorf("Apply left a derive: %v", e)
					}
				}
			}
			for p, want := range c.Lookup {
				f, ok := m.Lookup(p)
				if got := string(f.Root().Kind); got != want || ok != (want != "") {
					t.Errorf("Lookup(%s) = %q %v, want %q", p, got, ok, want)
				}
			}
			if len(c.Story) == 2 {
				f, _ := m.Lookup(c.Story[0])
				if got := f.Story(c.Story[0]); got != c.Story[1] {
					t.Errorf("Story:\n got %s\nwant %s", got, c.Story[1])
				}
			}
		})
	}
}

// TestEncode: a flow survives its encoding, and a detail cut short still
// names its origin.
func TestEncode(t *testing.T) {
	f := provenance.Flow{
		{Kind: provenance.Network, Via: "curl", From: "https://h/x\x1f", Path: "/w/x", Turn: 3, Call: "curl -o x https://h/x"},
		{Kind: provenance.Decoded, Via: "base64 -d", Path: "/w/y"},
	}
	got := provenance.Decode(f.Encode())
	if len(got) != 2 || got[0].From != "https://h/x" || got[0].Turn != 3 || got[1].Kind != provenance.Decoded || got[1].Call != "" {
		t.Errorf("round trip: %#v", got)
	}
	if r := provenance.Decode(f.Encode()[:4]).Root(); r.Kind != "netw" && r.Kind != provenance.Network {
		t.Errorf("cut detail: %#v", r)
	}
	if r := provenance.Decode(f.Encode()[:9]).Root(); r.Kind != provenance.Network {
		t.Errorf("cut detail: %#v", r)
	}
}

// TestAutoRun reads testdata/autorun.tsv: which places run later, and the
// commands content written there would run.
func TestAutoRun(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/autorun.tsv", 4) {
		f := r.Fields
		_, body, ok := provenance.AutoRun(f[0], rows.Unescape(f[1]))
		if ok != (f[2] == "yes") || ok && body != rows.Unescape(f[3]) {
			t.Errorf("AutoRun(%s, %q) = %q %v, want %q %s", f[0], f[1], body, ok, f[3], f[2])
		}
	}
}
