package ssrf

import (
	"context"
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/internal/rows"
)

// row is one line of a testdata table.
type row struct {
	line   int
	fields []string
}

// readTable reads a tab-separated table with n fields per line; lines
// starting with # and blank lines are skipped, and a field starting with a
// double quote is a Go-quoted string.
func readTable(t testing.TB, name string, n int) []row {
	t.Helper()
	var out []row
	for _, r := range rows.ReadRest(t, "testdata/"+name, n) {
		ln, fields := r.Line, r.Fields
		for i, fl := range fields {
			if strings.HasPrefix(fl, `"`) {
				u, err := strconv.Unquote(fl)
				if err != nil {
					t.Fatalf("%s:%d: field %d: %v", name, ln, i+1, err)
				}
				fields[i] = u
			}
		}
		out = append(out, row{ln, fields})
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return out
}

func TestCheck(t *testing.T) {
	for _, r := range readTable(t, "urls.tsv", 3) {
		want, rule, u := r.fields[0], r.fields[1], r.fields[2]
		got := Check(u)
		if got.Action.String() != want || got.Rule != rule {
			t.Errorf("urls.tsv:%d: Check(%q) = %v %q (host %q class %v odd %q), want %s %q",
				r.line, u, got.Action, got.Rule, got.Target.Host, got.Target.Network, got.Target.Odd, want, rule)
		}
		if got.Action != toolwall.Allow && !strings.Contains(got.Reason, strconv.Quote(u)[:min(10, len(strconv.Quote(u)))]) {
			t.Errorf("urls.tsv:%d: reason %q does not quote the URL", r.line, got.Reason)
		}
	}
}

func TestCheckCommandURL(t *testing.T) {
	for _, r := range readTable(t, "commandurls.tsv", 3) {
		want, rule, u := r.fields[0], r.fields[1], r.fields[2]
		got := CheckCommandURL(u)
		if got.Action.String() != want || got.Rule != rule {
			t.Errorf("commandurls.tsv:%d: CheckCommandURL(%q) = %v %q, want %s %q", r.line, u, got.Action, got.Rule, want, rule)
		}
	}
}

func TestIsBlockedAddr(t *testing.T) {
	for s, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "169.254.169.254": true, "::1": true, "::": true,
		"::ffff:10.0.0.1": true, "64:ff9b::a00:1": true, "2002:c0a8:101::1": true, "fe80::1%eth0": true,
		"2001:0:4136:e378:8000:63bf:f5ff:fffe": true, // Teredo, client 10.0.0.1
		"8.8.8.8":                              false, "1.1.1.1": false, "2606:4700:4700::1111": false, "::ffff:8.8.8.8": false,
		"2002:808:808::1": false,
	} {
		if got := IsBlockedAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("IsBlockedAddr(%s) = %v, want %v", s, got, want)
		}
	}
	if !IsBlockedAddr(netip.Addr{}) {
		t.Error("IsBlockedAddr(zero Addr) = false, want true")
	}
}

func TestAnalyzer(t *testing.T) {
	for _, tc := range []struct {
		input string
		ctx   toolwall.ExecContext
		want  toolwall.Action
		rule  string
	}{
		{`{"url":"http://169.254.169.254/","prompt":"x"}`, "", toolwall.Deny, RuleMetadata},
		{`{"url":"http://localhost:8080/admin"}`, toolwall.UserContext, toolwall.Ask, RuleLoopback},
		{`{"url":"https://go.dev/doc/"}`, "", toolwall.Allow, ""},
		{`{"prompt":"no url"}`, "", toolwall.Deny, RuleMalformed},
		{`{"url":42}`, "", toolwall.Deny, RuleMalformed},
		{`{"url":"http://169.254.169.254/"}`, toolwall.RootContext, toolwall.Allow, ""},
	} {
		in := &analysis.Input{Call: toolwall.Call{Tool: toolwall.ToolWebFetch, Input: json.RawMessage(tc.input), Context: tc.ctx}}
		var rep analysis.Report
		Analyzer.Run(context.Background(), in, rep.For(Analyzer.Name))
		got, rule := toolwall.Allow, ""
		for _, f := range rep.Findings {
			got, rule = f.Action, f.Rule
			if f.Analyzer != "ssrf" || f.Category != "ssrf" || f.Reason == "" {
				t.Errorf("%s: finding %+v lacks analyzer, category or reason", tc.input, f)
			}
		}
		if got != tc.want || rule != tc.rule || len(rep.Findings) > 1 {
			t.Errorf("%s (%s): %v %q (%d findings), want %v %q", tc.input, tc.ctx, got, rule, len(rep.Findings), tc.want, tc.rule)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, name := range []string{"urls.tsv", "commandurls.tsv"} {
		for _, r := range readTable(f, name, 3) {
			f.Add(r.fields[2])
		}
	}
	f.Fuzz(func(t *testing.T, u string) {
		start := time.Now()
		a, b := Check(u), Check(u)
		if a != b {
			t.Fatalf("Check(%q) not deterministic: %+v vs %+v", u, a, b)
		}
		if a.Action != toolwall.Allow && (a.Rule == "" || a.Reason == "") {
			t.Fatalf("Check(%q) = %v without rule or reason", u, a.Action)
		}
		c := CheckCommandURL(u)
		if c.Action == toolwall.Deny && a.Action != toolwall.Deny {
			t.Fatalf("CheckCommandURL(%q) denies what Check allows (%v)", u, a.Action)
		}
		if d := time.Since(start); d > 2*time.Second { // a pathological case, not a speed target (BenchmarkCheck)
			t.Fatalf("Check(%q) took %v", u, d)
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	urls := []string{
		"https://docs.python.org/3/library/shutil.html",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:127.0.0.1]/",
		"http://0x7f.1/",
		"http://printer.local/",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Check(urls[i%len(urls)])
	}
}
