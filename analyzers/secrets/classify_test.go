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

var classByName = map[string]Class{
	"none": None, "auth": AuthFile, "project": ProjectSecret, "key": PrivateKey,
	"credential": Credential, "system": SystemSecret,
}

func TestClassify(t *testing.T) {
	for _, r := range rows(t, "testdata/classify.tsv", 3) {
		want, ok := classByName[r[0]]
		if !ok {
			t.Fatalf("unknown class %q", r[0])
		}
		if got := Classify(r[2], "/home/user", "/workspace/app"); got != want {
			t.Errorf("Classify(%q) = %v, want %v", r[2], got, want)
		}
		wantProt := r[1] == "yes"
		if got := Protected(r[2], "/home/user", "/workspace/app"); got != wantProt {
			t.Errorf("Protected(%q) = %v, want %v", r[2], got, wantProt)
		}
	}
}

func TestHolds(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want bool
	}{
		{"/", true}, {"/home", true}, {"/home/user", true}, {"/etc", true}, {"/home/user/.ssh", true},
		{"/home/user/.aws", true}, {"/workspace/app", false}, {"/home/user/src", false}, {"/tmp", false},
	} {
		if got := Holds(c.dir, "/home/user"); got != c.want {
			t.Errorf("Holds(%q) = %v, want %v", c.dir, got, c.want)
		}
	}
}

func TestAppendTarget(t *testing.T) {
	for _, c := range []struct {
		p    string
		want bool
	}{
		{"/home/user/.ssh/authorized_keys", true}, {"/root/.ssh/authorized_keys2", true},
		{"/etc/passwd", true}, {"/etc/sudoers.d/agent", true}, {"/etc/pam.d/sshd", true},
		{"/home/user/.ssh/config", false}, {"/home/user/.ssh/known_hosts", false}, {"/etc/hosts", false},
	} {
		if got := AppendTarget(c.p); got != c.want {
			t.Errorf("AppendTarget(%q) = %v, want %v", c.p, got, c.want)
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	ps := []string{"/home/user/.ssh/id_rsa", "/workspace/app/src/main.go", "/home/user/.config/gcloud/x", "/etc/hosts"}
	for i := 0; b.Loop(); i++ {
		Classify(ps[i%len(ps)], "/home/user", "/workspace/app")
	}
}
