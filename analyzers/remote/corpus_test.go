package remote

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// TestBenignCorpora runs the analyzer on the benign corpora (NL2Bash,
// tldr; see the corpora's benign/*.README.md) for lines whose
// risk_hint is empty. Every stop must be listed in
// testdata/corpus_stops.tsv with the reason it was kept; an unlisted stop
// fails, and so does a listed line that no longer stops. Lines hinted
// pipe-to-shell are counted. It runs only when TOOLWALL_CORPORA names
// the corpora directory.
func TestBenignCorpora(t *testing.T) {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		t.Skip("TOOLWALL_CORPORA not set")
	}
	reviewed := map[string]bool{}
	for _, r := range readTable(t, "corpus_stops.tsv", 2) {
		if strings.TrimSpace(r.fields[1]) == "" {
			t.Errorf("corpus_stops.tsv:%d: no reason", r.line)
		}
		reviewed[r.fields[0]] = false
	}
	for _, name := range []string{"tldr.jsonl", "nl2bash.jsonl"} {
		f, err := os.Open(filepath.Join(dir, "benign", name))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		total, hits, unreadable, pipes, caught := 0, 0, 0, 0, 0
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var rec struct {
				Cmd      string   `json:"cmd"`
				RiskHint []string `json:"risk_hint"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || seen[rec.Cmd] {
				continue
			}
			if len(rec.RiskHint) > 0 {
				if contains(rec.RiskHint, "pipe-to-shell") {
					pipes++
					if rep, err := analyze(t, rec.Cmd, toolwall.UserContext); err == nil {
						if act, _ := verdict(rep); act.Stops() {
							caught++
						} else {
							t.Logf("%s: pipe-to-shell hint not stopped: %s", name, rec.Cmd)
						}
					}
				}
				continue
			}
			seen[rec.Cmd] = true
			total++
			rep, err := analyze(t, rec.Cmd, toolwall.UserContext)
			if err != nil {
				unreadable++
				continue
			}
			if act, rules := verdict(rep); act.Stops() {
				hits++
				if _, ok := reviewed[rec.Cmd]; !ok {
					t.Errorf("%s: unreviewed stop %v %v: %s", name, act, rules, rec.Cmd)
				} else {
					reviewed[rec.Cmd] = true
				}
			}
		}
		f.Close()
		t.Logf("%s: %d of %d unique commands with empty risk_hint stopped (%d unreadable); %d of %d pipe-to-shell hints stopped", name, hits, total, unreadable, caught, pipes)
	}
	for cmd, hit := range reviewed {
		if !hit {
			t.Errorf("corpus_stops.tsv lists a line that is no longer stopped: %s", cmd)
		}
	}
}
