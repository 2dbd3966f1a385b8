package resident

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/internal/rows"
)

// TestLoaderFree: an environment with an entry that starts with LD_ is
// refused however the read splits it (testdata/environ.tsv).
func TestLoaderFree(t *testing.T) {
	for _, r := range rows.Read(t, "testdata/environ.tsv", 3) {
		cols := r.Fields
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
