package shell

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZScratch(t *testing.T) {
	f := os.Getenv("ZZ")
	if f == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(f)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var src string
		if json.Unmarshal([]byte(l), &src) != nil {
			src = l
		}
		s, err := Read(src, defaultOptions())
		fmt.Printf("%q\n\t%s\n", src, strings.Join(renderScript(s, err, defaultOptions()), "\n\t"))
	}
}

func BenchmarkZZNest(b *testing.B) {
	src := strings.Repeat("((", 250) + "1" + strings.Repeat("))", 250)
	for i := 0; i < b.N; i++ {
		Read(src, defaultOptions())
	}
}
