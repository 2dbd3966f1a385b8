package resident

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Start starts `full resident` in the background, in a session of its
// own, with standard input and output on /dev/null, no other descriptor
// of this process (they are all marked close-on-exec, which also holds
// for a program this process executes next), the root as its directory
// and this process's environment without dynamic-loader variables (LD_*:
// a client would refuse a resident that has them). It
// does not wait: the resident listens once it holds its lock, and a
// second one started meanwhile exits at once.
func Start(full string) error {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LD_") {
			env = append(env, kv)
		}
	}
	// Descriptors a host passed beyond the standard three (without
	// close-on-exec) must not live on in the resident: a host waiting for
	// a pipe's end would wait for the resident's exit.
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range fds {
			if n, err := strconv.Atoi(e.Name()); err == nil && n > 2 {
				syscall.CloseOnExec(n)
			}
		}
	}
	fd := null.Fd()
	_, err = syscall.ForkExec(full, []string{full, "resident"}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   env,
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	return err
}
