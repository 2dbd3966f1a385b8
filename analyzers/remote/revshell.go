package remote

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/programs"
	"github.com/toolwall/toolwall/shell"
)

// isShell reports a shell: a program whose catalog language is sh and
// that gives whoever feeds its stdin a command line.
func isShell(c *shell.Command) bool {
	p := c.Inv.Program()
	if p == nil || p.Lang != "sh" {
		return false
	}
	switch p.Root().Name {
	case "bash", "fish", "csh":
		return true
	}
	return false
}

// netPipe reports raw network pipes (netcat and kin, socat, telnet,
// openssl s_client).
func netPipe(c *shell.Command) bool {
	switch rootName(c) {
	case "nc", "socat", "ftp":
		return true
	case "openssl":
		return c.Inv.Sub("s_client")
	}
	return false
}

// reverseShell reports a shell handed to the network (MITRE T1059 with a
// C2 channel): a shell whose stdin or stdout is /dev/tcp or /dev/udp,
// netcat's -e/-c/--exec/--sh-exec/--lua-exec, socat's EXEC:/SYSTEM:
// address, or a shell piped into a network pipe. It returns why, or "".
func reverseShell(c *shell.Command) string {
	for _, r := range c.Redirects {
		if t := r.Target.Value; devNet(t) && (isShell(c) || c.Name == "" || c.Name == "exec") {
			return "it connects a shell's input and output to " + t + ", handing a command line on this machine to whoever listens there"
		}
	}
	v := c.Inv
	switch rootName(c) {
	case "nc":
		for _, o := range v.Opts {
			switch o.Name {
			case "exec", "sh-exec", "lua-exec":
				return "netcat's " + o.Spelling + " runs a program for whoever connects, a remote shell on this machine"
			}
		}
	case "socat":
		for _, w := range v.OperandsOf(programs.None) {
			if u := strings.ToUpper(w.Value); strings.HasPrefix(u, "EXEC:") || strings.HasPrefix(u, "SYSTEM:") {
				return "socat's " + w.Value + " address runs a program for the other end of the connection, a remote shell on this machine"
			}
		}
	}
	if netPipe(c) && c.Stdin.Kind == shell.StdinPipe {
		for _, up := range c.Stdin.Feeds {
			if isShell(up) {
				return "a shell's output is piped into " + c.Name + ", the usual way to hand a command line to a remote listener"
			}
		}
	}
	return ""
}

// revshell adds the finding for a reverse shell in c.
func (a *analyzer) revshell(c *shell.Command) {
	if why := reverseShell(c); why != "" {
		a.r.Tag(toolwall.TagEgress, "", "remote shell")
		a.add("remote.reverse-shell", "remote-code", toolwall.Deny, "`"+c.String()+"` was refused: "+why+". If you need to reach another machine, use ssh with the user's keys, or ask the user.")
	}
}
