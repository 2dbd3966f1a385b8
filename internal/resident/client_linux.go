package resident

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
)

// ReplyTimeout bounds how long a client waits for the resident's reply
// (30 s: the payload's 4 s, a decision's 4 s and a record's 20 s, with
// room). A resident that does not answer by then is not waited for.
const ReplyTimeout = 30 * time.Second

// Call hands the hook command args (starting with "hook") to the resident
// process of the toolwall binary at full, passing this process's
// standard input, output and error, and returns the exit status the
// hook must end with.
//
// The resident is trusted only when the socket's peer runs as this user,
// its executable is full itself (not a replaced or deleted file) and its
// environment sets no dynamic-loader variables; socket is its address
// (see [Socket]).
//
// The outcome says what happened: [Served] (status is the hook's),
// [Absent] (nothing listens), [Untrusted] or [Refused] (the peer failed a
// check or answered [Stale]) — in these three nothing was read from
// standard input and the caller decides itself —, or [Broken] (the
// request went out but no reply came back: standard input may be
// consumed, and the caller must fail closed).
func Call(full, socket string, args []string) (status int, out Outcome) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, Absent
	}
	defer syscall.Close(fd)
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
	tv := syscall.NsecToTimeval(ReplyTimeout.Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	// The descriptors go with the first byte; the rest follows plainly.
	n, err := syscall.SendmsgN(fd, msg, syscall.UnixRights(0, 1, 2), nil, 0)
	if err != nil {
		return 0, Absent
	}
	for n < len(msg) {
		k, err := syscall.Write(fd, msg[n:])
		if err != nil || k <= 0 {
			return 0, Broken
		}
		n += k
	}
	var reply [ReplyLen]byte
	for got := 0; got < len(reply); {
		k, err := syscall.Read(fd, reply[got:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || k <= 0 {
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
	return status, Served
}

// trusted checks the peer of the connected socket fd: same user, its
// executable is full, no dynamic-loader variables in its environment.
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
	return true
}
