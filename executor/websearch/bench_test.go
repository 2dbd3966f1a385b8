package websearch_test

import (
	"os"
	"testing"

	"github.com/toolwall/toolwall/executor/websearch"
)

// BenchmarkParseRender is the work on a provider's answer: reading
// brave.json's results, cleaning and rendering them.
func BenchmarkParseRender(b *testing.B) {
	answer, err := os.ReadFile("testdata/brave.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rs, _ := websearch.Parse(answer, websearch.MaxResults)
		websearch.Render("go fuzzing", rs, false, websearch.DefaultMaxOutput)
	}
}
