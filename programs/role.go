package programs

import "fmt"

// Role says what an operand or an option's value is to its program.
type Role uint8

// Roles. The zero Role, Unknown, is what every operand of a program not in
// the catalog has.
const (
	Unknown   Role = iota // not described: judged as written
	None                  // data, not a file: a pattern, a name, a number, a message
	Read                  // a file read
	Write                 // a file created or overwritten
	Append                // a file appended to
	Modify                // a file changed in place (sed -i, truncate)
	Delete                // a file or directory deleted (recursively when the invocation has "recursive")
	Move                  // a file moved away: read, then gone from its place (mv's sources)
	Dest                  // a copy or move destination: a file, or a directory the sources go into
	Chmod                 // a file whose permission bits change
	Chown                 // a file whose owner or group changes
	Mode                  // a permission mode (chmod's MODE)
	Owner                 // an owner[:group] (chown's OWNER)
	Cd                    // a directory the program works in
	Exec                  // a file run as a program or script
	Source                // a file read as code into the current shell (source, .)
	Argv                  // this word and the rest: a command to run
	Shell                 // a shell command string
	ShellJoin             // this word and the rest, joined by spaces: a shell command
	Remote                // this word and the rest, joined by spaces: a command for another host
	Code                  // program text in the program's language
	Host                  // a network destination (host, host:port, user@host)
	URL                   // a URL the program connects to
	Upload                // a file whose content is sent over the network
	Data                  // literal data sent over the network
	Mount                 // a host path mapped into a container (SRC:DST[:opts])
	Image                 // a container image; the operands after it are the container's command
	Env                   // NAME=value for the command the program runs
	User                  // the user the program acts as
	Skip                  // an operand with no effect (timeout's DURATION)
	Items                 // input items the program appends to its command (xargs)
	Link                  // a symbolic or hard link created (ln's last operand)
	Create                // a directory or empty file created (mkdir, touch)
	Config                // a key=value setting of the program itself (git -c)
	Archive               // an archive file: written when the invocation has create, append or update, else read (tar -f)
	Bang                  // a command of the program's own command language; text after a leading "!" or "shell " is a shell command (gdb -ex, vim -c)
	Command               // one word: a shell command; several: an argv (tmux new-session)
	Keys                  // text typed into a shell, key names dropped (tmux send-keys)
	Split                 // a string split into words that start the command to run (env -S)
	Xfer                  // a path that may be remote (host:path): a local one is read and sent (scp, rsync sources)
	XferDest              // a transfer destination that may be remote: a local one is written (scp, rsync)
	Package               // a package to install: a name the registry resolves, or a URL, a VCS source or a path whose code comes from there (pip install, npm install)
	numRoles
)

var roleNames = [numRoles]string{
	"unknown", "none", "read", "write", "append", "modify", "delete", "move", "dest",
	"chmod", "chown", "mode", "owner", "cd", "exec", "source", "argv", "shell", "shelljoin",
	"remote", "code", "host", "url", "upload", "data", "mount", "image", "env", "user",
	"skip", "items", "link", "create", "config", "archive", "bang", "command", "keys", "split",
	"xfer", "xferdest", "package",
}

// String returns the role's name as written in the catalog.
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return fmt.Sprintf("role(%d)", r)
}

// ParseRole returns the role named s, as written in the catalog.
func ParseRole(s string) (Role, bool) {
	for i, n := range roleNames {
		if n == s {
			return Role(i), true
		}
	}
	return Unknown, false
}

// Rest reports whether the role takes every word from its own to the
// end (Argv, ShellJoin, Remote, Command, Keys).
func (r Role) Rest() bool {
	return r == Argv || r == ShellJoin || r == Remote || r == Command || r == Keys
}

// Runs reports whether the role is a command the program runs: Argv,
// Shell, ShellJoin, Remote, Code, Exec, Source, Bang, Command, Keys,
// Split.
func (r Role) Runs() bool {
	switch r {
	case Argv, Shell, ShellJoin, Remote, Code, Exec, Source, Bang, Command, Keys, Split:
		return true
	}
	return false
}
