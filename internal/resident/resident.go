package resident

import (
	"errors"
	"hash/fnv"
	"path/filepath"
	"strconv"
)

// The package imports neither fmt nor encoding/binary: the hook client
// links it, and every package initialised at its start is paid on every
// tool call.

// magic opens every request and reply; the digit is the protocol version.
const magic = "TWR1"

// MaxRequest bounds an encoded request (1 MiB): the hook's arguments,
// working directory and environment. A larger one is not sent; the
// client decides itself.
const MaxRequest = 1 << 20

// EnvInputLate names the variable the client sets for the toolwall
// binary when its standard input did not end within InputTimeout: the
// hook then answers as it does for an input left open (a deny), with
// the part that came as its input. It can only make an answer a deny.
const EnvInputLate = "TOOLWALL_INPUT_LATE"

// Stale is the status a resident replies instead of an exit status when
// it will not serve the request (its binary was replaced since it
// started, or the request is not a hook's). It is sent before the
// resident touches the client's standard input, so the client can still
// decide itself.
const Stale = -1

// Request is what a hook client hands to the resident process: the
// command line after the program name (it must start with "hook"), the
// client's working directory, its whole environment ("KEY=value"
// entries) and its resource limits (soft and hard, for each resource
// of [Limits]: the resident serves only a client whose limits are its
// own). The client's standard input and two pipes for the answer travel
// beside it as file descriptors.
type Request struct {
	Args   []string
	Dir    string
	Env    []string
	Limits []uint64
}

// Limits are the resource limits a request carries, two numbers each
// (soft, hard), by their Linux numbers: those a hook's answer can depend
// on. CPU time (0), file size (1: the audit log), data (2), stack (3),
// processes (6: the runtime's threads), open files (7: the state file)
// and address space (9). The others (core dumps, resident set, locked
// memory, file locks, queued signals, message queues, nice, real-time
// priority and time) change nothing a hook does; each costs the client
// and the resident a system call per call.
var Limits = [...]int{0, 1, 2, 3, 6, 7, 9}

// ErrMalformed is returned by [Unmarshal] for bytes that are not one
// whole request.
var ErrMalformed = errors.New("resident: malformed request")

// Marshal encodes r: magic, a 4-byte big-endian body length, then the
// body (the argument count, each argument, the directory, the
// environment count and each entry — every string a 4-byte length and its
// bytes —, then the count of limits and each as 8 bytes). It fails when
// the result would exceed MaxRequest.
func (r Request) Marshal() ([]byte, error) {
	n := 20 + len(r.Dir) + 8*len(r.Limits)
	for _, s := range r.Args {
		n += 4 + len(s)
	}
	for _, s := range r.Env {
		n += 4 + len(s)
	}
	if n > MaxRequest {
		return nil, errors.New("resident: request of " + strconv.Itoa(n) + " bytes is over the bound (MaxRequest)")
	}
	b := make([]byte, 0, n)
	b = append(b, magic...)
	b = appendUint32(b, 0) // body length, set below
	b = appendList(b, r.Args)
	b = appendString(b, r.Dir)
	b = appendList(b, r.Env)
	b = appendUint32(b, uint32(len(r.Limits)))
	for _, v := range r.Limits {
		b = appendUint32(appendUint32(b, uint32(v>>32)), uint32(v))
	}
	putUint32(b[4:8], uint32(len(b)-8))
	return b, nil
}

func appendUint32(b []byte, v uint32) []byte {
	return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

func putUint32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}

func getUint32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func appendString(b []byte, s string) []byte {
	b = appendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func appendList(b []byte, l []string) []byte {
	b = appendUint32(b, uint32(len(l)))
	for _, s := range l {
		b = appendString(b, s)
	}
	return b
}

// FrameLen returns the total length of the request whose first 8 bytes
// are head, or an error when head does not start a request or announces
// more than MaxRequest bytes.
func FrameLen(head []byte) (int, error) {
	if len(head) < 8 || string(head[:4]) != magic {
		return 0, ErrMalformed
	}
	n := int(getUint32(head[4:8]))
	if n > MaxRequest-8 {
		return 0, ErrMalformed
	}
	return 8 + n, nil
}

// Unmarshal decodes one whole request made by [Request.Marshal]; trailing
// bytes, short strings and counts past the data are ErrMalformed.
func Unmarshal(b []byte) (Request, error) {
	n, err := FrameLen(b)
	if err != nil {
		return Request{}, err
	}
	if n != len(b) {
		return Request{}, ErrMalformed
	}
	d := decoder{b: b[8:]}
	r := Request{Args: d.list(), Dir: d.string(), Env: d.list(), Limits: d.uint64s()}
	if d.bad || len(d.b) != 0 {
		return Request{}, ErrMalformed
	}
	return r, nil
}

type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uint32() int {
	if len(d.b) < 4 {
		d.bad = true
		return 0
	}
	n := getUint32(d.b)
	d.b = d.b[4:]
	return int(n)
}

func (d *decoder) string() string {
	n := d.uint32()
	if d.bad || n > len(d.b) {
		d.bad = true
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) uint64s() []uint64 {
	n := d.uint32()
	if d.bad || n > len(d.b)/8 {
		d.bad = true
		return nil
	}
	out := make([]uint64, 0, n)
	for range n {
		out = append(out, uint64(d.uint32())<<32|uint64(d.uint32()))
	}
	return out
}

func (d *decoder) list() []string {
	n := d.uint32()
	if d.bad || n > len(d.b)/4 {
		d.bad = true
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.string())
		if d.bad {
			return nil
		}
	}
	return out
}

// Reply encodes the resident's answer: magic and a 4-byte big-endian
// status, the exit status of the hook or [Stale].
func Reply(status int) []byte {
	return appendUint32([]byte(magic), uint32(int32(status)))
}

// ReplyLen is the length of an encoded reply.
const ReplyLen = 8

// ParseReply decodes an 8-byte reply into its status.
func ParseReply(b []byte) (int, error) {
	if len(b) != ReplyLen || string(b[:4]) != magic {
		return 0, errors.New("resident: malformed reply")
	}
	return int(int32(getUint32(b[4:]))), nil
}

// Socket returns the Unix socket a resident process of the toolwall
// binary at full (an absolute, symlink-free path) listens on:
// $XDG_RUNTIME_DIR/toolwall/, else $XDG_STATE_HOME/toolwall/, else
// $HOME/.local/state/toolwall/ (the directory of the session state), then
// "hook-" and a hash of full, so that two installs do not share one
// resident. getenv reads the environment. It fails when no directory can
// be told or the path is too long for a socket address (108 bytes on
// Linux).
func Socket(full string, getenv func(string) string) (string, error) {
	var dir string
	switch {
	case filepath.IsAbs(getenv("XDG_RUNTIME_DIR")):
		dir = filepath.Join(getenv("XDG_RUNTIME_DIR"), "toolwall")
	case filepath.IsAbs(getenv("XDG_STATE_HOME")):
		dir = filepath.Join(getenv("XDG_STATE_HOME"), "toolwall")
	case filepath.IsAbs(getenv("HOME")):
		dir = filepath.Join(getenv("HOME"), ".local", "state", "toolwall")
	default:
		return "", errors.New("resident: no directory for the socket ($XDG_RUNTIME_DIR, $XDG_STATE_HOME and $HOME are unset)")
	}
	h := fnv.New64a()
	h.Write([]byte(full))
	p := filepath.Join(dir, "hook-"+strconv.FormatUint(h.Sum64(), 36)+".sock")
	if len(p) >= 108 {
		return "", errors.New("resident: socket path " + p + " is too long")
	}
	return p, nil
}

// Outcome is how a [Call] ended.
type Outcome int

// The outcomes of a Call.
const (
	// Served: the resident decided; the status is the hook's.
	Served Outcome = iota
	// Absent: no resident listens (or this system has none).
	Absent
	// Untrusted: something listens that is not this user's toolwall.
	Untrusted
	// Refused: the resident answered Stale, or the request could not be
	// encoded.
	Refused
	// Broken: the request went out, no reply came back.
	Broken
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Served:
		return "served"
	case Absent:
		return "absent"
	case Untrusted:
		return "untrusted"
	case Refused:
		return "refused"
	}
	return "broken"
}

// PidFile is where the resident listening on socket writes its process
// id (decimal, one line): a client checks that process before it
// connects.
func PidFile(socket string) string { return socket + ".pid" }
