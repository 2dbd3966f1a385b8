package agents_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/agents"
	"github.com/toolwall/toolwall/shell"
)

// TestBenignCorpus runs the analyzer alone on the benign corpora
// (NL2Bash, tldr-pages) lines whose risk_hint is empty. Every stop must
// be listed, with its reason, in testdata/corpus_stops.tsv; a stop not
// listed fails, and so does a listed line that no longer stops (the list
// stays exact).
//
//	TOOLWALL_CORPORA=<the public corpora> go test -run Corpus -v ./analyzers/agents
func TestBenignCorpus(t *testing.T) {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		t.Skip("TOOLWALL_CORPORA not set")
	}
	reviewed := map[string]bool{}
	for _, r := range analysistest.ReadTSV(t, "corpus_stops.tsv", 2) {
		if strings.TrimSpace(r.Fields[1]) == "" {
			t.Errorf("corpus_stops.tsv:%d: no reason", r.Line)
		}
		reviewed[strings.ReplaceAll(r.Fields[0], "\n", `\n`)] = false
	}
	for _, name := range []string{"nl2bash.jsonl", "tldr.jsonl"} {
		f, err := os.Open(filepath.Join(dir, "benign", name))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		lines, stops := 0, 0
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var rec struct {
				Cmd      string   `json:"cmd"`
				RiskHint []string `json:"risk_hint"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || len(rec.RiskHint) > 0 || seen[rec.Cmd] {
				continue
			}
			seen[rec.Cmd] = true
			lines++
			r := bash(rec.Cmd)
			if r == nil || !analysistest.Strongest(r).Stops() {
				continue
			}
			stops++
			if _, ok := reviewed[rec.Cmd]; !ok {
				t.Errorf("%s: unreviewed stop %s: %s", name, r.Findings[0].Rule, rec.Cmd)
				continue
			}
			reviewed[rec.Cmd] = true
		}
		f.Close()
		t.Logf("%s: %d lines with empty risk_hint, %d stopped", name, lines, stops)
	}
	for cmd, hit := range reviewed {
		if !hit {
			t.Errorf("corpus_stops.tsv lists a line that is no longer stopped: %s", cmd)
		}
	}
}

// bash runs the analyzer on a Bash command as the gate reads it; nil
// when the command does not read.
func bash(cmd string) *analysis.Report {
	script, err := shell.Read(cmd, shell.Options{Cwd: testCwd, Home: testHome})
	if err != nil {
		return nil
	}
	call := toolwall.NewBashCall(cmd)
	call.Cwd, call.Project, call.Home = testCwd, testCwd, testHome
	r := (&analysis.Report{}).For(agents.Analyzer.Name)
	agents.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
	return r
}
