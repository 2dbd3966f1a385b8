package schema_test

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/openai/openai-go/v3/option"

	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/schema"
)

var tools = []executor.Definition{
	{Name: "Bash", Description: "Run a bash command in the project"},
	{Name: "Read", Description: "Read a text file and return its contents"},
	{Name: "Write", Description: "Write a file, creating it and its directories"},
	{Name: "Edit", Description: "Replace old text with new text in a file"},
	{Name: "Glob", Description: "Find files matching a glob pattern under a directory"},
	{Name: "WebFetch", Description: "Fetch a public web page by its https URL"},
}

func names(defs []executor.Definition) []string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Name)
	}
	return out
}

func TestLexical(t *testing.T) {
	data, _ := os.ReadFile("testdata/select.json")
	var cases []struct {
		Query    string   `json:"query"`
		TopK     int      `json:"top_k"`
		AlwaysOn []string `json:"always_on"`
		Want     []string `json:"want"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		f := &schema.Filter{TopK: tc.TopK, AlwaysOn: tc.AlwaysOn}
		got, err := f.Select(context.Background(), tc.Query, tools)
		if err != nil || !slices.Equal(names(got), tc.Want) {
			t.Errorf("%q: %v %v, want %v", tc.Query, names(got), err, tc.Want)
		}
	}
}

// embedServer is an OpenAI-compatible /v1/embeddings endpoint on
// loopback whose vectors are bags of hashed words: texts sharing words
// are close.
func embedServer(t *testing.T, calls *atomic.Int32, inputs *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-embed" {
			http.Error(w, `{"error":{"message":"bad body"}}`, http.StatusBadRequest)
			return
		}
		calls.Add(1)
		inputs.Add(int32(len(req.Input)))
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var data []item
		for i, in := range req.Input {
			v := make([]float64, 64)
			for _, word := range strings.Fields(strings.ToLower(strings.NewReplacer(":", " ", ",", " ").Replace(in))) {
				h := fnv.New32a()
				h.Write([]byte(strings.TrimSuffix(word, "s")))
				v[h.Sum32()%64]++
			}
			data = append(data, item{"embedding", i, v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model, "usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
}

func TestEmbeddings(t *testing.T) {
	var calls, inputs atomic.Int32
	srv := embedServer(t, &calls, &inputs)
	defer srv.Close()
	e := schema.NewEmbeddings(srv.URL+"/v1", "test-embed", "k", option.WithMaxRetries(0))
	f := &schema.Filter{Scorer: e, TopK: 1}
	got, err := f.Select(context.Background(), "fetch a web page by its URL", tools)
	if err != nil || !slices.Equal(names(got), []string{"WebFetch"}) {
		t.Fatalf("%v %v", names(got), err)
	}
	got, err = f.Select(context.Background(), "read a text file", tools)
	if err != nil || !slices.Equal(names(got), []string{"Read"}) {
		t.Fatalf("%v %v", names(got), err)
	}
	if calls.Load() != 2 || inputs.Load() != 1+6+1 {
		t.Errorf("%d calls with %d inputs; tool vectors should be computed once", calls.Load(), inputs.Load())
	}
	bad := schema.NewEmbeddings(srv.URL+"/v1", "other-model", "k", option.WithMaxRetries(0))
	got, err = (&schema.Filter{Scorer: bad, TopK: 1}).Select(context.Background(), "x", tools)
	if err == nil || len(got) != len(tools) {
		t.Errorf("a failing endpoint: %v %v; want every tool and the error", names(got), err)
	}
}

func FuzzLexical(f *testing.F) {
	f.Add("read the file")
	f.Fuzz(func(t *testing.T, q string) {
		got, err := (&schema.Filter{TopK: 2, AlwaysOn: []string{"Bash"}}).Select(context.Background(), q, tools)
		if err != nil || len(got) != 3 || got[0].Name != "Bash" {
			t.Fatalf("%q: %v %v", q, names(got), err)
		}
	})
}
