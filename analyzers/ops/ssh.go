package ops

import (
	"strings"

	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).ssh, "ssh")
}

// sshSpec reads ssh's options (OpenSSH ssh(1)); it stops at the host.
var sshSpec = &optSpec{
	short: shorts("46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:P:p:Q:R:S:W:w:"),
	posix: true,
}

// sshMaxBytes bounds the remote command read (the reader's own limits
// apply inside).
const sshMaxBytes = 16 << 10

// ssh: the remote command — the words after the host joined by spaces, as
// ssh sends it to the remote shell — is read as a shell command and its
// commands are checked: rebooting, dropping a database or stopping sshd on
// another machine is no less final. Remote ~ and $HOME are unknown and stay
// dynamic.
func (k *checker) ssh(x cmdCtx) {
	p := parseArgs(x.args[1:], sshSpec)
	if len(p.operands) < 2 || x.depth >= maxInnerDepth {
		return
	}
	remote := strings.Join(values(p.operands[1:]), " ")
	script, err := shell.Read(remote, shell.Options{MaxBytes: sshMaxBytes, MaxDepth: maxInnerDepth})
	if err != nil {
		return
	}
	for _, c := range script.Commands {
		k.history(c)
		if len(c.Args) > 0 {
			k.dispatch(cmdCtx{cmd: c, args: c.Args, name: c.Name, depth: x.depth + 1})
		}
	}
}
