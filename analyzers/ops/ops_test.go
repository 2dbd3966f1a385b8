package ops_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analysis/analysistest"
	"github.com/toolwall/toolwall/analyzers/ops"
	"github.com/toolwall/toolwall/shell"
)

const (
	testHome = "/home/u"
	testCwd  = "/home/u/proj"
)

// analyze reads command as the gate would and runs the ops analyzer.
func analyze(t testing.TB, command string, ctx toolwall.ExecContext) *analysis.Report {
	t.Helper()
	return analysistest.Bash(t, ops.Analyzer, command, analysistest.Places{Cwd: testCwd, Home: testHome}, ctx)
}

func TestCases(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "cases.tsv", 3) {
		expect, rule, command := c.Fields[0], c.Fields[1], c.Fields[2]
		t.Run(fmt.Sprintf("%d", c.Line), func(t *testing.T) {
			r := analyze(t, command, toolwall.UserContext)
			var want toolwall.Action
			switch expect {
			case "allow":
				if len(r.Findings) > 0 {
					t.Fatalf("cases.tsv:%d %q: want no finding, got %+v", c.Line, command, r.Findings)
				}
				return
			case "warn":
				want = toolwall.Warn
			case "ask":
				want = toolwall.Ask
			default:
				t.Fatalf("cases.tsv:%d: unknown expectation %q", c.Line, expect)
			}
			if got := analysistest.Strongest(r); got != want {
				t.Fatalf("cases.tsv:%d %q: want %v, got %v: %+v", c.Line, command, want, got, r.Findings)
			}
			var rules []string
			for _, f := range r.Findings {
				rules = append(rules, f.Rule)
				checkFinding(t, f)
			}
			if !contains(rules, rule) {
				t.Fatalf("cases.tsv:%d %q: want rule %s, got %v", c.Line, command, rule, rules)
			}
		})
	}
}

// TestTempProject judges testdata/temp_project.tsv with the project in a
// temporary directory (/tmp/work): priv.temp-program spares the
// project's own files.
func TestTempProject(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "temp_project.tsv", 3) {
		expect, rule, command := c.Fields[0], c.Fields[1], c.Fields[2]
		r := analysistest.Bash(t, ops.Analyzer, command, analysistest.Places{Cwd: "/tmp/work", Home: testHome}, toolwall.UserContext)
		got := analysistest.Strongest(r)
		var rules []string
		for _, f := range r.Findings {
			rules = append(rules, f.Rule)
		}
		if got.String() != expect || !contains(rules, rule) {
			t.Errorf("temp_project.tsv:%d %q: want %s %s, got %s %v", c.Line, command, expect, rule, got, rules)
		}
	}
}

// checkFinding holds a finding to the conventions: analyzer name, score
// band per action, a reason that quotes the command and says what to do.
func checkFinding(t *testing.T, f toolwall.Finding) {
	t.Helper()
	if f.Analyzer != "ops" {
		t.Errorf("finding %s: analyzer %q", f.Rule, f.Analyzer)
	}
	switch f.Action {
	case toolwall.Ask:
		if f.Score < 0.5 || f.Score > 0.65 {
			t.Errorf("finding %s: ask score %v outside 0.5–0.65", f.Rule, f.Score)
		}
		if !strings.Contains(f.Reason, "` needs confirmation: ") && !strings.Contains(f.Reason, "`) needs confirmation: ") && !strings.Contains(f.Reason, "` was allowed with a warning: ") {
			t.Errorf("finding %s: reason %q does not quote the refused command", f.Rule, f.Reason)
		}
	case toolwall.Warn:
		if f.Score < 0.4 || f.Score > 0.5 {
			t.Errorf("finding %s: warn score %v outside 0.4–0.5", f.Rule, f.Score)
		}
	default:
		t.Errorf("finding %s: unexpected action %v", f.Rule, f.Action)
	}
	if f.Category == "" || !strings.HasSuffix(f.Reason, ".") || strings.Count(f.Reason, ". ") < 1 {
		t.Errorf("finding %s: category %q, reason %q", f.Rule, f.Category, f.Reason)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestRootContext: in RootContext nothing is reported, for
// commands that do report in UserContext.
func TestRootContext(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "root.txt", 1) {
		command := c.Fields[0]
		if r := analyze(t, command, toolwall.UserContext); len(r.Findings) == 0 {
			t.Errorf("root.txt:%d %q: no finding in user context; the case tests nothing", c.Line, command)
		}
		if r := analyze(t, command, toolwall.RootContext); len(r.Findings)+len(r.Effects) > 0 {
			t.Errorf("root.txt:%d %q: want nothing in root context, got %+v %+v", c.Line, command, r.Findings, r.Effects)
		}
	}
}

// TestEffects checks the risk tags: "tag<TAB>detail<TAB>path<TAB>command",
// with expect "+" (present) or "-" (absent) as the first field.
func TestEffects(t *testing.T) {
	for _, c := range analysistest.ReadTSV(t, "effects.tsv", 5) {
		want, tag, detail, path, command := c.Fields[0] == "+", toolwall.Tag(c.Fields[1]), c.Fields[2], c.Fields[3], c.Fields[4]
		if detail == "-" {
			detail = ""
		}
		if path == "-" {
			path = ""
		}
		r := analyze(t, command, toolwall.UserContext)
		got := false
		for _, e := range r.Effects {
			if e.Tag == tag && e.Detail == detail && (path == "*" || e.Path == path) {
				got = true
			}
		}
		if got != want {
			t.Errorf("effects.tsv:%d %q: want %s %s/%s/%s, effects %+v", c.Line, command, c.Fields[0], tag, detail, path, r.Effects)
		}
	}
}

// TestNilInput: no script (a non-Bash call, or one that did not parse)
// yields nothing and does not panic.
func TestNilInput(t *testing.T) {
	r := &analysis.Report{}
	ops.Analyzer.Run(context.Background(), &analysis.Input{Call: toolwall.Call{Tool: "Read"}}, r)
	ops.Analyzer.Run(context.Background(), nil, r)
	if len(r.Findings)+len(r.Effects) > 0 {
		t.Fatalf("got %+v", r)
	}
	if ops.Analyzer.Name != "ops" || !reflect.DeepEqual(ops.Analyzer.Tools, []string{"Bash"}) || ops.Analyzer.Doc == "" {
		t.Fatalf("analyzer identity: %+v", ops.Analyzer)
	}
}

// FuzzAnalyze: any command line, read by the shell reader, never panics,
// gives the same report twice, and is analyzed in bounded time.
func FuzzAnalyze(f *testing.F) {
	for _, c := range analysistest.ReadTSV(f, "cases.tsv", 3) {
		f.Add(c.Fields[2])
	}
	f.Fuzz(func(t *testing.T, command string) {
		script, err := shell.Read(command, shell.Options{Cwd: testCwd, Home: testHome})
		if err != nil {
			return
		}
		call := toolwall.NewBashCall(command)
		call.Cwd, call.Home = testCwd, testHome
		in := &analysis.Input{Call: call, Script: script}
		start := time.Now()
		a, b := &analysis.Report{}, &analysis.Report{}
		ops.Analyzer.Run(context.Background(), in, a)
		ops.Analyzer.Run(context.Background(), in, b)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
		}
		for _, fd := range a.Findings {
			if fd.Rule == "" || fd.Reason == "" || fd.Score <= 0 || fd.Score >= 0.7 {
				t.Fatalf("malformed finding %+v", fd)
			}
		}
	})
}

// BenchmarkRun measures the analyzer alone (scripts read beforehand) over
// every command of cases.tsv.
func BenchmarkRun(b *testing.B) {
	var ins []*analysis.Input
	for _, c := range analysistest.ReadTSV(b, "cases.tsv", 3) {
		script, err := shell.Read(c.Fields[2], shell.Options{Cwd: testCwd, Home: testHome})
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, &analysis.Input{Call: toolwall.NewBashCall(c.Fields[2]), Script: script})
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r := &analysis.Report{}
		ops.Analyzer.Run(context.Background(), ins[i%len(ins)], r)
	}
}

// corpusDir holds the shared benign corpora (outside the repository);
// TOOLWALL_CORPORA overrides it.
func corpusDir() string {
	if d := os.Getenv("TOOLWALL_CORPORA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "corpora", "benign")
}

// TestBenignCorpora counts the stops (ask or deny) on corpus lines whose
// risk_hint is empty. Every one is a false positive unless it is listed,
// after review, in testdata/corpus_true_positives.txt. Skipped when the
// corpora are not present.
func TestBenignCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus scan")
	}
	reviewed := map[string]bool{}
	for _, c := range analysistest.ReadTSV(t, "corpus_true_positives.txt", 1) {
		reviewed[c.Fields[0]] = true
	}
	for _, name := range []string{"tldr.jsonl", "nl2bash.jsonl"} {
		f, err := os.Open(filepath.Join(corpusDir(), name))
		if err != nil {
			t.Skipf("corpus not present: %v", err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		lines, stops, warns, fp := 0, 0, 0, 0
		for sc.Scan() {
			var rec struct {
				Cmd      string   `json:"cmd"`
				RiskHint []string `json:"risk_hint"`
			}
			if json.Unmarshal(sc.Bytes(), &rec) != nil || len(rec.RiskHint) > 0 {
				continue
			}
			script, err := shell.Read(rec.Cmd, shell.Options{Cwd: testCwd, Home: testHome})
			if err != nil {
				continue
			}
			lines++
			call := toolwall.NewBashCall(rec.Cmd)
			r := &analysis.Report{}
			ops.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
			switch a := analysistest.Strongest(r); {
			case a.Stops():
				stops++
				if !reviewed[rec.Cmd] {
					fp++
					t.Logf("%s: unreviewed stop %q: %s", name, rec.Cmd, r.Findings[0].Rule)
				}
			case a == toolwall.Warn:
				warns++
			}
		}
		f.Close()
		t.Logf("%s: %d benign lines, %d stop (%d reviewed true positives, %d false positives), %d warn",
			name, lines, stops, stops-fp, fp, warns)
		if fp > 0 {
			t.Errorf("%s: %d false positives on benign lines", name, fp)
		}
	}
}
