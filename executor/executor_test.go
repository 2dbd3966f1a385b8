package executor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/pipeline"
)

func readCall(tool, input string) toolwall.Call {
	return toolwall.Call{Tool: tool, Input: json.RawMessage(input)}
}

// TestWrappersForward: every wrapper of this package consults its inner
// executor in every method and never answers more permissively.
func TestWrappersForward(t *testing.T) {
	call := readCall("Read", `{"file_path":"/p/a.go"}`)
	for name, wrap := range map[string]func(executor.Executor) executor.Executor{
		"Suppress": func(in executor.Executor) executor.Executor { return executor.Suppress(in, "Bash") },
		"Cache": func(in executor.Executor) executor.Executor {
			return executor.NewCache(in, executor.CacheOptions{Cacheable: []string{"Read"}})
		},
		"Dependencies": func(in executor.Executor) executor.Executor {
			d, err := executor.NewDependencies(in, map[string][]string{"Edit": {"Read"}})
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
		"Speculator": func(in executor.Executor) executor.Executor {
			return executor.NewSpeculator(in, executor.SpeculatorOptions{})
		},
		"Composite": func(in executor.Executor) executor.Executor {
			c, err := executor.NewComposite(in)
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
	} {
		t.Run(name, func(t *testing.T) { executortest.Forwarding(t, wrap, call) })
	}
	executortest.NoEmbedding(t, ".")
}

// spy collects a check's failures instead of failing the test.
type spy struct {
	*testing.T
	errs []string
}

func (s *spy) Errorf(format string, args ...any) {
	s.errs = append(s.errs, fmt.Sprintf(format, args...))
}
func (s *spy) Helper() {}

// lazy is a wrapper that forgets to consult its inner executor in
// Confirmation and Speculatable: the permissive default the tool-executor framework warns of.
type lazy struct{ inner executor.Executor }

func (l lazy) Definitions() []executor.Definition { return l.inner.Definitions() }
func (l lazy) Execute(ctx context.Context, r *executor.Request) (*executor.Output, error) {
	return l.inner.Execute(ctx, r)
}
func (lazy) Confirmation(context.Context, toolwall.Call) *pipeline.Confirmation { return nil }
func (lazy) Speculatable(toolwall.Call) bool                                    { return true }

// TestForwardingCatchesLazyWrapper: the conformance check fails a wrapper
// that answers permissively instead of forwarding.
func TestForwardingCatchesLazyWrapper(t *testing.T) {
	s := &spy{T: t}
	executortest.Forwarding(s, func(in executor.Executor) executor.Executor { return lazy{in} }, readCall("Read", `{}`))
	joined := strings.Join(s.errs, "\n")
	for _, want := range []string{"Confirmation (strict=false): the wrapper did not consult", "Speculatable (strict=true): the inner executor refuses speculation"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Forwarding missed %q; it reported:\n%s", want, joined)
		}
	}
}

func TestComposite(t *testing.T) {
	a := &executortest.Recorder{Tools: []string{"Read", "Glob"}}
	b := &executortest.Recorder{Tools: []string{"Bash"}, Strict: true}
	c, err := executor.NewComposite(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range c.Definitions() {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"Read", "Glob", "Bash"}) {
		t.Errorf("Definitions = %v", names)
	}
	out, _ := c.Execute(context.Background(), &executor.Request{Call: readCall("Glob", `{}`)})
	if out.Text != "ran Glob" || a.Count("Execute") != 1 || b.Count("Execute") != 0 {
		t.Errorf("Glob went to the wrong executor: %+v", out)
	}
	if c.Confirmation(context.Background(), readCall("Bash", `{}`)) == nil || c.Speculatable(readCall("Bash", `{}`)) {
		t.Error("Bash's strict executor was not consulted")
	}
	out, _ = c.Execute(context.Background(), &executor.Request{Call: readCall("Nope", `{}`)})
	if !out.IsError || c.Speculatable(readCall("Nope", `{}`)) {
		t.Errorf("unknown tool: %+v", out)
	}
	if _, err := executor.NewComposite(a, &executortest.Recorder{Tools: []string{"Read"}}); err == nil || !strings.Contains(err.Error(), `"Read" is defined by executors 0 and 1`) {
		t.Errorf("duplicate tool: err = %v", err)
	}
}

func TestSuppress(t *testing.T) {
	in := &executortest.Recorder{Tools: []string{"Read", "Bash"}}
	s := executor.Suppress(in, "Bash")
	if executor.Has(s.Definitions(), "Bash") || !executor.Has(s.Definitions(), "Read") {
		t.Errorf("Definitions = %v", s.Definitions())
	}
	out, _ := s.Execute(context.Background(), &executor.Request{Call: readCall("Bash", `{"command":"ls"}`)})
	if !out.IsError || in.Count("Execute") != 0 {
		t.Errorf("a suppressed tool ran: %+v", out)
	}
}

func TestCache(t *testing.T) {
	now := time.Unix(1000, 0)
	in := &executortest.Recorder{Tools: []string{"Read", "Bash"}}
	c := executor.NewCache(in, executor.CacheOptions{Cacheable: []string{"Read"}, TTL: time.Minute, Capacity: 2, Now: func() time.Time { return now }})
	run := func(tool, input string) *executor.Output {
		out, err := c.Execute(context.Background(), &executor.Request{Call: readCall(tool, input)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run("Read", `{"file_path":"a","limit":1}`)
	if out := run("Read", `{ "limit":1, "file_path":"a" }`); !out.Cached {
		t.Error("same canonical arguments missed the cache")
	}
	run("Bash", `{"command":"ls"}`)
	run("Bash", `{"command":"ls"}`)
	if in.Count("Execute") != 3 {
		t.Errorf("inner ran %d times, want 3 (Bash is not on the whitelist)", in.Count("Execute"))
	}
	if out := run("Read", `{"file_path":"a","file_path":"b"}`); out.Cached {
		t.Error("duplicate keys were cached")
	}
	now = now.Add(2 * time.Minute)
	if out := run("Read", `{"file_path":"a","limit":1}`); out.Cached {
		t.Error("an expired entry served")
	}
	run("Read", `{"file_path":"b"}`)
	run("Read", `{"file_path":"c"}`) // evicts the least recently used ("a")
	if out := run("Read", `{"file_path":"a","limit":1}`); out.Cached {
		t.Error("the least recently used entry survived past the capacity")
	}
	st := c.Stats()
	if st.Hits != 1 || st.Misses != 5 || st.Entries != 2 {
		t.Errorf("Stats = %+v, want 1 hit, 5 misses, 2 entries", st)
	}
	strict := executor.NewCache(&executortest.Recorder{Tools: []string{"Read"}, Strict: true}, executor.CacheOptions{Cacheable: []string{"Read"}})
	strict.Execute(context.Background(), &executor.Request{Call: readCall("Read", `{}`)})
	if out, _ := strict.Execute(context.Background(), &executor.Request{Call: readCall("Read", `{}`)}); out.Cached {
		t.Error("a call the inner executor will not speculate was cached")
	}
}

func TestDependencies(t *testing.T) {
	in := &executortest.Recorder{Tools: []string{"Read", "Edit", "Bash"}}
	d, err := executor.NewDependencies(in, map[string][]string{"Edit": {"Read"}, "Bash": {"Edit"}})
	if err != nil {
		t.Fatal(err)
	}
	if executor.Has(d.Definitions(), "Edit") || !executor.Has(d.Definitions(), "Read") {
		t.Errorf("Definitions before Read: %v", d.Definitions())
	}
	ex := d.Exclusions()
	if len(ex) != 2 || ex[0].Tool != "Edit" || ex[0].Missing[0] != "Read" {
		t.Errorf("Exclusions = %+v", ex)
	}
	out, _ := d.Execute(context.Background(), &executor.Request{Call: readCall("Edit", `{}`)})
	if !out.IsError || !strings.Contains(out.Text, `needs Read`) || in.Count("Execute") != 0 {
		t.Errorf("Edit before Read: %+v", out)
	}
	d.Execute(context.Background(), &executor.Request{Call: readCall("Read", `{}`)})
	if !executor.Has(d.Definitions(), "Edit") || executor.Has(d.Definitions(), "Bash") {
		t.Errorf("Definitions after Read: %v", d.Definitions())
	}
	if _, err := executor.NewDependencies(in, map[string][]string{"A": {"B"}, "B": {"A"}}); err == nil || !strings.Contains(err.Error(), "A → B → A") {
		t.Errorf("cycle: err = %v", err)
	}
}

// slow counts its runs and takes a moment for each.
type slow struct {
	executortest.Recorder
	runs atomic.Int32
}

func (s *slow) Execute(ctx context.Context, r *executor.Request) (*executor.Output, error) {
	s.runs.Add(1)
	time.Sleep(20 * time.Millisecond)
	return s.Recorder.Execute(ctx, r)
}

func TestSpeculator(t *testing.T) {
	in := &slow{Recorder: executortest.Recorder{Tools: []string{"Read"}}}
	s := executor.NewSpeculator(in, executor.SpeculatorOptions{MaxPending: 2})
	defer s.Close()
	ctx := context.Background()
	if !s.Speculate(ctx, readCall("Read", `{"file_path":"a"}`)) {
		t.Fatal("a read-only call was not speculated")
	}
	out, err := s.Execute(ctx, &executor.Request{Call: readCall("Read", `{ "file_path": "a" }`)})
	if err != nil || !out.Speculative || in.runs.Load() != 1 {
		t.Fatalf("the speculative result was not reused: %+v, %d runs", out, in.runs.Load())
	}
	out, _ = s.Execute(ctx, &executor.Request{Call: readCall("Read", `{"file_path":"a"}`)})
	if out.Speculative || in.runs.Load() != 2 {
		t.Errorf("a speculative result served twice")
	}
	if used, _ := s.Stats(); used != 1 {
		t.Errorf("used = %d", used)
	}
	strict := executor.NewSpeculator(&executortest.Recorder{Tools: []string{"Bash"}, Strict: true}, executor.SpeculatorOptions{})
	defer strict.Close()
	if strict.Speculate(ctx, readCall("Bash", `{"command":"rm x"}`)) {
		t.Error("a call that needs confirmation was speculated")
	}
	s.Speculate(ctx, readCall("Read", `{"file_path":"b"}`))
	s.Speculate(ctx, readCall("Read", `{"file_path":"c"}`))
	if s.Speculate(ctx, readCall("Read", `{"file_path":"d"}`)) {
		t.Error("MaxPending was not honoured")
	}
}

func TestTool(t *testing.T) {
	tool := executor.Tool(&executortest.Recorder{Tools: []string{"Bash"}, Strict: true})
	res, err := tool.Execute(context.Background(), &pipeline.Request{Call: readCall("Bash", `{}`)})
	if err != nil || !res.IsError || res.Confirm == nil {
		t.Errorf("pipeline result = %+v, %v", res, err)
	}
}

type resolveCase struct {
	Name        string             `json:"name"`
	Inherit     []string           `json:"inherit"`
	Cwd         string             `json:"cwd"`
	CallCwd     string             `json:"call_cwd"`
	Default     *ctxJSON           `json:"default"`
	Named       map[string]ctxJSON `json:"named"`
	Call        *ctxJSON           `json:"call"`
	WantCwd     string             `json:"want_cwd"`
	WantEnv     []string           `json:"want_env"`
	WantDropped []string           `json:"want_dropped"`
	WantErr     string             `json:"want_err"`
}

type ctxJSON struct {
	Name    string            `json:"name"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	Trusted bool              `json:"trusted"`
}

func TestResolve(t *testing.T) {
	data, err := os.ReadFile("testdata/resolve.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []resolveCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			envs := executor.Environments{Inherit: tc.Inherit, Cwd: tc.Cwd, Named: map[string]executor.ExecutionContext{}}
			if envs.Cwd == "" {
				envs.Cwd = "/"
			}
			if tc.Default != nil {
				envs.Default = executor.Trusted("", tc.Default.Cwd, tc.Default.Env)
			}
			for n, c := range tc.Named {
				envs.Named[n] = executor.Trusted(n, c.Cwd, c.Env)
			}
			var own *executor.ExecutionContext
			if tc.Call != nil {
				c := executor.ExecutionContext{Name: tc.Call.Name, Cwd: tc.Call.Cwd, Env: tc.Call.Env}
				if tc.Call.Trusted {
					c = executor.Trusted(c.Name, c.Cwd, c.Env)
				}
				own = &c
			}
			got, err := executor.Resolve(own, tc.CallCwd, envs)
			if tc.WantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.WantErr) {
					t.Fatalf("err = %v, want %q", err, tc.WantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Cwd != tc.WantCwd || !slices.Equal(got.Env, nonNil(tc.WantEnv)) || !slices.Equal(got.Dropped, tc.WantDropped) {
				t.Errorf("Resolve = cwd %q env %q dropped %q, want %q %q %q", got.Cwd, got.Env, got.Dropped, tc.WantCwd, tc.WantEnv, tc.WantDropped)
			}
		})
	}
}

func nonNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func FuzzCallKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,2,{"c":null}]}`, `{"a":1,"a":2}`, `[`, `"x"`, `{"b":2,"a":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		k1, ok1 := executor.CallKey("T", []byte(in))
		k2, ok2 := executor.CallKey("T", []byte(in))
		if ok1 != ok2 || k1 != k2 {
			t.Fatal("CallKey is not deterministic")
		}
		if ok1 && !json.Valid([]byte(in)) {
			t.Fatalf("CallKey accepted invalid JSON %q", in)
		}
	})
}

// TestSuppressRoutes: the routes an agent could take to a hidden tool
// (the tool filter) — a human's approval, a speculative run ahead
// of the model, a result cache or a composite around the filter — all
// end at the refusal, and the inner executor never runs the tool.
func TestSuppressRoutes(t *testing.T) {
	ctx := context.Background()
	in := &executortest.Recorder{Tools: []string{"Read", "Bash"}}
	hidden := executor.Suppress(in, "Bash")
	spec := executor.NewSpeculator(hidden, executor.SpeculatorOptions{})
	cache := executor.NewCache(spec, executor.CacheOptions{Cacheable: []string{"Read", "Bash"}})
	all, err := executor.NewComposite(cache)
	if err != nil {
		t.Fatal(err)
	}
	bash := readCall("Bash", `{"command":"ls"}`)
	if spec.Speculate(ctx, bash) || hidden.Speculatable(bash) {
		t.Error("a hidden tool was speculated")
	}
	for _, e := range []executor.Executor{all, cache, spec, hidden} {
		for i, req := range []*executor.Request{{Call: bash}, {Call: bash, Approved: true}, {Call: bash}} {
			out, err := e.Execute(ctx, req)
			if err != nil || !out.IsError || out.Cached || !strings.Contains(out.Text, `tool "Bash" is not available`) && !strings.Contains(out.Text, `unknown tool "Bash"`) {
				t.Errorf("%T, call %d of the hidden tool: %+v, %v", e, i, out, err)
			}
		}
	}
	if executor.Has(all.Definitions(), "Bash") || in.Count("Execute") != 0 {
		t.Errorf("the hidden tool is defined or ran: %v, %d runs", all.Definitions(), in.Count("Execute"))
	}
	if out, _ := all.Execute(ctx, &executor.Request{Call: readCall("Read", `{}`)}); out.IsError {
		t.Errorf("a visible tool: %+v", out)
	}
}
