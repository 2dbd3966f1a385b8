package resident

import (
	"os"
	"strings"
	"syscall"
)

// Start starts `full resident` in the background, in a session of its
// own, with standard input and output on /dev/null, the root as its
// directory and this process's environment without dynamic-loader
// variables (LD_*: a client would refuse a resident that has them). It
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
	fd := null.Fd()
	_, err = syscall.ForkExec(full, []string{full, "resident"}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   env,
		Files: []uintptr{fd, fd, fd},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	return err
}
