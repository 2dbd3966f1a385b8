package remote

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
)

// TestBenignCorpora counts ask/deny findings on the benign corpora
// (NL2Bash, tldr; see /work/shared/corpora/benign/*.README.md) for lines
// whose risk_hint is empty. It runs only when TOOLWALL_CORPORA names the
// corpora directory, and logs every hit for review.
func TestBenignCorpora(t *testing.T) {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		t.Skip("TOOLWALL_CORPORA not set")
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
				t.Logf("%s: %v %v: %s", name, act, rules, rec.Cmd)
			}
		}
		f.Close()
		t.Logf("%s: %d of %d unique commands with empty risk_hint stopped (%d unreadable); %d of %d pipe-to-shell hints stopped", name, hits, total, unreadable, caught, pipes)
	}
}
