package shell

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// benignCorpora are the benign command corpora of the shared workspace
// (benign/ of the public corpora, see their READMEs for provenance); the test
// is skipped where they are absent.
var benignCorpora = []string{"tldr.jsonl", "nl2bash.jsonl"}

// TestBenignCorpora reads every benign corpus line without a risk hint and
// reports how many the reader refuses (syntax or limit errors) and how
// many yield a command whose name is only known at run time: both make the
// gate ask. It fails only on a limit error, which must never hit ordinary
// commands.
func TestBenignCorpora(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpora", "benign")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("benign corpora not present")
	}
	opt := defaultOptions()
	for _, name := range benignCorpora {
		fh, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var total, syntaxErr, dynName, cmds, inline int
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var rec struct {
				Cmd      string   `json:"cmd"`
				RiskHint []string `json:"risk_hint"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatal(err)
			}
			if len(rec.RiskHint) > 0 {
				continue
			}
			total++
			s, err := Read(rec.Cmd, opt)
			var se *SyntaxError
			var le *LimitError
			switch {
			case errors.As(err, &le):
				t.Errorf("%s: limit error on %q: %v", name, rec.Cmd, err)
				continue
			case errors.As(err, &se):
				syntaxErr++
				if testing.Verbose() {
					t.Logf("syntax: %q", rec.Cmd)
				}
				continue
			case err != nil:
				t.Fatal(err)
			}
			cmds += len(s.Commands)
			for _, c := range s.Commands {
				if c.Parent != nil && c.Via == viaOf[langOf(c.Parent.Name)] && c.Via != "" {
					inline++
					if testing.Verbose() {
						t.Logf("inline program runs %q: %q", c.String(), rec.Cmd)
					}
				}
			}
			for _, c := range s.Commands {
				if len(c.Args) > 0 && c.Args[0].Dynamic {
					dynName++
					if testing.Verbose() {
						t.Logf("dynamic name: %q", rec.Cmd)
					}
					break
				}
			}
		}
		fh.Close()
		t.Logf("%s: %d benign lines, %d commands (%d run by inline programs); syntax errors %d (%.2f%%), dynamic command names %d (%.2f%%)",
			name, total, cmds, inline, syntaxErr, 100*float64(syntaxErr)/float64(total), dynName, 100*float64(dynName)/float64(total))
	}
}
