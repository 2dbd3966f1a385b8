package destroy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// gitRepo makes the repository testdata/git.tsv describes.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for _, f := range []string{"clean/a.txt", "clean/b.txt", "clean/sub/c.go", "mod/a.txt", "mixed/a.txt"} {
		write(f, f+"\n")
	}
	git("add", ".")
	git("commit", "-q", "-m", "init")
	write("mod/a.txt", "changed\n")
	write("fresh/notes.md", "mine\n")
	write("mixed/new.txt", "new\n")
	write("staged/s.txt", "s\n")
	git("add", "staged/s.txt")
	return dir
}

func TestGitRecoverable(t *testing.T) {
	dir := gitRepo(t)
	an := New(Options{})
	for _, c := range readCases(t, "testdata/git.tsv") {
		s, err := shell.Read(c.command, shell.Options{Cwd: dir, Home: testHome})
		if err != nil {
			t.Fatalf("git.tsv:%d: %v", c.line, err)
		}
		call := toolwall.NewBashCall(c.command)
		call.Cwd, call.Project, call.Home = dir, dir, testHome
		r := (&analysis.Report{}).For(an.Name)
		an.Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
		got := fuse(r)
		has := c.rule == "-"
		for _, f := range r.Findings {
			has = has || f.Rule == c.rule
		}
		if got.String() != c.expect || !has {
			t.Errorf("git.tsv:%d: %q: got %s %+v, want %s %s", c.line, c.command, got, r.Findings, c.expect, c.rule)
		}
	}
}

// TestGitReasonNamesLoss checks the ask names what would be lost.
func TestGitReasonNamesLoss(t *testing.T) {
	dir := gitRepo(t)
	s, err := shell.Read("rm -rf mixed", shell.Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := toolwall.NewBashCall("rm -rf mixed")
	call.Cwd, call.Project = dir, dir
	r := &analysis.Report{}
	New(Options{}).Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Reason, "mixed/new.txt") {
		t.Fatalf("findings %+v: want one naming mixed/new.txt", r.Findings)
	}
}

// TestGitNotARepo: outside a work tree nothing is recoverable.
func TestGitNotARepo(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := shell.Read("rm -rf src", shell.Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := toolwall.NewBashCall("rm -rf src")
	call.Cwd, call.Project = dir, dir
	r := &analysis.Report{}
	New(Options{}).Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
	if fuse(r) != toolwall.Ask {
		t.Fatalf("findings %+v: want ask", r.Findings)
	}
}

// TestGitExists runs testdata/git-exists.tsv in the repository of
// git.tsv with the real existence oracle (os.Lstat).
func TestGitExists(t *testing.T) {
	dir := gitRepo(t)
	an := New(Options{})
	exists := func(p string) (bool, bool) {
		_, err := os.Lstat(p)
		if err == nil {
			return true, true
		}
		return false, os.IsNotExist(err)
	}
	for _, c := range readCases(t, "testdata/git-exists.tsv") {
		s, err := shell.Read(c.command, shell.Options{Cwd: dir, Home: testHome})
		if err != nil {
			t.Fatalf("git-exists.tsv:%d: %v", c.line, err)
		}
		call := toolwall.NewBashCall(c.command)
		call.Cwd, call.Project, call.Home = dir, dir, testHome
		r := (&analysis.Report{}).For(an.Name)
		an.Run(context.Background(), &analysis.Input{Call: call, Script: s, Exists: exists}, r)
		has := c.rule == "-"
		for _, f := range r.Findings {
			has = has || f.Rule == c.rule
		}
		if got := fuse(r); got.String() != c.expect || !has {
			t.Errorf("git-exists.tsv:%d: %q: got %s %+v, want %s %s", c.line, c.command, got, r.Findings, c.expect, c.rule)
		}
	}
}
