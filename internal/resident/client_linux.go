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
// process of the toolwall binary at full, passing input (a descriptor of
// the payload, see [KeepInput]) as its standard input and two pipes for
// the answer, and returns the exit status the hook must end with. The
// resident writes the answer into the pipes and closes them before it
// replies; the client copies it to its own standard output and error
// only then, so a host reads the resident's whole answer or none of it (a
// resident that answers after the client gave up writes into pipes nobody
// reads).
//
// The resident is trusted only when the process named in its pid file
// ([PidFile]) runs as this user, its executable is full itself (not a
// replaced or deleted file) and its environment sets no dynamic-loader
// variables, and that process is the socket's peer; socket is its
// address (see [Socket]). The request carries this process's resource limits:
// the resident serves it only when they are its own, and only in this
// process's mount and user namespaces. A resident that is stopped
// (SIGSTOP, a debugger) is not asked; one that stops or ends while the
// client waits is given up on within [CheckEvery].
//
// The outcome says what happened: [Served] (status is the hook's),
// [Absent] (nothing listens), [Untrusted] or [Refused] (the peer failed a
// check, is stopped, or answered [Stale]), or [Broken] (the request went
// out but no whole answer came back within ReplyTimeout, or the resident
// stopped or ended first: nothing was written). In every outcome but
// Served the caller decides itself, with the input it kept.
func Call(full, socket string, args []string, input int) (status int, out Outcome) {
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
	if !running(pid) {
		return 0, Refused
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
	// The read ends are non-blocking (answer waits with a deadline, and
	// reads them while it waits for the reply); the write ends the
	// resident gets stay blocking, so that it writes them plainly,
	// without its poller.
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
	n, err := syscall.SendmsgN(fd, msg, syscall.UnixRights(input, outp[1], errp[1]), nil, 0)
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
	reply, o, e, ok := answer(fd, outp[0], errp[0], pid, deadline)
	if !ok {
		return 0, Broken
	}
	status, err = ParseReply(reply[:])
	switch {
	case err != nil:
		return 0, Broken
	case status == Stale:
		return 0, Refused
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

// answer reads the reply from the socket fd and, at the same time, the
// answer from the non-blocking pipes out and errOut to their ends,
// waiting at most until deadline; ok is false when they did not all come
// in time (or the socket ended first). The pipes are read while the
// reply is awaited, after the first replyAlone: an answer larger than a
// pipe's buffer (a deny per file of a large patch, each logged to
// stderr; or pipes shrunk to a page or two once the user's processes
// hold many) would otherwise hold the resident's write, and the reply
// after it, until the deadline. After a Stale reply the pipes are not
// waited for. The read buffer is
// on the stack: a hook client pays a page fault for every fresh page of
// heap it touches.
func answer(fd, out, errOut, pid int, deadline time.Time) (reply [ReplyLen]byte, o, e []byte, ok bool) {
	got := 0
	pipes := [2]struct {
		fd   int
		data *[]byte
	}{{out, &o}, {errOut, &e}}
	open := [2]bool{true, true}
	var buf [4096]byte
	alone := time.Now().Add(replyAlone)
	check := time.Now().Add(CheckEvery)
	for {
		if got == len(reply) && (!open[0] && !open[1] || isStale(reply)) {
			return reply, o, e, true
		}
		now := time.Now()
		left := deadline.Sub(now)
		if left <= 0 {
			return reply, nil, nil, false
		}
		pipesToo := got == len(reply) || !now.Before(alone)
		if !pipesToo {
			left = min(left, alone.Sub(now))
		}
		if !now.Before(check) {
			if !running(pid) {
				return reply, nil, nil, false
			}
			check = now.Add(CheckEvery)
		}
		left = min(left, max(check.Sub(now), time.Millisecond))
		var set syscall.FdSet
		w := 8 * int(unsafe.Sizeof(set.Bits[0]))
		top := 0
		add := func(fd int) bool {
			if fd >= w*len(set.Bits) {
				return false
			}
			set.Bits[fd/w] |= 1 << (uint(fd) % uint(w))
			top = max(top, fd)
			return true
		}
		if got < len(reply) && !add(fd) {
			return reply, nil, nil, false
		}
		for i, p := range pipes {
			if pipesToo && open[i] && !add(p.fd) {
				return reply, nil, nil, false
			}
		}
		tv := syscall.NsecToTimeval(left.Nanoseconds())
		if _, err := syscall.Select(top+1, &set, nil, nil, &tv); err != nil && !errors.Is(err, syscall.EINTR) {
			return reply, nil, nil, false
		}
		isSet := func(fd int) bool { return set.Bits[fd/w]&(1<<(uint(fd)%uint(w))) != 0 }
		if got < len(reply) && isSet(fd) {
			k, err := syscall.Read(fd, reply[got:])
			switch {
			case errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN):
			case err != nil || k <= 0:
				return reply, nil, nil, false
			default:
				got += k
			}
		}
		for i, p := range pipes {
			if !pipesToo || !open[i] || !isSet(p.fd) {
				continue
			}
			for {
				k, err := syscall.Read(p.fd, buf[:])
				if k > 0 {
					*p.data = append(*p.data, buf[:k]...)
					continue
				}
				switch {
				case err == nil:
					open[i] = false // the end
				case errors.Is(err, syscall.EINTR):
					continue
				case !errors.Is(err, syscall.EAGAIN):
					return reply, nil, nil, false
				}
				break
			}
		}
	}
}

// replyAlone is how long answer waits for the reply alone before it
// reads the pipes too (20 ms): an answer that fits the pipes then costs
// the client one wake, as a read of the reply would; reading them from
// the start woke it for each of the resident's writes.
const replyAlone = 20 * time.Millisecond

// CheckEvery is how often a client waiting for its answer checks that
// the resident still runs (25 ms): a stopped or ended resident is given
// up on, and the binary decides, instead of waiting for ReplyTimeout.
const CheckEvery = 25 * time.Millisecond

// running reports whether process pid exists and is neither stopped
// (SIGSTOP, traced) nor ended (a zombie), from its /proc stat line.
func running(pid int) bool {
	var buf [512]byte
	n := 0
	err := readFile("/proc/"+strconv.Itoa(pid)+"/stat", func(b []byte) error {
		n += copy(buf[n:], b)
		return nil
	})
	if err != nil {
		return false
	}
	stat := buf[:n]
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	switch stat[i+2] {
	case 'T', 't', 'Z', 'X', 'x':
		return false
	}
	return true
}

// isStale reports whether reply is the Stale reply.
func isStale(reply [ReplyLen]byte) bool {
	status, err := ParseReply(reply[:])
	return err == nil && status == Stale
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
