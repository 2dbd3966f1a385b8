package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestProgramsCommand: toolwall programs lists the catalog, prints an
// entry, reads a command line with --parse, and refuses an unknown name.
func TestProgramsCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
		code int
	}{
		{[]string{"programs"}, []string{"rm ", "curl ", "sudo "}, 0},
		{[]string{"programs", "sudo"}, []string{"program sudo", "wrapper", "privileged", "option -u VALUE, --user VALUE = user -> user", "operands: env… argv"}, 0},
		{[]string{"programs", "--parse", "uv run -- bash -c 'rm -rf ~'"}, []string{"via uv run", "via sh -c", "deletes /home/user"}, 0},
		{[]string{"programs", "no-such-program"}, []string{}, 1},
	} {
		out, err := exec.Command(bin, tt.args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s", tt.args, code, tt.code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
}
