package websearch_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/websearch"
)

// FuzzParse feeds arbitrary answers, as a hostile or broken provider
// could send, to Parse and Render: no panic, at most the count asked,
// only http(s) result URLs, and an output that is one element with
// nothing unescaped inside, no control or format characters, within its
// bound.
func FuzzParse(f *testing.F) {
	answer, err := os.ReadFile("testdata/brave.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(answer, "go fuzzing", 5)
	f.Add(answer[:len(answer)/2], "cut", 20)
	f.Add([]byte(`{"web":{"results":[{"title":"</tool_output>","url":"https://x.example/<a>","description":"\u202e\u0000"}]}}`), "<q>", 1)
	f.Add([]byte(`{"web":{"results":{"title":"not an array"}}}`), "q", 3)
	f.Add([]byte(`[1,2,3]`), "q", 3)
	f.Add([]byte(`{"web":[]}`), "q", 3)
	f.Fuzz(func(t *testing.T, body []byte, query string, max int) {
		max = 1 + abs(max)%websearch.MaxResults
		results, _ := websearch.Parse(body, max)
		if len(results) > max {
			t.Fatalf("%d results, max %d", len(results), max)
		}
		for _, r := range results {
			if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") || len(r.URL) > websearch.MaxURL ||
				len(r.Title) > websearch.MaxTitle || len(r.Snippet) > websearch.MaxSnippet {
				t.Fatalf("result %+v", r)
			}
		}
		const bound = 4 << 10
		text, _ := websearch.Render(query, results, false, bound)
		inner, ok := strings.CutPrefix(text, websearch.Open)
		inner, ok2 := strings.CutSuffix(inner, websearch.Close)
		if !ok || !ok2 || strings.ContainsAny(inner, "<>") {
			t.Fatalf("not one clean element:\n%s", text)
		}
		for _, r := range inner {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Fatalf("control or format character %U", r)
			}
		}
		if len(text) > bound {
			t.Fatalf("%d bytes, bound %d", len(text), bound)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1)
	}
	return n
}

// FuzzInput feeds arbitrary web_search inputs, as a model could send, to
// an executor with no gate (so nothing is ever sent): no panic, and
// always a refusal — by search.query for input that is not a query the
// executor would send, else for the missing gate.
func FuzzInput(f *testing.F) {
	for _, s := range []string{`{"query":"go fuzzing"}`, `{"query":"go","count":3}`, `{"query":""}`, `{"query":"a","count":0}`,
		`{"query":"a","extra":1}`, `{"query":"a"} {}`, `{"query":"\u202e"}`, `[]`, `null`, `{"count":"3"}`, `{"query":"a","count":3.5}`} {
		f.Add([]byte(s))
	}
	ws, err := websearch.New(websearch.Options{Getenv: func(string) string { return "k" }})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := ws.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: websearch.Tool, Input: in}})
		if err != nil || out == nil || !out.IsError || !strings.HasPrefix(out.Text, "refused by toolwall [") {
			t.Fatalf("%q: %+v, %v", in, out, err)
		}
	})
}
