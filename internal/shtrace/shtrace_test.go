package shtrace

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestMissingName reads testdata/not-found.txt: a shell's message and the
// commands it says were not found.
func TestMissingName(t *testing.T) {
	f, err := os.Open("testdata/not-found.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unescape := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\\`, `\`).Replace
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if sc.Text() == "" || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		line, want, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("no tab: %q", sc.Text())
		}
		got := strings.Join(missingNames(line), " ")
		if got == "" {
			got = "-"
		}
		if want != "-" {
			want = unescape(want)
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", line, got, want)
		}
	}
}
