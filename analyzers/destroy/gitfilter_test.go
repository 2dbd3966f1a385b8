package destroy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/shell"
)

// TestGitFiltersNotRun: a repository whose configuration names a content
// filter must not make the recoverability check run it (git status would
// run filter.<x>.clean); the delete is asked about instead.
func TestGitFiltersNotRun(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	project := filepath.Join(dir, "app")
	marker := filepath.Join(dir, "pwned")
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(filepath.Join(project, "docs"), 0o755)
	os.WriteFile(filepath.Join(project, "docs", "a.md"), []byte("a\n"), 0o644)
	run("init", "-q")
	run("-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
	run("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x")
	run("config", "filter.x.clean", "touch "+marker+"; cat")
	os.WriteFile(filepath.Join(project, ".gitattributes"), []byte("* filter=x\n"), 0o644)
	// Change stat data so that status would re-read (and filter) the file.
	os.WriteFile(filepath.Join(project, "docs", "a.md"), []byte("a\n"), 0o644)

	script, err := shell.Read("rm -rf docs", shell.Options{Cwd: project, Home: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := toolwall.NewBashCall("rm -rf docs")
	call.Cwd, call.Project, call.Home = project, project, dir
	rep := &analysis.Report{}
	New(Options{}).Run(context.Background(), &analysis.Input{Call: call, Script: script}, rep)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the recoverability check ran the repository's filter command")
	}
	if len(rep.Findings) == 0 || rep.Findings[0].Action != toolwall.Ask {
		t.Errorf("findings %+v, want an ask", rep.Findings)
	}
}
