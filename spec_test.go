package toolwall_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/eval"
	"github.com/toolwall/toolwall/internal/rows"
)

const specCopy = "testdata/spec/cases.jsonl"

// disputed reads testdata/spec-disputed.txt: id → reason.
func disputed(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range rows.ReadRest(t, "testdata/spec-disputed.txt", 2) {
		id, why := r.Fields[0], r.Fields[1]
		if strings.TrimSpace(why) == "" {
			t.Fatalf("%s: %q needs id<TAB>reason", r.Pos(), id)
		}
		out[id] = why
	}
	return out
}

// newSpecGate is the gate that ships, built as `toolwall eval` builds it:
// every analyzer, self included, with toolwall's own files where an
// install puts them; memory selects session memory.
func newSpecGate(memory engine.Memory) *engine.Engine {
	return engine.New(engine.Options{Memory: memory})
}

// TestSpec runs every acceptance case, those with history included, on the
// full gate: each must reach its expected action and carry its rule id.
func TestSpec(t *testing.T) {
	cases, err := eval.ReadFile(specCopy, "")
	if err != nil {
		t.Fatal(err)
	}
	skip := disputed(t)
	if len(skip) > 5 {
		t.Errorf("%d disputed cases: the list is for a handful", len(skip))
	}
	if len(cases) < 400 {
		t.Fatalf("only %d acceptance cases read from %s", len(cases), specCopy)
	}
	for id := range skip {
		if !slices.ContainsFunc(cases, func(c eval.Case) bool { return c.ID == id }) {
			t.Errorf("disputed.txt names %s, which is not a case", id)
		}
	}
	r := &eval.Runner{
		Shield: newSpecGate(engine.NoMemory),
		Fresh: func() toolwall.Shield {
			return newSpecGate(engine.Volatile)
		},
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if why, ok := skip[c.ID]; ok {
				t.Skipf("disputed: %s", why)
			}
			ok, v := r.Check(context.Background(), c)
			if !ok {
				want := c.Expect
				if c.Rule != "" {
					want += " with rule " + c.Rule
				}
				t.Errorf("%s\n  expected %s, got %s %v\n  reason: %s\n  commands: %q", c.Display(), want, v.Action, v.Rules(), v.Reason, v.Commands)
			}
			if v.Action.Stops() && v.Reason == "" {
				t.Errorf("%s: %s without a reason", c.Display(), v.Action)
			}
		})
	}
}

// TestCases runs the project's own case files, testdata/cases/*.jsonl
// (the acceptance format): regressions found in review, kept beside the
// shared acceptance cases.
func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files under testdata/cases (%v)", err)
	}
	r := &eval.Runner{Shield: newSpecGate(engine.NoMemory), Fresh: func() toolwall.Shield { return newSpecGate(engine.Volatile) }}
	for _, file := range files {
		cases, err := eval.ReadFile(file, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(c.ID, func(t *testing.T) {
				if ok, v := r.Check(context.Background(), c); !ok {
					t.Errorf("%s: %s\n  expected %s %s, got %s %v: %s", file, c.Display(), c.Expect, c.Rule, v.Action, v.Rules(), v.Reason)
				}
			})
		}
	}
}

// TestSpecCopyCurrent fails when the shared acceptance file beside the
// clone differs from the copy under testdata.
func TestSpecCopyCurrent(t *testing.T) {
	sharedSpec := filepath.Join("..", "shared", "spec", "cases.jsonl")
	shared, err := os.ReadFile(sharedSpec)
	if os.IsNotExist(err) {
		t.Skip(sharedSpec + " not present; nothing to compare")
	}
	if err != nil {
		t.Fatal(err)
	}
	local, err := os.ReadFile(specCopy)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared, local) {
		t.Errorf("%s differs from %s: refresh the copy (see testdata/spec/README.md)", specCopy, sharedSpec)
	}
}
