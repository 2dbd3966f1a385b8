package shell

import "os"

// Sandbox confines each command with Landlock (Linux 5.13 and later):
// the command and everything it starts may write only under Writable, and
// read only under Writable and Readable. It is best effort: on a kernel
// without Landlock, or with an older Landlock ABI, the command runs with
// what the kernel enforces ([Probe] reports it), unless Require is set.
// Network access is not restricted.
type Sandbox struct {
	// Writable lists directories the command may read and write (default:
	// the project and the temporary directory).
	Writable []string
	// Readable lists directories the command may only read and execute
	// from (default SystemDirs). The home directory is not readable
	// unless listed (or inside the project).
	Readable []string
	// Require refuses every command (exit status 126) when the kernel
	// enforces no Landlock restriction, instead of running it unconfined.
	Require bool
}

// SystemDirs are the directories a sandboxed command may read and execute
// from by default: the system's programs, libraries and configuration,
// and /proc, /sys and /dev (of which only /dev/null, /dev/zero and
// /dev/tty are writable). Missing ones are skipped.
var SystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys", "/dev", "/run", "/nix"}

// Report says what Landlock this kernel enforces.
type Report struct {
	// ABI is the kernel's Landlock ABI version (0 when unavailable).
	ABI int
	// Enforced says commands are confined at all.
	Enforced bool
	// Detail says what is restricted, or why nothing is.
	Detail string
}

// writable returns the writable directories for project.
func (s *Sandbox) writable(project string) []string {
	if len(s.Writable) > 0 {
		return s.Writable
	}
	out := []string{os.TempDir()}
	if project != "" {
		out = append(out, project)
	}
	return out
}

func (s *Sandbox) readable() []string {
	if s.Readable != nil {
		return s.Readable
	}
	return SystemDirs
}
