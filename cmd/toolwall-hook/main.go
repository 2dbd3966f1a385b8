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
	mode := os.Getenv("TOOLWALL_RESIDENT")
	if len(args) > 0 && args[0] == "hook" && mode != "off" {
		socket, err := resident.Socket(full, os.Getenv)
		out := resident.Absent
		if err == nil {
			var status int
			status, out = resident.Call(full, socket, args)
			switch out {
			case resident.Served:
				os.Exit(status)
			case resident.Absent, resident.Untrusted:
				// Untrusted: a resident of a replaced binary, which exits
				// within a second, or something else on the socket; a new
				// resident takes over once it can hold the lock.
				_ = resident.Start(full)
			}
			// Untrusted, Refused: decide here. Broken: the payload may be
			// half read; the binary then refuses it as malformed, which
			// is the fail-closed answer in the host's protocol.
		}
		if mode == "only" {
			os.Stderr.WriteString("toolwall-hook: no resident served this call (" + out.String() + "); TOOLWALL_RESIDENT=only refuses it.\n")
			os.Exit(2)
		}
	}
	err := syscall.Exec(full, append([]string{full}, args...), os.Environ())
	os.Stderr.WriteString("toolwall-hook: cannot run " + full + ": " + err.Error() + "; the tool call is refused. Reinstall toolwall (go install ./cmd/...), then run `toolwall doctor`.\n")
	os.Exit(2)
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
