package secrets

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/toolwall/toolwall"
)

// corpusDir holds the shared benign corpora (NL2Bash, tldr) next to the
// repository; the test skips when they are absent (a clean clone).
const corpusDir = "../../../shared/corpora/benign/"

// TestBenignCorpora counts the commands of the benign corpora with an
// empty risk_hint that this analyzer stops (ask or deny), logs each with
// -v, and fails when more than maxFP of them are stopped: a rule that gets
// in the way of ordinary work will be switched off (DESIGN.md, "block the
// irreversible, not the unusual").
func TestBenignCorpora(t *testing.T) {
	const maxFP = 0.002
	for _, name := range []string{"tldr.jsonl", "nl2bash.jsonl"} {
		fh, err := os.Open(corpusDir + name)
		if err != nil {
			t.Skipf("corpus not available: %v", err)
		}
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		total, stopped, unread := 0, 0, 0
		for sc.Scan() {
			var rec struct {
				Cmd  string   `json:"cmd"`
				Hint []string `json:"risk_hint"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || len(rec.Hint) > 0 {
				continue
			}
			total++
			r, err := analyze(t, rec.Cmd, toolwall.UserContext)
			if err != nil {
				unread++
				continue
			}
			if a := verdict(r); a.Stops() {
				stopped++
				t.Logf("%s: %s %q: %s", name, a, rec.Cmd, r.Findings[0].Rule)
			}
		}
		t.Logf("%s: %d of %d commands with empty risk_hint stopped (%d did not parse)", name, stopped, total, unread)
		if float64(stopped) > maxFP*float64(total) {
			t.Errorf("%s: %d false positives of %d exceed %.1f%%", name, stopped, total, maxFP*100)
		}
	}
}
