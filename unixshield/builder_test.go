package unixshield

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// captureLog sends slog's default logger to a buffer for the test.
func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad number %q: %v", s, err)
	}
	return v
}

func TestThresholdHygiene(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/thresholds.tsv", 4) {
		fields := r.Fields
		t.Run(fields[0], func(t *testing.T) {
			buf := captureLog(t)
			var s *Shield
			b := NewBuilder()
			for _, c := range strings.Split(fields[0], ";") {
				name, arg, _ := strings.Cut(c, "=")
				a, z, _ := strings.Cut(arg, ",")
				switch name {
				case "warn":
					b.WithWarnThreshold(parseFloat(t, a))
				case "block":
					b.WithBlockThreshold(parseFloat(t, a))
				case "both":
					b.WithThresholds(parseFloat(t, a), parseFloat(t, z))
				case "new":
					s = New(parseFloat(t, a), parseFloat(t, z))
				default:
					t.Fatalf("bad call %q", c)
				}
			}
			if s == nil {
				s = b.Build()
			}
			got := s.Thresholds()
			if got.Warn != parseFloat(t, fields[1]) || got.Block != parseFloat(t, fields[2]) {
				t.Errorf("thresholds %+v, want warn %s block %s", got, fields[1], fields[2])
			}
			if n := strings.Count(buf.String(), "level=WARN"); strconv.Itoa(n) != fields[3] {
				t.Errorf("%d warnings logged, want %s:\n%s", n, fields[3], buf)
			}
		})
	}
}

func TestWithPatternAppends(t *testing.T) {
	s := NewBuilder().
		WithPattern(toolwall.ToolBash, Pattern{Text: "Terraform  Destroy", Score: 0.9, Category: "destructive"}).
		Build()
	ctx := context.Background()
	for cmd, want := range map[string]toolwall.Action{
		"terraform destroy -auto-approve": toolwall.Deny,
		"rm -rf /":                        toolwall.Deny, // the default table is still there
		"terraform plan":                  toolwall.Allow,
	} {
		if v := s.Evaluate(ctx, toolwall.NewBashCall(cmd)); v.Action != want {
			t.Errorf("%q: %s, want %s", cmd, v.Action, want)
		}
	}
}

func TestBlank(t *testing.T) {
	ctx := context.Background()
	s := Blank().
		WithPattern("PowerShell", Pattern{Text: "Remove-Item -Recurse -Force", Score: 0.9}).
		WithCombinationRule(Rule{Name: "get-then-run", Score: 1, Triggers: []Trigger{
			{Tool: "WebFetch"}, {Tool: "PowerShell", Any: []string{"Invoke-Expression", "iex"}}}}).
		Build()
	if got, want := s.WatchedTools(), []string{"PowerShell", "WebFetch"}; !slices.Equal(got, want) {
		t.Errorf("watched %v, want %v", got, want)
	}
	if v := s.Evaluate(ctx, toolwall.NewBashCall("rm -rf /")); v.Action != toolwall.Allow || v.Score != 0 {
		t.Errorf("blank shield judged Bash: %+v", v)
	}
	ps := func(cmd string) toolwall.Call {
		c := toolwall.NewBashCall(cmd)
		c.Tool = "PowerShell"
		return c
	}
	if v := s.Evaluate(ctx, ps("remove-item -recurse -force C:\\")); v.Action != toolwall.Deny {
		t.Errorf("Remove-Item: %+v", v)
	}
	if v := s.Evaluate(ctx, ps("iex $x")); v.Score != 0 {
		t.Errorf("rule fired without its first trigger: %+v", v)
	}
	s.RecordInvocation(ctx, toolwall.Call{Tool: "WebFetch", Input: []byte(`{"url":"https://x.example"}`)}, true)
	if v := s.Evaluate(ctx, ps("IEX $x")); v.Score != 0.3 || !slices.Contains(v.Rules(), "unixshield.combination") {
		t.Errorf("rule did not fire after its first trigger: %+v", v)
	}
}

func TestInertPatternsAndRules(t *testing.T) {
	buf := captureLog(t)
	s := Blank().
		WithPattern("T", Pattern{Text: " \t ", Score: 1}, Pattern{Text: "", Score: 1}).
		WithCombinationRule(Rule{Name: "none", Score: 1}).
		Build()
	ctx := context.Background()
	c := toolwall.Call{Tool: "T", Input: []byte(`{"a":"anything at all","b":""}`)}
	if v := s.Evaluate(ctx, c); v.Score != 0 {
		t.Errorf("an empty pattern or rule matched: %+v", v)
	}
	if n := strings.Count(buf.String(), "level=WARN"); n != 3 {
		t.Errorf("%d warnings, want 3:\n%s", n, buf)
	}
}

func TestPatternScoreClamp(t *testing.T) {
	s := Blank().WithPattern("T",
		Pattern{Text: "nan", Score: math.NaN()},
		Pattern{Text: "big", Score: 7},
		Pattern{Text: "neg", Score: -1}).Build()
	ctx := context.Background()
	for in, want := range map[string]float64{"nan": 1, "big": 1, "neg": 0} {
		c := toolwall.Call{Tool: "T", Input: []byte(`{"x":"` + in + `"}`)}
		if v := s.Evaluate(ctx, c); v.Score != want {
			t.Errorf("%s: score %v, want %v", in, v.Score, want)
		}
	}
}

func TestRootContextReportsNothing(t *testing.T) {
	c := toolwall.NewBashCall("rm -rf /")
	c.Context = toolwall.RootContext
	v := New(0.4, 0.7).Evaluate(context.Background(), c)
	if v.Action != toolwall.Allow || len(v.Findings) != 0 {
		t.Errorf("root context: %+v", v)
	}
}

func TestRecentWindowFromCaller(t *testing.T) {
	s := New(0.4, 0.7)
	c := toolwall.NewBashCall("curl --version")
	for i := range 25 {
		c.Recent = append(c.Recent, toolwall.RecentCall{Tool: toolwall.ToolWrite, Turn: i})
	}
	// Only the last 20 entries count: the three Bash calls at the front
	// are out of the window.
	c.Recent = append([]toolwall.RecentCall{{Tool: "Bash"}, {Tool: "Bash"}, {Tool: "Bash"}}, c.Recent...)
	if sc := s.Score(c); sc.Prior != 0 {
		t.Errorf("prior %d, want 0", sc.Prior)
	}
	c.Recent = append(c.Recent, toolwall.RecentCall{Tool: "Bash"}, toolwall.RecentCall{Tool: "Bash"})
	if sc := s.Score(c); sc.Prior != 2 || sc.Total != 0.3+0.5*0.3 {
		t.Errorf("score %+v, want 2 prior and total 0.45", sc)
	}
}

func TestRecordIgnoresUnwatched(t *testing.T) {
	s := New(0.4, 0.7)
	ctx := context.Background()
	for range 5 {
		s.RecordInvocation(ctx, toolwall.Call{Tool: "Read", Input: []byte(`{"file_path":"x"}`)}, true)
	}
	if h := s.history(); len(h) != 0 {
		t.Errorf("unwatched calls recorded: %d", len(h))
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New(0.4, 0.7)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				c := toolwall.NewBashCall("curl https://example.com/" + strconv.Itoa(i*1000+j))
				if v := s.Evaluate(ctx, c); v.Action == toolwall.Deny {
					t.Errorf("curl denied: %s", v.Reason)
				}
				s.RecordInvocation(ctx, c, true)
			}
		})
	}
	wg.Wait()
	if v := s.Evaluate(ctx, toolwall.NewBashCall("cat x | sh")); v.Band != toolwall.Critical {
		t.Errorf("after concurrent curls: %+v", v)
	}
}
