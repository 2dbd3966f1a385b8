package destroy

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// TestBenignCorpora measures false positives on the benign corpora
// (NL2Bash, tldr-pages) lines whose risk_hint is empty, this analyzer
// alone (no git check, no existence oracle). Every stop (ask or deny)
// must be listed in testdata/corpus_stops.txt, where each was read and
// kept; any other fails. It runs only when TOOLWALL_CORPORA names the
// corpora directory (they are not part of this repository), e.g.
//
//	TOOLWALL_CORPORA=<the public corpora> go test -run BenignCorpora -v ./analyzers/destroy
func TestBenignCorpora(t *testing.T) {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		t.Skip("TOOLWALL_CORPORA not set")
	}
	data, err := os.ReadFile(filepath.Join("testdata", "corpus_stops.txt"))
	if err != nil {
		t.Fatal(err)
	}
	reviewed := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			reviewed[l] = true
		}
	}
	an := New(Options{SkipGit: true})
	for _, name := range []string{"nl2bash.jsonl", "tldr.jsonl"} {
		f, err := os.Open(filepath.Join(dir, "benign", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		seen := map[string]bool{}
		lines, unparsed, flagged, denied := 0, 0, 0, 0
		for sc.Scan() {
			var rec struct {
				Cmd      string   `json:"cmd"`
				RiskHint []string `json:"risk_hint"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			if len(rec.RiskHint) > 0 || seen[rec.Cmd] {
				continue
			}
			seen[rec.Cmd] = true
			lines++
			r, err := analyze(t, an, rec.Cmd, toolwall.UserContext)
			if err != nil {
				unparsed++
				continue
			}
			if act := fuse(r); act.Stops() {
				flagged++
				if act == toolwall.Deny {
					denied++
				}
				if !reviewed[rec.Cmd] {
					t.Errorf("%s: unreviewed stop %s %s: %s", name, act, r.Findings[0].Rule, rec.Cmd)
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d lines with empty risk_hint, %d unparsed, %d stopped (%.2f%%), %d denied (%.2f%%)",
			name, lines, unparsed, flagged, 100*float64(flagged)/float64(max(lines, 1)), denied, 100*float64(denied)/float64(max(lines, 1)))
	}
}
