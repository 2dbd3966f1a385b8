package resident

import (
	"errors"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// MaxInput bounds the standard input the client keeps (8 MiB and one
// byte, the hook's own bound plus one: a payload over the hook's bound
// still reaches it as over the bound).
const MaxInput = 8<<20 + 1

// InputTimeout bounds how long the client waits for its standard input
// to end (4 s, the hook's own deadline for its payload).
const InputTimeout = 4 * time.Second

// KeepInput reads this process's standard input (at most MaxInput bytes,
// until it ends or InputTimeout passes) into an anonymous file in memory
// and returns it, at offset 0: the client hands the resident a
// descriptor of it, and when no answer comes back it still has the
// payload for the binary, which then decides (and records a post event)
// itself. complete is false when the input did not end in time.
func KeepInput() (fd int, complete bool, err error) {
	fd, err = anonymousFile()
	if err != nil {
		return -1, false, err
	}
	deadline := time.Now().Add(InputTimeout)
	var buf [65536]byte
	var off int64
	complete = true
	for off < MaxInput {
		left := time.Until(deadline)
		if left <= 0 {
			complete = false
			break
		}
		var set syscall.FdSet
		set.Bits[0] = 1 // descriptor 0
		tv := syscall.NsecToTimeval(left.Nanoseconds())
		n, err := syscall.Select(1, &set, nil, nil, &tv)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			break // not selectable: read it plainly
		}
		if n == 0 {
			complete = false
			break
		}
		k, err := syscall.Read(0, buf[:min(len(buf), int(MaxInput-off))])
		if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN) {
			continue
		}
		if err != nil || k <= 0 {
			break
		}
		if err := pwriteAll(fd, buf[:k], off); err != nil {
			syscall.Close(fd)
			return -1, false, err
		}
		off += int64(k)
	}
	return fd, complete, nil
}

// pwriteAll writes b to fd at off.
func pwriteAll(fd int, b []byte, off int64) error {
	for len(b) > 0 {
		n, err := syscall.Pwrite(fd, b, off)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return syscall.EIO
		}
		b, off = b[n:], off+int64(n)
	}
	return nil
}

// Reopen returns a new read-only descriptor of the anonymous file fd
// (KeepInput's) with an offset of its own at 0: a resident that was
// given one and resumes late cannot move the other's offset.
func Reopen(fd int) (int, error) {
	return syscall.Open("/proc/self/fd/"+strconv.Itoa(fd), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
}

// AsStdin makes a new description of the kept input fd (see Reopen)
// this process's standard input, for the program it executes next.
func AsStdin(fd int) error {
	in, err := Reopen(fd)
	if err != nil {
		return err
	}
	defer syscall.Close(in)
	return syscall.Dup3(in, 0, 0)
}

// anonymousFile creates a file with no name in memory (memfd_create),
// or, where that call is not known, an unlinked file in the temporary
// directory.
func anonymousFile() (int, error) {
	if sysMemfdCreate > 0 {
		name := [...]byte{'t', 'o', 'o', 'l', 'w', 'a', 'l', 'l', 0}
		const mfdCloexec = 1
		r, _, e := syscall.Syscall(uintptr(sysMemfdCreate), uintptr(unsafe.Pointer(&name[0])), mfdCloexec, 0)
		if e == 0 {
			return int(r), nil
		}
	}
	dir := "/tmp"
	for _, kv := range []string{"TMPDIR"} {
		if v, ok := syscall.Getenv(kv); ok && v != "" {
			dir = v
		}
	}
	p := dir + "/toolwall-input-" + strconv.Itoa(syscall.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	fd, err := syscall.Open(p, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return -1, err
	}
	syscall.Unlink(p)
	return fd, nil
}
