package remote

import (
	"testing"
)

// TestShellFacts checks the remote-shell facts on program text
// (testdata/netshell.tsv): language, "shell" or "no", the code.
func TestShellFacts(t *testing.T) {
	names := map[string]lang{}
	for l, n := range langNames {
		names[n] = lang(l)
	}
	a := &analyzer{}
	for _, r := range readTable(t, "netshell.tsv", 3) {
		l, ok := names[r.fields[0]]
		if !ok {
			t.Fatalf("netshell.tsv:%d: unknown language %q", r.line, r.fields[0])
		}
		want := r.fields[1] == "shell"
		if got := a.codeShell(nil, l, r.fields[2]); got != want {
			f, _ := readShellCode(l, r.fields[2])
			t.Errorf("netshell.tsv:%d: %s code: remote shell %v, want %v (facts %+v)", r.line, r.fields[0], got, want, f)
		}
	}
}
