package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/shtrace"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestZZDiff(t *testing.T) {
	file := os.Getenv("ZZ")
	if file == "" {
		t.Skip()
	}
	var texts []string
	if file == "composed" {
		texts = composedForms()
	} else if file == "new" {
		n := len(forms)
		for _, p := range payloads {
			for i, f := range forms {
				for j, g := range forms {
					if i >= n-6 || j >= n-6 {
						texts = append(texts, g(f(p)))
					}
				}
				if i >= n-6 {
					texts = append(texts, f(p))
				}
			}
		}
	} else {
		b, _ := os.ReadFile(file)
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var s string
			if json.Unmarshal([]byte(l), &s) != nil {
				s = l
			}
			texts = append(texts, s)
		}
	}
	tr := sealedTracer(t)
	g := New(Options{})
	known := readKnown(t)
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan string)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for text := range work {
				for _, m := range disagreements(t, tr, g, text) {
					p := strings.SplitN(m, "\x00", 4)
					if _, ok := known[p[0]+"\x00"+p[1]+"\x00"+p[2]]; ok {
						continue
					}
					mu.Lock()
					fmt.Printf("DIS %s %q %q %s\n", p[0], p[1], p[2], p[3])
					mu.Unlock()
				}
			}
		}()
	}
	for _, x := range texts {
		work <- x
	}
	close(work)
	wg.Wait()
	fmt.Println("texts", len(texts))
}

func TestZZVerdict(t *testing.T) {
	g := New(Options{})
	for _, s := range strings.Split(os.Getenv("ZZV"), "\x01") {
		call := toolwall.NewBashCall(s)
		call.Cwd, call.Home = shtrace.Cwd, shtrace.Home
		v := g.Evaluate(context.Background(), call)
		fmt.Printf("%q: %s %v\n", s, v.Action, v.Rules())
	}
}
