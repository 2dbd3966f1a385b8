package install

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzApply: whatever a settings file holds, adding toolwall's entries
// never panics; on a file it can read, a second apply changes nothing,
// and removing the entries leaves none of toolwall's.
func FuzzApply(f *testing.F) {
	b, _ := os.ReadFile("testdata/existing.json")
	var files map[string]string
	_ = json.Unmarshal(b, &files)
	for _, c := range files {
		f.Add(c)
	}
	f.Add(`{"hooks": {"PreToolUse": 7}}`)
	f.Add(`[]`)
	o := Options{Home: "/h", Binary: "/usr/bin/toolwall"}
	f.Fuzz(func(t *testing.T, data string) {
		for _, h := range hosts {
			for _, x := range opsFor(h, o) {
				j, ok := x.(jsonOp)
				if !ok {
					continue
				}
				out, _, _, err := j.apply([]byte(data), Command(o.Binary, j.name))
				if err != nil {
					continue
				}
				again, added, updated, err := j.apply(out, Command(o.Binary, j.name))
				if err != nil || added+updated != 0 || string(again) != string(out) {
					t.Fatalf("%s: second apply changed %d/%d (%v)", h.name, added, updated, err)
				}
				stripped, _, err := j.remove(out)
				if err != nil {
					t.Fatalf("%s: remove: %v", h.name, err)
				}
				if _, n, _ := j.remove(stripped); n != 0 {
					t.Fatalf("%s: entries left after remove", h.name)
				}
			}
		}
	})
}
