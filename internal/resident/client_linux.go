package resident

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"
)

// ReplyTimeout bounds a whole call through the resident, from connecting
// to the end of its output (5 s). Hosts let a call run when its hook
// outlives the timeout `toolwall install` writes (10 s); a client that
// gives up still has the binary decide (up to host.DefaultTimeout, 4 s),
// so the two must fit inside the host's. A resident that is stopped, or
// stuck behind other calls, is not waited for longer.
const ReplyTimeout = 5 * time.Second

// Call hands the hook command args (starting with "hook") to the resident
// process of the toolwall binary at full, passing this process's
// standard input and pipes for its output, and returns the exit status
// the hook must end with. The resident's output is written to this
// process's standard output and error only once the resident has replied
// and closed the pipes, so a host reads either the resident's whole
// answer or none of it.
//
// The resident is trusted only when the socket's peer runs as this user,
// its executable is full itself (not a replaced or deleted file), its
// environment sets no dynamic-loader variables, and it runs with this
// process's resource limits and in its mount and user namespaces; socket
// is its address (see [Socket]).
//
// The outcome says what happened: [Served] (status is the hook's),
// [Absent] (nothing listens), [Untrusted] or [Refused] (the peer failed a
// check or answered [Stale]) — in these three nothing was read from
// standard input and the caller decides itself —, or [Broken] (the
// request went out but no whole answer came back within ReplyTimeout:
// nothing was written, standard input may be consumed, and the caller
// must fail closed).
func Call(full, socket string, args []string) (status int, out Outcome) {
	deadline := time.Now().Add(ReplyTimeout)
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, Absent
	}
	defer syscall.Close(fd)
	// Set before connecting: a listener that accepts nothing (stopped,
	// its backlog full) must not hold connect(2) either.
	timeout(fd, deadline)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		return 0, Absent
	}
	if !trusted(fd, full) {
		return 0, Untrusted
	}
	wd, _ := os.Getwd()
	msg, err := Request{Args: args, Dir: wd, Env: os.Environ()}.Marshal()
	if err != nil {
		return 0, Refused
	}
	var outp, errp [2]int
	if syscall.Pipe2(outp[:], syscall.O_CLOEXEC) != nil {
		return 0, Refused
	}
	if syscall.Pipe2(errp[:], syscall.O_CLOEXEC) != nil {
		syscall.Close(outp[0])
		syscall.Close(outp[1])
		return 0, Refused
	}
	// The descriptors go with the first byte; the rest follows plainly.
	n, err := syscall.SendmsgN(fd, msg, syscall.UnixRights(0, outp[1], errp[1]), nil, 0)
	syscall.Close(outp[1])
	syscall.Close(errp[1])
	stdout, stderr := collect(outp[0]), collect(errp[0])
	if err != nil {
		return 0, Absent
	}
	for n < len(msg) {
		timeout(fd, deadline)
		k, err := syscall.Write(fd, msg[n:])
		if err != nil || k <= 0 {
			return 0, Broken
		}
		n += k
	}
	var reply [ReplyLen]byte
	for got := 0; got < len(reply); {
		timeout(fd, deadline)
		k, err := syscall.Read(fd, reply[got:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || k <= 0 || time.Now().After(deadline) {
			return 0, Broken
		}
		got += k
	}
	status, err = ParseReply(reply[:])
	switch {
	case err != nil:
		return 0, Broken
	case status == Stale:
		return 0, Refused
	}
	// The resident closes the pipes after its reply: the output is whole
	// at their end.
	o, ok := wait(stdout, deadline)
	e, ok2 := wait(stderr, deadline)
	if !ok || !ok2 {
		return 0, Broken
	}
	_, _ = os.Stdout.Write(o)
	_, _ = os.Stderr.Write(e)
	return status, Served
}

// timeout bounds the socket fd's next send and receive by deadline (a
// passed deadline leaves a microsecond).
func timeout(fd int, deadline time.Time) {
	tv := syscall.NsecToTimeval(max(time.Until(deadline), time.Microsecond).Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
}

// collect reads the pipe fd to its end in the background. The read end is
// close-on-exec: when the caller gives up and executes the binary, a late
// write of the resident fails and reaches no host.
func collect(fd int) <-chan []byte {
	c := make(chan []byte, 1)
	go func() {
		f := os.NewFile(uintptr(fd), "resident output")
		b, err := io.ReadAll(f)
		if err != nil {
			b = nil
		}
		c <- b
	}()
	return c
}

// wait returns what c delivers before the deadline, and whether it did.
func wait(c <-chan []byte, deadline time.Time) ([]byte, bool) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case b := <-c:
		return b, b != nil
	case <-t.C:
		return nil, false
	}
}

// trusted checks the peer of the connected socket fd: same user, its
// executable is full, no dynamic-loader variables in its environment,
// the same resource limits as this process and the same mount and user
// namespaces. A resident started with a lowered limit (prlimit
// --nofile) cannot open the state file and would judge without the
// session's memory; one in a namespace of its own may see another
// configuration: either would answer otherwise than the binary run here.
func trusted(fd int, full string) bool {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || int(cred.Uid) != os.Getuid() || cred.Pid <= 0 {
		return false
	}
	proc := "/proc/" + strconv.Itoa(int(cred.Pid))
	if exe, err := os.Readlink(proc + "/exe"); err != nil || exe != full {
		return false
	}
	env, err := os.ReadFile(proc + "/environ")
	if err != nil {
		return false
	}
	for kv := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.HasPrefix(kv, []byte("LD_")) {
			return false
		}
	}
	theirs, err := os.ReadFile(proc + "/limits")
	if err != nil {
		return false
	}
	if ours, err := os.ReadFile("/proc/self/limits"); err != nil || !bytes.Equal(ours, theirs) {
		return false
	}
	for _, ns := range []string{"/ns/mnt", "/ns/user"} {
		theirs, err := os.Readlink(proc + ns)
		if err != nil {
			return false
		}
		if ours, err := os.Readlink("/proc/self" + ns); err != nil || ours != theirs {
			return false
		}
	}
	return true
}
