package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCheckExistence: the CLI check and the hook judge deletes against
// this machine: a path that is not there is not destroyed
// ("rm -rf node_modules package-lock.json" in a project that has neither
// passes), one that is there is judged as before (an untracked directory
// outside git asks), and eval, whose places are synthetic, does not look.
func TestCheckExistence(t *testing.T) {
	project := t.TempDir()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "docs", "a.md"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "TOOLWALL_CONFIG=", "TOOLWALL_STATE=")
	for _, c := range []struct {
		command string
		code    int
	}{
		{"rm -rf node_modules package-lock.json", 0},
		{"rm -rf ./missing-dir ~/old-builds", 0},
		{"rm -rf docs", 3},
		{"rm -rf ~", 2},
	} {
		cmd := exec.Command(bin, "check", "--cwd", project, "--home", home, "--", c.command)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("check %q: exit %d, want %d\n%s", c.command, code, c.code, out)
		}
	}

	hookEnv := append(env, "CLAUDE_PROJECT_DIR="+project)
	p := pre("s-exists", "rm -rf node_modules package-lock.json")
	p["cwd"] = project
	if d := decision(t, runHook(t, hookEnv[len(os.Environ()):], p)); d.PermissionDecision != "allow" {
		t.Errorf("hook: %+v, want allow", d)
	}
	p = pre("s-exists", "rm -rf docs")
	p["cwd"] = project
	if d := decision(t, runHook(t, hookEnv[len(os.Environ()):], p)); d.PermissionDecision != "ask" {
		t.Errorf("hook: %+v, want ask", d)
	}

	cases := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(cases, []byte("ask\trm -rf node_modules package-lock.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "eval", "--cwd", project, "--home", home, cases)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("eval judged existence: %v\n%s", err, out)
	}
}
