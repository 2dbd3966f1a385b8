package secrets

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// rows reads a tab-separated table, skipping blank lines and # comments,
// and checks every row has n fields.
func rows(t testing.TB, file string, n int) [][]string {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][]string
	sc := bufio.NewScanner(fh)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.SplitN(l, "\t", n)
		if len(f) != n {
			t.Fatalf("%s:%d: want %d tab-separated fields, got %d", file, line, n, len(f))
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
