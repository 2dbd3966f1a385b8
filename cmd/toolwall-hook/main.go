package main

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/toolwall/toolwall/internal/resident"
)

func main() {
	full := toolwallBinary()
	args := os.Args[1:]
	env := os.Environ()
	mode := os.Getenv("TOOLWALL_RESIDENT")
	if len(args) > 0 && args[0] == "hook" && mode != "off" {
		// The client keeps the payload it hands over: when the resident
		// gives no answer (killed, stopped, too slow), the binary still
		// gets the whole payload, decides, and records a post event.
		input, complete, err := resident.KeepInput()
		out := resident.Absent
		switch {
		case err != nil:
			input = -1
		case !complete:
			// The input did not end in time: the binary answers as for
			// an input left open, with the part that came.
			env = append(env, resident.EnvInputLate+"=1")
			mode = ""
		default:
			out = callResident(full, args, input)
		}
		if mode == "only" {
			os.Stderr.WriteString("toolwall-hook: no resident served this call (" + out.String() + "); TOOLWALL_RESIDENT=only refuses it.\n")
			os.Exit(2)
		}
		if input >= 0 {
			// A description of the payload of its own, at offset 0: a
			// resident that resumes late reads its own.
			if resident.AsStdin(input) != nil {
				os.Stderr.WriteString("toolwall-hook: cannot hand the payload to " + full + "; the tool call is refused.\n")
				os.Exit(2)
			}
		}
	}
	err := syscall.Exec(full, append([]string{full}, args...), env)
	os.Stderr.WriteString("toolwall-hook: cannot run " + full + ": " + err.Error() + "; the tool call is refused. Reinstall toolwall (go install ./cmd/...), then run `toolwall doctor`.\n")
	os.Exit(2)
}

// callResident asks the resident to answer the hook command args with
// the kept payload input, and exits with its status when it did;
// otherwise it returns the outcome, and the binary decides.
func callResident(full string, args []string, input int) resident.Outcome {
	socket, err := resident.Socket(full, os.Getenv)
	if err != nil {
		return resident.Absent
	}
	fd, err := resident.Reopen(input)
	if err != nil {
		return resident.Refused
	}
	status, out := resident.Call(full, socket, args, fd)
	syscall.Close(fd)
	switch out {
	case resident.Served:
		os.Exit(status)
	case resident.Absent, resident.Untrusted:
		// Untrusted: a resident of a replaced binary, which exits within
		// a second, or something else on the socket; a new resident
		// takes over once it can hold the lock.
		_ = resident.Start(full)
	}
	// Untrusted, Refused (stale, or stopped), Broken (no answer in time,
	// or the resident ended or stopped while the client waited): the
	// binary decides with the kept payload; a late answer of the
	// resident goes into pipes nobody reads.
	return out
}

// toolwallBinary is the toolwall binary beside this one, symlinks
// resolved (a resident is trusted only when its executable is this path).
func toolwallBinary() string {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	// self is already free of symlinks (/proc/self/exe): only the last
	// element can be one, and one lstat says so.
	full := filepath.Join(filepath.Dir(self), "toolwall")
	var st syscall.Stat_t
	if syscall.Lstat(full, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
		if real, err := filepath.EvalSymlinks(full); err == nil {
			full = real
		}
	}
	return full
}
