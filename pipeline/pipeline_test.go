package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func layer(kind string) Middleware {
	k := map[string]Kind{"shield": KindShield, "rename": KindRename, "memoize": KindMemoize, "breaker": KindBreaker, "other": KindOther}[kind]
	return Middleware{Name: kind, Kind: k, Wrap: func(next Tool) Tool { return next }}
}

func TestInstallOrder(t *testing.T) {
	lines, nums := readLines(t, "order.tsv")
	for i, f := range lines {
		b := NewBuilder()
		for _, k := range strings.Split(f[0], ",") {
			switch k {
			case "":
			case "core":
				b.Core(&echo{})
			default:
				b.Use(layer(k))
			}
		}
		_, err := b.Build()
		var oe *OrderError
		switch want := f[1]; want {
		case "ok":
			if err != nil {
				t.Errorf("line %d: %s: %v", nums[i], f[0], err)
			}
		case "empty", "no-core":
			if target := map[string]error{"empty": ErrEmpty, "no-core": ErrNoCore}[want]; !errors.Is(err, target) {
				t.Errorf("line %d: %s: error %v, want %v", nums[i], f[0], err, target)
			}
		default:
			if !errors.As(err, &oe) || oe.Rule != want || !strings.Contains(err.Error(), want) {
				t.Errorf("line %d: %s: error %v, want rule %s", nums[i], f[0], err, want)
			}
		}
	}
}

func TestBuildRejectsMissingWrap(t *testing.T) {
	_, err := NewBuilder().Use(Middleware{Name: "broken"}).Core(&echo{}).Build()
	if err == nil || !strings.Contains(err.Error(), `"broken"`) {
		t.Fatalf("error %v, want one naming the layer", err)
	}
}

// TestLayerOrder pins that the first registered layer is the outermost.
func TestLayerOrder(t *testing.T) {
	var trace []string
	mark := func(name string) Middleware {
		return Middleware{Name: name, Wrap: func(next Tool) Tool {
			return ToolFunc(func(ctx context.Context, req *Request) (*Result, error) {
				trace = append(trace, name)
				return next.Execute(ctx, req)
			})
		}}
	}
	p, err := NewBuilder().Use(mark("a"), mark("b")).Use(mark("c")).Core(&echo{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Execute(context.Background(), bash("ls", 1)); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(trace, ","); got != "a,b,c" {
		t.Errorf("layers ran %s, want a,b,c", got)
	}
	if got := strings.Join(p.Layers(), ","); got != "a,b,c" {
		t.Errorf("Layers() = %s", got)
	}
	if _, err := p.Execute(context.Background(), nil); !errors.Is(err, ErrNilRequest) {
		t.Errorf("nil request: %v", err)
	}
}

func TestRegistryAndRename(t *testing.T) {
	core := &echo{}
	p, err := NewBuilder().Use(Rename(map[string]string{"shell": "Bash", "sh": "shell"})).
		Core(Registry{"Bash": core}).Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := bash("ls", 1)
	req.Call.Tool = "shell"
	if r, _ := p.Execute(ctx, req); r.IsError || r.Output != "Bash:ls" {
		t.Errorf("alias: %+v", r)
	}
	if req.Call.Tool != "shell" {
		t.Errorf("rename changed the caller's request: %q", req.Call.Tool)
	}
	req.Call.Tool = "sh" // an alias of an alias is not followed
	if r, _ := p.Execute(ctx, req); !r.IsError || !strings.Contains(r.Output, `unknown tool "shell"`) {
		t.Errorf("two-step alias: %+v", r)
	}
}
