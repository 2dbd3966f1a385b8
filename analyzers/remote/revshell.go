package remote

import (
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/shell"
)

// shells are programs that give whoever feeds their stdin a command line.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "fish": true, "csh": true, "tcsh": true}

// netcats are raw network pipes.
var netcats = map[string]bool{"nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true, "openssl": true}

// reverseShell reports a shell handed to the network (MITRE T1059 with a
// C2 channel): a shell whose stdin or stdout is /dev/tcp or /dev/udp,
// netcat's -e/-c/--exec/--sh-exec, socat's EXEC:/SYSTEM: address, or a
// shell piped into a netcat. It returns why, or "".
func reverseShell(c *shell.Command) string {
	for _, r := range c.Redirects {
		t := r.Target.Value
		if strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			if shells[c.Name] || c.Name == "" || c.Name == "exec" {
				return "it connects a shell's input and output to " + t + ", handing a command line on this machine to whoever listens there"
			}
		}
	}
	switch c.Name {
	case "nc", "ncat", "netcat":
		for _, w := range c.Args[1:] {
			v := w.Value
			if v == "-e" || v == "-c" || v == "--exec" || v == "--sh-exec" || v == "--lua-exec" || strings.HasPrefix(v, "-e/") || strings.HasPrefix(v, "--exec=") || strings.HasPrefix(v, "--sh-exec=") {
				return "netcat's " + v + " runs a program for whoever connects, a remote shell on this machine"
			}
		}
	case "socat":
		for _, w := range c.Args[1:] {
			if u := strings.ToUpper(w.Value); strings.HasPrefix(u, "EXEC:") || strings.HasPrefix(u, "SYSTEM:") {
				return "socat's " + w.Value + " address runs a program for the other end of the connection, a remote shell on this machine"
			}
		}
	}
	if netcats[c.Name] && c.Stdin.Kind == shell.StdinPipe {
		for _, up := range c.Stdin.Feeds {
			if shells[up.Name] {
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
