package engine

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
)

// lines reads a case file of one command a line ("#" comments).
func lines(tb testing.TB, name string) []string {
	tb.Helper()
	f, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func call(cmd string) toolwall.Call {
	c := toolwall.NewBashCall(cmd)
	c.Cwd, c.Project, c.Home = "/workspace/app", "/workspace/app", "/home/user"
	return c
}

// BenchmarkEvaluate is the gate that ships (every analyzer, self with
// the default install layout) on each one-line command of
// testdata/oneline.txt; the median over them is the figure to compare
// with the 20 µs.
func BenchmarkEvaluate(b *testing.B) {
	e := New(Options{})
	ctx := context.Background()
	for _, cmd := range lines(b, "testdata/oneline.txt") {
		c := call(cmd)
		b.Run(strings.Fields(cmd)[0]+"/"+cmd, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Evaluate(ctx, c)
			}
		})
	}
}

// worst are inputs that push the reader and the analyzers to their
// bounds: 128 KiB of commands, 10 k nesting, a 16 k-deep path, the dry
// run's worst cases.
func worst() map[string]string {
	deep := "/" + strings.Repeat("a/", 16000) + "x"
	return map[string]string{
		"128KiB":       strings.Repeat("echo hello world; ", 128<<10/18),
		"nest10k":      strings.Repeat("$(", 10000) + "x" + strings.Repeat(")", 10000),
		"deep-path":    "rm -rf " + deep,
		"deep-cat":     "cat " + deep + " > " + deep,
		"dry-calls":    "while :; do rm \"$X\"; done",
		"dry-eval":     "x=a; while true; do eval 'x=$x$x$x$x'; done; rm $x",
		"dry-arith":    "n=0; while [[ $n -lt 1000000 ]]; do n=$((n+1)); done; rm \"$n\"",
		"dry-function": "f() { f; }; f; rm \"$X\"",
	}
}

// BenchmarkWorstCase times the worst inputs (none takes more
// than 50 ms to analyse).
func BenchmarkWorstCase(b *testing.B) {
	e := New(Options{})
	ctx := context.Background()
	for name, cmd := range worst() {
		c := call(cmd)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				e.Evaluate(ctx, c)
			}
		})
	}
}

// TestWorstCaseDeterministic: the worst inputs get the same verdict
// every time (the dry run's bounds are counted in work first).
func TestWorstCaseDeterministic(t *testing.T) {
	e := New(Options{})
	ctx := context.Background()
	for name, cmd := range worst() {
		first := e.Evaluate(ctx, call(cmd))
		for range 3 {
			v := e.Evaluate(ctx, call(cmd))
			if v.Action != first.Action || strings.Join(v.Rules(), ",") != strings.Join(first.Rules(), ",") {
				t.Errorf("%s: %v %v, then %v %v", name, first.Action, first.Rules(), v.Action, v.Rules())
			}
		}
	}
}

// FuzzEvaluate runs arbitrary commands through the gate that ships: it
// never panics (a panic inside is a deny), a stop always has a reason and
// a rule, and the verdict is the same twice.
func FuzzEvaluate(f *testing.F) {
	for _, l := range lines(f, "testdata/oneline.txt") {
		f.Add(l)
	}
	for _, w := range []string{"rm -rf ~", "x=rm; $x -rf /", "eval \"$(cat <<EOF\nrm -rf ~\nEOF\n)\"", "docker run -v ~:/h alpine rm -rf /h"} {
		f.Add(w)
	}
	e := New(Options{})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 4096 {
			return
		}
		a := e.Evaluate(ctx, call(cmd))
		b := e.Evaluate(ctx, call(cmd))
		if a.Action != b.Action {
			t.Fatalf("%q: %v then %v", cmd, a.Action, b.Action)
		}
		if a.Action.Stops() && (a.Reason == "" || len(a.Rules()) == 0) {
			t.Fatalf("%q: %v without reason or rule", cmd, a.Action)
		}
		if len(a.Reason) > 400 {
			t.Fatalf("%q: reason of %d bytes", cmd, len(a.Reason))
		}
	})
}
