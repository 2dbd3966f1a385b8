package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolwall/toolwall"
)

func memoPipeline(t testing.TB, opts MemoOptions, core Tool) *Pipeline {
	t.Helper()
	p, err := NewBuilder().Use(Memoize(opts)).Core(core).Build()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMemoKeys(t *testing.T) {
	lines, nums := readLines(t, "canonical.tsv")
	ctx := context.Background()
	for i, f := range lines {
		core := &echo{}
		p := memoPipeline(t, MemoOptions{TTL: 5}, core)
		first := &Request{Call: toolwall.Call{Tool: "T", Input: json.RawMessage(f[1])}}
		second := &Request{Call: toolwall.Call{Tool: "T", Input: json.RawMessage(f[2])}}
		p.Execute(ctx, first)
		r, _ := p.Execute(ctx, second)
		again, _ := p.Execute(ctx, first)
		want := map[string][2]bool{ // second cached, first again cached
			"same":        {true, true},
			"different":   {false, true},
			"uncacheable": {false, false},
		}[f[0]]
		if r.Cached != want[0] || (f[0] != "uncacheable" && again.Cached != want[1]) {
			t.Errorf("line %d: %s: second cached %v, first again cached %v (core ran %d)", nums[i], f[0], r.Cached, again.Cached, core.count())
		}
		if f[0] == "uncacheable" {
			if k, ok := canonicalJSON([]byte(f[1])); ok {
				t.Errorf("line %d: %s is cacheable as %s", nums[i], f[1], k)
			}
		}
	}
}

func TestMemoTTLInTurns(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		ttl, storeTurn, askTurn int
		hit                     bool
	}{
		{0, 1, 1, false},
		{1, 1, 1, true},
		{1, 1, 2, false},
		{3, 1, 3, true},
		{3, 1, 4, false},
		{3, 5, 4, false}, // a turn before the entry's
	} {
		core := &echo{}
		p := memoPipeline(t, MemoOptions{TTL: tc.ttl}, core)
		p.Execute(ctx, bash("ls", tc.storeTurn))
		r, _ := p.Execute(ctx, bash("ls", tc.askTurn))
		if r.Cached != tc.hit || (core.count() == 1) != tc.hit {
			t.Errorf("%+v: cached %v, core ran %d times", tc, r.Cached, core.count())
		}
	}
}

func TestMemoNeverCachesErrorsAndWrites(t *testing.T) {
	ctx := context.Background()
	for name, res := range map[string]func() (*Result, error){
		"soft error":   func() (*Result, error) { return &Result{Output: "no", IsError: true}, nil },
		"hard error":   func() (*Result, error) { return nil, fmt.Errorf("boom") },
		"write":        func() (*Result, error) { return &Result{Output: "wrote", Wrote: true}, nil },
		"confirmation": func() (*Result, error) { return &Result{IsError: true, Confirm: &Confirmation{}}, nil },
	} {
		runs := 0
		p := memoPipeline(t, MemoOptions{TTL: 10}, ToolFunc(func(context.Context, *Request) (*Result, error) {
			runs++
			return res()
		}))
		p.Execute(ctx, bash("x", 1))
		r, _ := p.Execute(ctx, bash("x", 1))
		if runs != 2 || (r != nil && r.Cached) {
			t.Errorf("%s: cached (runs %d)", name, runs)
		}
	}
}

func TestMemoHitIsACopy(t *testing.T) {
	ctx := context.Background()
	p := memoPipeline(t, MemoOptions{TTL: 10}, &echo{})
	first, _ := p.Execute(ctx, bash("ls", 1))
	first.Output = "changed by the caller"
	r, _ := p.Execute(ctx, bash("ls", 1))
	if r.Output != "Bash:ls" || !r.Cached || first.Cached {
		t.Errorf("hit %+v, first %+v", r, first)
	}
	r.Output = "changed again"
	if r2, _ := p.Execute(ctx, bash("ls", 1)); r2.Output != "Bash:ls" {
		t.Errorf("stored entry shared with a caller: %+v", r2)
	}
}

func TestMemoCapacityLRU(t *testing.T) {
	ctx := context.Background()
	core := &echo{}
	p := memoPipeline(t, MemoOptions{TTL: 100, Capacity: 2}, core)
	p.Execute(ctx, bash("a", 1))
	p.Execute(ctx, bash("b", 1))
	p.Execute(ctx, bash("a", 1)) // a is now the most recent
	p.Execute(ctx, bash("c", 1)) // evicts b
	if r, _ := p.Execute(ctx, bash("a", 1)); !r.Cached {
		t.Error("a was evicted, want b evicted")
	}
	if r, _ := p.Execute(ctx, bash("b", 1)); r.Cached {
		t.Error("b still cached beyond capacity")
	}
	if core.count() != 4 {
		t.Errorf("core ran %d times, want 4 (a, b, c, b)", core.count())
	}
}

func TestMemoSeparatesTools(t *testing.T) {
	ctx := context.Background()
	p := memoPipeline(t, MemoOptions{TTL: 10}, &echo{})
	p.Execute(ctx, bash("ls", 1))
	req := bash("ls", 1)
	req.Call.Tool = "Other"
	if r, _ := p.Execute(ctx, req); r.Cached || r.Output != "Other:ls" {
		t.Errorf("another tool got a cached result: %+v", r)
	}
}

// FuzzCanonicalJSON feeds untrusted input to the memo key: no panic, the
// same answer twice, and a canonical form that is its own canonical form.
func FuzzCanonicalJSON(f *testing.F) {
	lines, _ := readLines(f, "canonical.tsv")
	for _, l := range lines {
		f.Add([]byte(l[1]))
		f.Add([]byte(l[2]))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		a, okA := canonicalJSON(in)
		b, okB := canonicalJSON(in)
		if okA != okB || string(a) != string(b) {
			t.Fatalf("two answers for %q", in)
		}
		if !okA {
			return
		}
		if !json.Valid(in) {
			t.Fatalf("invalid JSON %q is cacheable", in)
		}
		c, ok := canonicalJSON(a)
		if !ok || string(c) != string(a) {
			t.Fatalf("canonical form %q is not stable: %q", a, c)
		}
	})
}
