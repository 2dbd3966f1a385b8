package secrets

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/shell"
)

// corpusDir returns the shared corpora: $TOOLWALL_CORPORA, else the
// shared directory next to the clone; the test skips when they are
// absent (a clean clone).
func corpusDir(t *testing.T) string {
	if d := os.Getenv("TOOLWALL_CORPORA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "corpora")
}

// TestBenignCorpora runs the analyzer alone on the commands of the
// benign corpora (NL2Bash, tldr-pages) whose risk_hint is empty. Every
// stop (ask or deny) must be in testdata/corpus_stops.tsv, where each was
// read and judged with its reason; a new one fails the test, and so do
// more than 0.1% of a corpus (block the irreversible, not the
// unusual).
func TestBenignCorpora(t *testing.T) {
	reviewed := map[string]string{}
	for _, r := range analysistest.ReadTSV(t, "corpus_stops.tsv", 3) {
		reviewed[r.Fields[2]] = r.Fields[0]
	}
	for _, name := range []string{"tldr.jsonl", "nl2bash.jsonl"} {
		fh, err := os.Open(filepath.Join(corpusDir(t), "benign", name))
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
			if _, err := shell.Read(rec.Cmd, shell.Options{Cwd: at.Cwd, Home: at.Home}); err != nil {
				unread++
				continue
			}
			r := analyze(t, rec.Cmd, toolwall.UserContext)
			a := analysistest.Strongest(r)
			if !a.Stops() {
				continue
			}
			stopped++
			if want, ok := reviewed[rec.Cmd]; !ok || want != a.String() {
				t.Errorf("%s: %s %q (%s) is not in testdata/corpus_stops.tsv", name, a, rec.Cmd, r.Findings[0].Rule)
			}
		}
		t.Logf("%s: %d of %d commands with empty risk_hint stopped (%d did not parse)", name, stopped, total, unread)
		if stopped*1000 > total {
			t.Errorf("%s: %d stops of %d exceed 0.1%%", name, stopped, total)
		}
	}
}
