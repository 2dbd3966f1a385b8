package persist_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/shell"
)

// corpora returns the corpora directory named by TOOLWALL_CORPORA, or
// skips: the corpora are not part of this repository.
//
//	TOOLWALL_CORPORA=<the public corpora> go test -run Corpus -v ./analyzers/persist
func corpora(t *testing.T) string {
	dir := os.Getenv("TOOLWALL_CORPORA")
	if dir == "" {
		t.Skip("TOOLWALL_CORPORA not set")
	}
	return dir
}

// eachLine decodes every JSON line of file into v and calls f.
func eachLine(t *testing.T, file string, v any, f func()) {
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), v); err != nil {
			t.Fatal(err)
		}
		f()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestBenignCorpus measures the analyzer alone on the benign corpora
// (NL2Bash, tldr-pages) lines whose risk_hint is empty. Every stop (ask
// or deny) must be listed in testdata/corpus_stops.tsv with the reason it
// was kept (each was read and judged a true positive: a command that
// installs, changes accounts, dumps credentials…); any other stop fails,
// and so does a listed line that no longer stops. Warns are counted.
func TestBenignCorpus(t *testing.T) {
	dir := corpora(t)
	reviewed := map[string]bool{}
	for _, r := range analysistest.ReadTSV(t, "corpus_stops.tsv", 2) {
		if strings.TrimSpace(r.Fields[1]) == "" {
			t.Errorf("corpus_stops.tsv:%d: no reason", r.Line)
		}
		reviewed[r.Fields[0]] = false
	}
	for _, name := range []string{"nl2bash.jsonl", "tldr.jsonl"} {
		seen := map[string]bool{}
		lines, stops, denies, warns := 0, 0, 0, 0
		var rec struct {
			Cmd      string   `json:"cmd"`
			RiskHint []string `json:"risk_hint"`
		}
		eachLine(t, filepath.Join(dir, "benign", name), &rec, func() {
			if len(rec.RiskHint) > 0 || seen[rec.Cmd] {
				return
			}
			seen[rec.Cmd] = true
			lines++
			script, err := shell.Read(rec.Cmd, shell.Options{Cwd: testCwd, Home: testHome})
			if err != nil {
				return
			}
			call := toolwall.NewBashCall(rec.Cmd)
			call.Cwd, call.Project, call.Home = testCwd, testCwd, testHome
			r := (&analysis.Report{}).For("persist")
			persist.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
			switch act := analysistest.Strongest(r); {
			case act.Stops():
				stops++
				if act == toolwall.Deny {
					denies++
				}
				if _, ok := reviewed[rec.Cmd]; !ok {
					t.Errorf("%s: unreviewed stop %s %s: %s", name, act, r.Findings[0].Rule, rec.Cmd)
				} else {
					reviewed[rec.Cmd] = true
				}
			case act == toolwall.Warn:
				warns++
			}
		})
		t.Logf("%s: %d lines with empty risk_hint: %d stopped (%d denied, %.2f%%), %d warned",
			name, lines, stops, denies, 100*float64(stops)/float64(max(lines, 1)), warns)
	}
	for cmd, hit := range reviewed {
		if !hit {
			t.Errorf("corpus_stops.tsv lists a line that is no longer stopped: %s", cmd)
		}
	}
}

// TestAtomicRedTeam measures the full gate on the Atomic Red Team shell
// tests, per MITRE tactic, without and with this analyzer (stopped = ask
// or deny). It only reports; an atomic is not a must-block label.
func TestAtomicRedTeam(t *testing.T) {
	dir := corpora(t)
	var base []*analysis.Analyzer
	for _, a := range analyzers.All() {
		if a.Name != persist.Analyzer.Name {
			base = append(base, a)
		}
	}
	before := gate.New(gate.Options{Analyzers: base})
	after := gate.New(gate.Options{Analyzers: append(slices.Clone(base), persist.Analyzer)})
	type count struct{ total, before, after int }
	per := map[string]*count{}
	var rec struct {
		Command string   `json:"command"`
		Tactics []string `json:"tactics"`
		Name    string   `json:"test_name"`
	}
	eachLine(t, filepath.Join(dir, "dangerous", "atomic-red-team.jsonl"), &rec, func() {
		call := toolwall.NewBashCall(rec.Command)
		call.Cwd, call.Project, call.Home = testCwd, testCwd, testHome
		b := before.Evaluate(context.Background(), call).Action.Stops()
		v := after.Evaluate(context.Background(), call)
		for _, tac := range rec.Tactics {
			c := per[tac]
			if c == nil {
				c = &count{}
				per[tac] = c
			}
			c.total++
			if b {
				c.before++
			}
			if v.Action.Stops() {
				c.after++
			}
		}
		if os.Getenv("TOOLWALL_ART_MISSES") != "" && !v.Action.Stops() {
			t.Logf("miss %v %s: %.200q", rec.Tactics, rec.Name, rec.Command)
		}
	})
	var names []string
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := per[n]
		t.Logf("%-22s %3d tests: stopped %3d before, %3d after", n, c.total, c.before, c.after)
	}
}
