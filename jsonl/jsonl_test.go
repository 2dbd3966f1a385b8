package jsonl

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func lines(t *testing.T, f *File) []string {
	t.Helper()
	var out []string
	if err := f.Read(func(l []byte) error { out = append(out, string(l)); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAppendRewriteDrainConcurrent: writers append while retention
// rewrites and an indexer drains; every line ends up either drained or
// still in the file, exactly once, unless retention dropped it.
func TestAppendRewriteDrainConcurrent(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "sub", "log.jsonl")}
	const writers, each = 8, 200
	var wg sync.WaitGroup
	var mu sync.Mutex
	drained := map[string]int{}
	dropped := 0
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(1)
	go func() {
		defer bg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				n, err := f.Rewrite(func(l []byte) bool { return !bytes.HasSuffix(l, []byte("-drop")) })
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				dropped += n
				mu.Unlock()
			} else if err := f.Drain(func(ls [][]byte) error {
				mu.Lock()
				defer mu.Unlock()
				for _, l := range ls {
					if bytes.HasSuffix(l, []byte("-drop")) {
						dropped++
						continue
					}
					drained[string(l)]++
				}
				return nil
			}); err != nil {
				t.Error(err)
			}
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				l := fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)
				if i%10 == 0 {
					l += "-drop"
				}
				if err := f.Append([]byte(l)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	bg.Wait()
	for _, l := range lines(t, f) {
		if strings.HasSuffix(l, "-drop") {
			dropped++
		} else {
			drained[l]++
		}
	}
	if len(drained) != writers*each*9/10 || dropped != writers*each/10 {
		t.Fatalf("kept %d distinct lines, dropped %d; want %d and %d", len(drained), dropped, writers*each*9/10, writers*each/10)
	}
	for l, n := range drained {
		if n != 1 {
			t.Errorf("line %s seen %d times", l, n)
		}
	}
}

func TestTornAndBadLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	os.WriteFile(p, []byte("a\n\nb\ntorn-without-newline"), 0o600)
	f := &File{Path: p}
	if got := strings.Join(lines(t, f), ","); got != "a,b" {
		t.Errorf("lines %q", got)
	}
	if err := f.Append([]byte("x\ny")); err != ErrLineTooLong {
		t.Errorf("newline in line: %v", err)
	}
	missing := &File{Path: filepath.Join(t.TempDir(), "none.jsonl")}
	if got := lines(t, missing); len(got) != 0 {
		t.Errorf("missing file: %q", got)
	}
	if n, err := missing.Rewrite(func([]byte) bool { return false }); n != 0 || err != nil {
		t.Errorf("rewrite of a missing file: %d %v", n, err)
	}
	called := false
	if err := missing.Drain(func(ls [][]byte) error { called = len(ls) == 0; return nil }); err != nil || !called {
		t.Errorf("drain of a missing file: %v %v", called, err)
	}
}

func TestDrainFailureKeepsLines(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "log.jsonl")}
	f.Append([]byte("one"))
	if err := f.Drain(func([][]byte) error { return fmt.Errorf("db down") }); err == nil {
		t.Fatal("drain error lost")
	}
	if got := lines(t, f); len(got) != 1 || f.Size() != 4 {
		t.Errorf("after failed drain: %q", got)
	}
}

func BenchmarkAppend(b *testing.B) {
	f := &File{Path: filepath.Join(b.TempDir(), "log.jsonl")}
	line := bytes.Repeat([]byte("x"), 600)
	for b.Loop() {
		if err := f.Append(line); err != nil {
			b.Fatal(err)
		}
	}
}
