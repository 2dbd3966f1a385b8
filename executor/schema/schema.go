package schema

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolwall/toolwall/executor"
)

// Scorer scores each tool's relevance to a query; higher is more
// relevant. The result has one score per tool, in order.
type Scorer interface {
	Score(ctx context.Context, query string, tools []executor.Definition) ([]float64, error)
}

// Filter selects tools for a query.
type Filter struct {
	// Scorer scores tools (nil: Lexical).
	Scorer Scorer
	// TopK is how many scored tools are kept besides the always-on ones
	// (0 keeps every tool).
	TopK int
	// AlwaysOn names tools kept whatever their score.
	AlwaysOn []string
}

// Select returns the always-on tools and the TopK best-scored others, in
// their original order; ties keep the earlier tool. On a scorer error it
// returns every tool and the error.
func (f *Filter) Select(ctx context.Context, query string, tools []executor.Definition) ([]executor.Definition, error) {
	if f.TopK <= 0 || len(tools) <= f.TopK {
		return slices.Clone(tools), nil
	}
	sc := f.Scorer
	if sc == nil {
		sc = Lexical{}
	}
	var idx []int
	for i, t := range tools {
		if !slices.Contains(f.AlwaysOn, t.Name) {
			idx = append(idx, i)
		}
	}
	cand := make([]executor.Definition, len(idx))
	for j, i := range idx {
		cand[j] = tools[i]
	}
	scores, err := sc.Score(ctx, query, cand)
	if err == nil && len(scores) != len(cand) {
		err = fmt.Errorf("schema: scorer returned %d scores for %d tools", len(scores), len(cand))
	}
	if err != nil {
		return slices.Clone(tools), err
	}
	order := make([]int, len(cand))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	keep := map[int]bool{}
	for _, j := range order[:min(f.TopK, len(order))] {
		keep[idx[j]] = true
	}
	var out []executor.Definition
	for i, t := range tools {
		if keep[i] || slices.Contains(f.AlwaysOn, t.Name) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Lexical scores by TF-IDF cosine similarity between the query's words
// and each tool's name and description (names split at case changes and
// underscores, words lower-cased, one-letter words dropped).
type Lexical struct{}

// Score implements Scorer.
func (Lexical) Score(_ context.Context, query string, tools []executor.Definition) ([]float64, error) {
	docs := make([]map[string]float64, len(tools))
	df := map[string]float64{}
	for i, t := range tools {
		docs[i] = termFreq(words(t.Name + " " + t.Description))
		for w := range docs[i] {
			df[w]++
		}
	}
	n := float64(len(tools))
	weigh := func(tf map[string]float64) map[string]float64 {
		v := map[string]float64{}
		for w, c := range tf {
			v[w] = c * (math.Log((n+1)/(df[w]+1)) + 1)
		}
		return v
	}
	q := weigh(termFreq(words(query)))
	out := make([]float64, len(tools))
	for i, d := range docs {
		out[i] = cosineMap(q, weigh(d))
	}
	return out, nil
}

func termFreq(ws []string) map[string]float64 {
	tf := map[string]float64{}
	for _, w := range ws {
		tf[w]++
	}
	return tf
}

// words splits text into lower-case words: at non-letters and non-digits,
// at lower-to-upper case changes ("WebFetch" → web, fetch).
func words(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 1 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	prevLower := false
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

func cosineMap(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for w, x := range a {
		dot += x * b[w]
		na += x * x
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// Embeddings scores by cosine similarity of embedding vectors from an
// OpenAI-compatible endpoint (POST {BaseURL}/embeddings). Tool vectors
// are cached by their text. Safe for concurrent use.
type Embeddings struct {
	client openai.Client
	model  string

	mu    sync.Mutex
	cache map[string][]float64
}

// NewEmbeddings returns a scorer calling the endpoint at baseURL (e.g.
// "http://127.0.0.1:8080/v1") with model and apiKey ("" sends none);
// extra client options are passed on (timeouts, retries, headers).
func NewEmbeddings(baseURL, model, apiKey string, opts ...option.RequestOption) *Embeddings {
	all := append([]option.RequestOption{option.WithBaseURL(baseURL), option.WithAPIKey(apiKey)}, opts...)
	return &Embeddings{client: openai.NewClient(all...), model: model, cache: map[string][]float64{}}
}

// Score implements Scorer: one request for the query and the tools whose
// vectors are not cached yet.
func (e *Embeddings) Score(ctx context.Context, query string, tools []executor.Definition) ([]float64, error) {
	texts := make([]string, len(tools))
	e.mu.Lock()
	need := []string{query}
	for i, t := range tools {
		texts[i] = t.Name + ": " + t.Description
		if _, ok := e.cache[texts[i]]; !ok && !slices.Contains(need, texts[i]) {
			need = append(need, texts[i])
		}
	}
	e.mu.Unlock()
	resp, err := e.client.Embeddings.New(ctx, openai.EmbeddingNewParams{
		Model: openai.EmbeddingModel(e.model),
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: need},
	})
	if err != nil {
		return nil, fmt.Errorf("schema: embeddings: %w", err)
	}
	if len(resp.Data) != len(need) {
		return nil, fmt.Errorf("schema: embeddings: %d vectors for %d inputs", len(resp.Data), len(need))
	}
	vecs := make([][]float64, len(need))
	for _, d := range resp.Data {
		if d.Index < 0 || int(d.Index) >= len(need) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("schema: embeddings: bad index %d", d.Index)
		}
		vecs[d.Index] = d.Embedding
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, t := range need[1:] {
		e.cache[t] = vecs[i+1]
	}
	out := make([]float64, len(tools))
	for i := range tools {
		out[i] = cosine(vecs[0], e.cache[texts[i]])
	}
	return out, nil
}

func cosine(a, b []float64) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
