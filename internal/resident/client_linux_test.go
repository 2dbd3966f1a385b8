package resident

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLoaderFree: an environment with an entry that starts with LD_ is
// refused however the read splits it (testdata/environ.tsv).
func TestLoaderFree(t *testing.T) {
	f, err := os.Open("testdata/environ.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" && !strings.Contains(line, "\t") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("bad row %q", line)
		}
		env := []byte(strings.ReplaceAll(cols[0], "|", "\x00"))
		piece, _ := strconv.Atoi(cols[1])
		check := loaderFree()
		var err error
		for i := 0; i < len(env) && err == nil; i += piece {
			err = check(env[i:min(i+piece, len(env))])
		}
		if got := err != nil; got != (cols[2] == "yes") {
			t.Errorf("%q in pieces of %d: refused %v, want %s", cols[0], piece, got, cols[2])
		}
	}
}
