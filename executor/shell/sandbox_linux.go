package shell

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Probe reports what Landlock this kernel enforces for a Sandbox.
func Probe() Report {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		return Report{Detail: fmt.Sprintf("Landlock is not available on this kernel (%v): commands run unconfined", err)}
	}
	known := []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7, landlock.V8, landlock.V9}
	cfg := known[min(abi, len(known))-1]
	return Report{ABI: abi, Enforced: true, Detail: fmt.Sprintf(
		"Landlock ABI v%d: file-system access %s outside the sandbox's directories is denied with EACCES; network access is not restricted", abi, cfg.HandledAccessFS)}
}

// start starts cmd confined by the sandbox. The ruleset is applied to one
// OS thread only — locked, never unlocked, so the Go runtime ends it —
// which forks the command; the rest of this process stays unconfined
// (the runtime spawns new threads from a clean template thread when the
// current one is locked).
func (s *Sandbox) start(cmd *exec.Cmd, project string) error {
	rules := []landlock.Rule{
		landlock.RODirs(s.readable()...).IgnoreIfMissing(),
		landlock.RWDirs(s.writable(project)...).IgnoreIfMissing(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/tty").IgnoreIfMissing(),
	}
	cfg := landlock.MustConfig(landlock.V9.HandledAccessFS).BestEffort()
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if fd < 0 {
		if s.Require {
			return errors.New("landlock: the sandbox is required but this kernel enforces no Landlock restriction")
		}
		return cmd.Start()
	}
	defer unix.Close(fd)
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: this thread is confined
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			errc <- fmt.Errorf("landlock: no_new_privs: %w", err)
			return
		}
		if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
			errc <- fmt.Errorf("landlock: restrict: %w", err)
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}
