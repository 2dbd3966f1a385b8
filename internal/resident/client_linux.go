package resident

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// ReplyTimeout bounds a whole call through the resident, from connecting
// to the end of its answer (5 s). Hosts let a call run when its hook
// outlives the timeout `toolwall install` writes (10 s); a client that
// gives up still has the binary decide (up to host.DefaultTimeout, 4 s),
// so the two must fit inside the host's. A resident that is stopped, or
// stuck behind other calls, is not waited for longer.
const ReplyTimeout = 5 * time.Second

// Call hands the hook command args (starting with "hook") to the resident
// process of the toolwall binary at full, passing this process's
// standard input and two pipes for the answer, and returns the exit
// status the hook must end with. The resident writes the answer into the
// pipes and closes them before it replies; the client copies it to its
// own standard output and error only then, so a host reads the
// resident's whole answer or none of it (a resident that answers after
// the client gave up writes into pipes nobody reads).
//
// The resident is trusted only when the process named in its pid file
// ([PidFile]) runs as this user, its executable is full itself (not a
// replaced or deleted file) and its environment sets no dynamic-loader
// variables, and that process is the socket's peer; socket is its
// address (see [Socket]). The request carries this process's resource limits:
// the resident serves it only when they are its own, and only in this
// process's mount and user namespaces.
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
	// The resident is checked before connecting (through the pid it
	// wrote beside the socket), so that the request follows the
	// connection at once and the resident wakes once for both.
	pid, err := residentPid(socket)
	if err != nil {
		return 0, Absent
	}
	if !trusted(pid, full) {
		return 0, Untrusted
	}
	// Set before connecting: a listener that accepts nothing (stopped,
	// its backlog full) must not hold connect(2) either.
	timeout(fd, deadline)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		return 0, Absent
	}
	// The listener must be that process.
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || int(cred.Pid) != pid || int(cred.Uid) != syscall.Getuid() {
		return 0, Untrusted
	}
	wd, _ := syscall.Getwd()
	msg, err := Request{Args: args, Dir: wd, Env: os.Environ(), Limits: limits()}.Marshal()
	if err != nil {
		return 0, Refused
	}
	// The read ends are non-blocking (drain waits with a deadline); the
	// write ends the resident gets stay blocking, so that it writes them
	// plainly, without its poller (an answer is far smaller than a pipe's
	// buffer).
	var outp, errp [2]int
	if syscall.Pipe2(outp[:], syscall.O_CLOEXEC) != nil {
		return 0, Refused
	}
	defer syscall.Close(outp[0])
	if syscall.Pipe2(errp[:], syscall.O_CLOEXEC) != nil {
		syscall.Close(outp[1])
		return 0, Refused
	}
	defer syscall.Close(errp[0])
	if syscall.SetNonblock(outp[0], true) != nil || syscall.SetNonblock(errp[0], true) != nil {
		syscall.Close(outp[1])
		syscall.Close(errp[1])
		return 0, Refused
	}
	// The descriptors go with the first byte; the rest follows plainly.
	n, err := syscall.SendmsgN(fd, msg, syscall.UnixRights(0, outp[1], errp[1]), nil, 0)
	syscall.Close(outp[1])
	syscall.Close(errp[1])
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
	o, ok := drain(outp[0], deadline)
	e, ok2 := drain(errp[0], deadline)
	if !ok || !ok2 {
		return 0, Broken
	}
	writeAll(1, o)
	writeAll(2, e)
	return status, Served
}

// writeAll writes b to fd.
func writeAll(fd int, b []byte) {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		b = b[n:]
	}
}

// limits returns this process's resource limits, soft and hard for each
// resource of Limits (zeros for one that cannot be read).
func limits() []uint64 {
	out := make([]uint64, 0, 2*len(Limits))
	for _, r := range Limits {
		var l syscall.Rlimit
		_ = syscall.Getrlimit(r, &l)
		out = append(out, l.Cur, l.Max)
	}
	return out
}

// timeout bounds the socket fd's next send and receive by deadline (a
// passed deadline leaves a microsecond).
func timeout(fd int, deadline time.Time) {
	tv := syscall.NsecToTimeval(max(time.Until(deadline), time.Microsecond).Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
}

// drain reads the non-blocking pipe fd to its end, waiting for data at
// most until deadline; it reports whether the end came in time. The
// resident closes its ends before replying, so after the reply the end is
// there at once. The buffer is on the stack: a hook client pays a page
// fault for every fresh page of heap it touches.
func drain(fd int, deadline time.Time) ([]byte, bool) {
	var out []byte
	var buf [4096]byte
	for {
		k, err := syscall.Read(fd, buf[:])
		switch {
		case k > 0:
			out = append(out, buf[:k]...)
			continue
		case err == nil:
			return out, true // the end
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EAGAIN):
			return nil, false
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, false
		}
		var set syscall.FdSet
		w := 8 * int(unsafe.Sizeof(set.Bits[0]))
		if fd >= w*len(set.Bits) {
			return nil, false
		}
		set.Bits[fd/w] |= 1 << (uint(fd) % uint(w))
		tv := syscall.NsecToTimeval(left.Nanoseconds())
		if _, err := syscall.Select(fd+1, &set, nil, nil, &tv); err != nil && !errors.Is(err, syscall.EINTR) {
			return nil, false
		}
	}
}

// residentPid reads the pid the resident wrote beside socket.
func residentPid(socket string) (int, error) {
	var buf [32]byte
	n := 0
	err := readFile(PidFile(socket), func(b []byte) error {
		if n+len(b) > len(buf) {
			return errors.New("resident: bad pid file")
		}
		n += copy(buf[n:], b)
		return nil
	})
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(buf[:n])))
	if err != nil || pid <= 0 {
		return 0, errors.New("resident: bad pid file")
	}
	return pid, nil
}

// trusted checks process pid: its executable is full and its
// environment has no dynamic-loader variables. (That it runs as this
// user is checked on the socket, SO_PEERCRED; its limits and namespaces
// by the resident itself, which the executable check makes toolwall's
// own code.) Plain system calls: a hook client pays for every piece of
// code it touches the first time.
func trusted(pid int, full string) bool {
	proc := "/proc/" + strconv.Itoa(pid)
	buf := make([]byte, len(full)+1)
	if n, err := syscall.Readlink(proc+"/exe", buf); err != nil || n != len(full) || string(buf[:n]) != full {
		return false
	}
	return readFile(proc+"/environ", loaderFree()) == nil
}

// errLoader is loaderFree's refusal.
var errLoader = errors.New("resident: the resident's environment sets a dynamic-loader variable")

// loaderFree returns a readFile callback that fails when the
// NUL-separated environment it is fed, piece by piece, has an entry that
// starts with "LD_" (split anywhere across pieces).
func loaderFree() func([]byte) error {
	const prefix = "LD_"
	matched := 0 // bytes of prefix matched at the start of this entry; -1 past it
	return func(b []byte) error {
		for _, c := range b {
			switch {
			case c == 0:
				matched = 0
			case matched < 0:
			case c == prefix[matched]:
				if matched++; matched == len(prefix) {
					return errLoader
				}
			default:
				matched = -1
			}
		}
		return nil
	}
}

// readFile feeds the file at path to fn, piece by piece, through a buffer
// on the stack (no heap to fault in); an error from fn ends the read and
// is returned.
func readFile(path string, fn func([]byte) error) error {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var buf [4096]byte
	for {
		n, err := syscall.Read(fd, buf[:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if err := fn(buf[:n]); err != nil {
			return err
		}
	}
}
