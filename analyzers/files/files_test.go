package files

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/internal/rows"
)

// table reads a tab-separated table, skipping blank lines and # comments,
// and checks every row has n fields.
func table(t testing.TB, file string, n int) [][]string {
	t.Helper()
	var out [][]string
	for _, r := range rows.ReadRest(t, file, n) {
		out = append(out, r.Fields)
	}
	return out
}

func analyze(tool, input string, ctx toolwall.ExecContext) *analysis.Report {
	call := toolwall.Call{
		Tool: tool, Input: json.RawMessage(input), Cwd: "/workspace/app", Project: "/workspace/app",
		Home: "/home/user", Context: ctx,
	}
	r := new(analysis.Report)
	Analyzer.Run(context.Background(), &analysis.Input{Call: call}, r.For(Analyzer.Name))
	return r
}

func verdict(r *analysis.Report) toolwall.Action {
	a := toolwall.Allow
	for _, f := range r.Findings {
		a = toolwall.Stricter(a, f.Action)
	}
	return a
}

func TestCalls(t *testing.T) {
	for _, row := range table(t, "testdata/calls.tsv", 4) {
		want, rule, tool, input := row[0], row[1], row[2], row[3]
		t.Run(tool+" "+input, func(t *testing.T) {
			r := analyze(tool, input, toolwall.UserContext)
			if got := verdict(r).String(); got != want {
				t.Errorf("action = %s, want %s; findings %+v", got, want, r.Findings)
			}
			if rule == "-" {
				if len(r.Findings) != 0 {
					t.Errorf("findings %+v, want none", r.Findings)
				}
				return
			}
			found := false
			for _, f := range r.Findings {
				found = found || f.Rule == rule
				if f.Analyzer != "files" || f.Reason == "" || !strings.Contains(f.Reason, " was ") {
					t.Errorf("finding without analyzer or reason: %+v", f)
				}
				if f.Action == toolwall.Ask && (f.Score < 0.5 || f.Score > 0.65) || f.Action == toolwall.Deny && f.Score < 0.9 {
					t.Errorf("score %v does not fit action %v", f.Score, f.Action)
				}
			}
			if !found {
				t.Errorf("findings %+v, want rule %s", r.Findings, rule)
			}
		})
	}
}

func TestRootContext(t *testing.T) {
	for _, row := range table(t, "testdata/calls.tsv", 4) {
		if r := analyze(row[2], row[3], toolwall.RootContext); len(r.Findings)+len(r.Effects) != 0 {
			t.Errorf("%s %s in root context: %+v %+v", row[2], row[3], r.Findings, r.Effects)
		}
	}
}

func TestTags(t *testing.T) {
	for _, row := range table(t, "testdata/tags.tsv", 3) {
		want, tool, input := row[0], row[1], row[2]
		r := analyze(tool, input, toolwall.UserContext)
		var got []string
		for _, e := range r.Effects {
			got = append(got, string(e.Tag))
			if e.Path == "" || e.Detail != "" {
				t.Errorf("%s %s: effect %+v wants a path and no detail", tool, input, e)
			}
		}
		if g := strings.Join(got, ","); g != want {
			t.Errorf("%s %s: tags %q, want %q", tool, input, g, want)
		}
	}
}

// TestReasonNamesPath checks that a refusal quotes the resolved path.
func TestReasonNamesPath(t *testing.T) {
	r := analyze("Write", `{"file_path": "../../home/user/.ssh/authorized_keys", "content": "x"}`, toolwall.UserContext)
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Reason, "/home/user/.ssh/authorized_keys") {
		t.Fatalf("findings %+v", r.Findings)
	}
}

func FuzzAnalyzer(f *testing.F) {
	for _, row := range table(f, "testdata/calls.tsv", 4) {
		f.Add(row[2], row[3])
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		start := time.Now()
		r1 := analyze(tool, input, toolwall.UserContext)
		r2 := analyze(tool, input, toolwall.UserContext)
		if len(r1.Findings) != len(r2.Findings) || len(r1.Effects) != len(r2.Effects) {
			t.Fatalf("not deterministic")
		}
		for i := range r1.Findings {
			if r1.Findings[i] != r2.Findings[i] {
				t.Fatalf("not deterministic: %+v vs %+v", r1.Findings[i], r2.Findings[i])
			}
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("took %v", d)
		}
	})
}

func BenchmarkAnalyzer(b *testing.B) {
	calls := [][2]string{
		{"Write", `{"file_path": "/workspace/app/src/main.go", "content": "package main\n"}`},
		{"Read", `{"file_path": "/home/user/.ssh/id_rsa"}`},
		{"Edit", `{"file_path": "/home/user/.bashrc", "old_string": "a", "new_string": "b"}`},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := calls[i%len(calls)]
		analyze(c[0], c[1], toolwall.UserContext)
	}
}
