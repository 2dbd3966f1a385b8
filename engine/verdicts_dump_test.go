package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/eval"
)

// TestVerdictDump writes, for every line of the corpora
// ($TOOLWALL_CORPORA) and every case of testdata/spec and testdata/cases,
// its action, score, rules and command list, one line each, to the file
// $TOOLWALL_VERDICTS (skipped when unset). Diff two dumps to show that a
// change meant to cost less decides the same:
//
//	TOOLWALL_CORPORA=… TOOLWALL_VERDICTS=/tmp/before.txt go test -run TestVerdictDump ./engine
//
// A dry run that meets its wall-clock budget on a loaded machine can
// change a line's command list (not its verdict) from one run to the next.
func TestVerdictDump(t *testing.T) {
	out := os.Getenv("TOOLWALL_VERDICTS")
	corpora := os.Getenv("TOOLWALL_CORPORA")
	if out == "" || corpora == "" {
		t.Skip("set TOOLWALL_VERDICTS and TOOLWALL_CORPORA")
	}
	files := []string{
		"benign/nl2bash.txt", "benign/tldr.txt", "benign/tldr-windows.txt",
		"dangerous/atomic-red-team.txt", "peers/dcg-corpus.tsv",
	}
	for i, f := range files {
		files[i] = filepath.Join(corpora, f)
	}
	files = append(files, "../testdata/spec/cases.jsonl")
	more, _ := filepath.Glob("../testdata/cases/*.jsonl")
	files = append(files, more...)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	places := eval.Places{Cwd: eval.DefaultProject, Home: eval.DefaultHome, Project: eval.DefaultProject}
	r := &eval.Runner{
		Shield: New(Options{}),
		Fresh:  func() toolwall.Shield { return New(Options{Memory: Volatile}) },
		Places: places,
	}
	for _, name := range files {
		cs, err := eval.ReadFile(name, "allow")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, c := range cs {
			_, v := r.Check(context.Background(), c)
			rules := v.Rules()
			sort.Strings(rules)
			fmt.Fprintf(w, "%s:%d\t%s\t%.4f\t%s\t%q\n", filepath.Base(name), i, v.Action, v.Score, strings.Join(rules, ","), v.Commands)
		}
	}
}
