package shell_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor/shell"
)

// TestLandlock: under the sandbox a write outside the allowed roots fails
// with EACCES, one inside succeeds, and reading outside fails too. The
// test binary is the sandboxed program (FAKESHELL=write:PATH), so the
// errno is seen directly, not through a shell's message.
func TestLandlock(t *testing.T) {
	rep := shell.Probe()
	t.Logf("Landlock on this kernel: %+v", rep)
	if !rep.Enforced {
		t.Skipf("skipped: this kernel enforces no Landlock restriction (%s)", rep.Detail)
	}
	fx := newFixture(t)
	outside := t.TempDir()
	exe, _ := os.Executable()
	for _, tc := range []struct {
		target, want string
	}{
		{filepath.Join(outside, "escape"), "EACCES"},
		{filepath.Join(fx.project, "inside"), "ok"},
	} {
		opts := fx.options(toolwall.UserContext, "write:"+tc.target)
		opts.Sandbox = &shell.Sandbox{Writable: []string{fx.project}, Readable: append([]string{filepath.Dir(exe)}, shell.SystemDirs...), Require: true}
		out, err := shell.New(opts).Execute(context.Background(), bash("write"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.Process.Stdout); got != tc.want {
			t.Errorf("write %s: %q (stderr %q), want %s", tc.target, got, out.Process.Stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "escape")); err == nil {
		t.Error("the sandboxed write outside the roots happened")
	}
	// With the real bash: reading outside the roots fails, the project works.
	secret := filepath.Join(outside, "secret")
	os.WriteFile(secret, []byte("s3cret"), 0o644)
	opts := fx.options(toolwall.UserContext, "")
	opts.Sandbox = &shell.Sandbox{Writable: []string{fx.project}, Require: true}
	out, _ := shell.New(opts).Execute(context.Background(), bash(`echo data > mine && cat mine; cat `+secret+`; echo x > `+outside+`/y`))
	if out.Process.Stdout != "data\n" || strings.Count(out.Process.Stderr, "Permission denied") != 2 {
		t.Errorf("sandboxed bash: stdout %q stderr %q", out.Process.Stdout, out.Process.Stderr)
	}
	// This process stays unconfined.
	if err := os.WriteFile(filepath.Join(outside, "parent"), []byte("x"), 0o600); err != nil {
		t.Errorf("the executor's own process was confined: %v", err)
	}
}
