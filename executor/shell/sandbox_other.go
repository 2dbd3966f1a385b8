//go:build !linux

package shell

import (
	"errors"
	"os/exec"
)

// Probe reports that Landlock exists only on Linux.
func Probe() Report {
	return Report{Detail: "Landlock is Linux-only: commands run unconfined"}
}

func (s *Sandbox) start(cmd *exec.Cmd, _ string) error {
	if s.Require {
		return errors.New("landlock: the sandbox is required but Landlock is Linux-only")
	}
	return cmd.Start()
}
