package executortest

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/pipeline"
)

// Recorder is an inner executor that defines Tools and counts the calls
// of each method. A Strict recorder answers as strictly as an executor
// can: every call needs confirmation, none is speculatable, and Execute
// returns an IsError output asking for confirmation.
type Recorder struct {
	Tools  []string
	Strict bool

	mu    sync.Mutex
	calls map[string]int
}

func (r *Recorder) note(method string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[method]++
}

// Count returns how often method was called.
func (r *Recorder) Count(method string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[method]
}

// Reset forgets the counts.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.calls)
}

// Definitions defines Tools with an empty object schema.
func (r *Recorder) Definitions() []executor.Definition {
	r.note("Definitions")
	var out []executor.Definition
	for _, t := range r.Tools {
		out = append(out, executor.Definition{Name: t, Description: "recorded tool " + t, InputSchema: []byte(`{"type":"object"}`)})
	}
	return out
}

// Execute returns "ran TOOL", or for a Strict recorder a soft error that
// asks for confirmation.
func (r *Recorder) Execute(_ context.Context, req *executor.Request) (*executor.Output, error) {
	r.note("Execute")
	if r.Strict {
		c := &pipeline.Confirmation{Reason: "recorder asks"}
		return &executor.Output{Tool: req.Call.Tool, Text: "confirmation required", IsError: true, Confirm: c}, nil
	}
	return &executor.Output{Tool: req.Call.Tool, Text: "ran " + req.Call.Tool}, nil
}

// Confirmation asks for confirmation when Strict.
func (r *Recorder) Confirmation(context.Context, toolwall.Call) *pipeline.Confirmation {
	r.note("Confirmation")
	if r.Strict {
		return &pipeline.Confirmation{Reason: "recorder asks"}
	}
	return nil
}

// Speculatable is true unless Strict.
func (r *Recorder) Speculatable(toolwall.Call) bool {
	r.note("Speculatable")
	return !r.Strict
}

var executorType = reflect.TypeFor[executor.Executor]()

// Forwarding checks the wrapper wrap builds around an inner executor: for
// a call the wrapper lets through (call's tool must be one it does not
// hide or hold back), every method of executor.Executor must consult the
// inner executor, and no answer may be more permissive than the inner
// one — a needed confirmation stays needed, a call the inner executor
// will not speculate stays unspeculatable, a soft error stays an error,
// and the tool stays defined. A method executortest cannot call or judge
// fails the test, so adding a method to the interface means teaching this
// check about it.
func Forwarding(t testing.TB, wrap func(inner executor.Executor) executor.Executor, call toolwall.Call) {
	t.Helper()
	ctx := context.Background()
	for _, strict := range []bool{false, true} {
		rec := &Recorder{Tools: []string{call.Tool}, Strict: strict}
		w := reflect.ValueOf(wrap(rec))
		for i := range executorType.NumMethod() {
			m := executorType.Method(i)
			var args []reflect.Value
			for j := range m.Type.NumIn() {
				switch in := m.Type.In(j); in {
				case reflect.TypeFor[context.Context]():
					args = append(args, reflect.ValueOf(ctx))
				case reflect.TypeFor[*executor.Request]():
					args = append(args, reflect.ValueOf(&executor.Request{Call: call}))
				case reflect.TypeFor[toolwall.Call]():
					args = append(args, reflect.ValueOf(call))
				default:
					t.Fatalf("executortest: cannot call %s: unknown parameter type %v; teach Forwarding about it", m.Name, in)
				}
			}
			rec.Reset()
			res := w.MethodByName(m.Name).Call(args)
			if rec.Count(m.Name) == 0 {
				t.Errorf("%s (strict=%v): the wrapper did not consult its inner executor", m.Name, strict)
			}
			judge(t, m.Name, strict, call.Tool, res)
		}
	}
}

// judge checks that a wrapper's answer is no more permissive than the
// recorder's.
func judge(t testing.TB, method string, strict bool, tool string, res []reflect.Value) {
	t.Helper()
	switch method {
	case "Definitions":
		defs := res[0].Interface().([]executor.Definition)
		if !executor.Has(defs, tool) {
			t.Errorf("Definitions (strict=%v): tool %q of the inner executor is missing", strict, tool)
		}
	case "Execute":
		out, _ := res[0].Interface().(*executor.Output)
		if err, _ := res[1].Interface().(error); err != nil {
			t.Errorf("Execute (strict=%v): error %v", strict, err)
			return
		}
		if out == nil {
			t.Errorf("Execute (strict=%v): nil output", strict)
			return
		}
		if strict && (!out.IsError || out.Confirm == nil) {
			t.Errorf("Execute (strict=%v): the inner executor's refusal was lost: %+v", strict, out)
		}
	case "Confirmation":
		c, _ := res[0].Interface().(*pipeline.Confirmation)
		if strict && c == nil {
			t.Errorf("Confirmation (strict=%v): the inner executor asks for confirmation, the wrapper does not", strict)
		}
	case "Speculatable":
		if strict && res[0].Bool() {
			t.Errorf("Speculatable (strict=%v): the inner executor refuses speculation, the wrapper allows it", strict)
		}
	default:
		t.Errorf("executortest: does not know how to judge the answers of %s; teach Forwarding about it", method)
	}
}

// NoEmbedding fails for every struct type in the Go files of dir (tests
// excluded) with an embedded field whose type is named Executor (or
// pkg.Executor): a wrapper must hold its inner executor in a named field
// and answer every method itself.
func NoEmbedding(t testing.TB, dir string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("executortest: no Go files in %s (%v)", dir, err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				if len(fl.Names) > 0 {
					continue
				}
				typ := fl.Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				var id string
				switch x := typ.(type) {
				case *ast.Ident:
					id = x.Name
				case *ast.SelectorExpr:
					id = x.Sel.Name
				}
				if id == "Executor" {
					t.Errorf("%s: a struct embeds %s; hold the inner executor in a named field and implement every method", fset.Position(fl.Pos()), id)
				}
			}
			return true
		})
	}
}
