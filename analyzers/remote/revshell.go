package remote

import (
	"path"
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
	case "nc", "socat", "ftp", "socket":
		return true
	case "openssl":
		return c.Inv.Sub("s_client")
	}
	return false
}

// reverseShell reports a shell handed to the network (MITRE T1059 with a
// C2 channel): a shell whose stdin or stdout is /dev/tcp or /dev/udp
// (exec counts when it points the shell's own stdin, stdout or stderr
// there), netcat's -e/-c/--exec/--sh-exec/--lua-exec or socat's
// EXEC:/SYSTEM: address running a shell or an interpreter (or a program
// toolwall does not know), or a shell piped into a network pipe. A
// server that runs a known program that reads no code (nc -l -c 'echo
// …', socat … EXEC:/bin/cat) is not one. It returns why, or "".
func (a *analyzer) reverseShell(c *shell.Command) string {
	for _, r := range c.Redirects {
		t := r.Target.Value
		if !devNet(t) {
			continue
		}
		if isShell(c) || c.Name == "" || c.Name == "exec" && (r.Fd == "" || r.Fd == "0" || r.Fd == "1" || r.Fd == "2") {
			return "it connects a shell's input and output to " + t + ", handing a command line on this machine to whoever listens there"
		}
	}
	if src := a.fdShell(c); src != nil {
		return "it connects the input or output of " + shellWhat(c) + " to a descriptor that " + src.Name + " opened on the network, handing a command line on this machine to whoever is at the other end"
	}
	if d, ok := remoteDisplay(c); ok {
		return "it opens a terminal with a shell on the X display " + d + " of another host, handing a command line on this machine to whoever sits at that display"
	}
	v := c.Inv
	switch rootName(c) {
	case "nc", "socket":
		for _, o := range v.Opts {
			switch o.Name {
			case "exec", "lua-exec":
				if w := v.Value(o); w.Dynamic || runsCode(w.Value) {
					return "netcat's " + o.Spelling + " runs a program for whoever connects, a remote shell on this machine"
				}
			case "sh-exec":
				if w := v.Value(o); w.Dynamic || a.childRunsCode(c) {
					return "netcat's " + o.Spelling + " runs a shell command for whoever connects, a remote shell on this machine"
				}
			}
		}
	case "socat":
		for _, w := range v.OperandsOf(programs.None) {
			u := strings.ToUpper(w.Value)
			prog := ""
			switch {
			case strings.HasPrefix(u, "EXEC:"):
				prog = w.Value[5:]
			case strings.HasPrefix(u, "SYSTEM:"):
				prog = w.Value[7:]
			default:
				continue
			}
			prog, _, _ = strings.Cut(prog, ",")
			if f := strings.Fields(strings.Trim(prog, `"'`)); w.Dynamic || len(f) == 0 || runsCode(f[0]) {
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

// runsCode reports a program that, started with the network as its
// stdin, would run what it reads: a shell or an interpreter by its
// catalog entry, or a program the catalog does not know.
func runsCode(prog string) bool {
	p := programs.Lookup(path.Base(prog))
	return p == nil || p.Lang != "" && p.Root().Name != "sed" && p.Root().Name != "make"
}

// childRunsCode reports whether the shell string c hands on (nc -c)
// holds a command that runs what it reads, or one toolwall does not
// know.
func (a *analyzer) childRunsCode(c *shell.Command) bool {
	found := false
	for _, x := range a.cmds {
		if x.Parent != c {
			continue
		}
		found = true
		if x.Name == "" || x.Inv.Program() == nil || runsCode(x.Name) {
			return true
		}
	}
	return !found
}

// revshell adds the finding for a reverse shell in c.
func (a *analyzer) revshell(c *shell.Command) {
	if why := a.reverseShell(c); why != "" {
		a.r.Tag(toolwall.TagEgress, "", "remote shell")
		a.add(RuleReverseShell, categoryRemote, toolwall.Deny, "`"+c.String()+"` was refused: "+why+". If you need to reach another machine, use ssh with the user's keys, or ask the user.")
	}
}

// fdShell returns the command that opened a network connection on a
// descriptor c reads or writes (exec 5<>/dev/tcp/h/p; … $line >&5;
// ztcp h p; zsh >&$REPLY) when c is a shell, an interpreter, a program
// toolwall does not know or a command named at run time: what it runs
// or prints goes to the other end. It returns nil otherwise.
func (a *analyzer) fdShell(c *shell.Command) *shell.Command {
	if len(a.fdNet) == 0 || c.Name != "" && c.Inv.Program() != nil && !runsCode(c.Name) {
		return nil
	}
	for _, r := range c.Redirects {
		if r.Op != ">&" && r.Op != "<&" {
			continue
		}
		key := r.Target.Value
		if r.Target.Dynamic {
			key = r.Target.Raw
		}
		if src, ok := a.fdNet[key]; ok && (src.Name == "exec" || rootName(src) == "ztcp") {
			return src
		}
	}
	return nil
}

// shellWhat names c for a reason: its name, or "a command named at run
// time".
func shellWhat(c *shell.Command) string {
	if c.Name == "" {
		return "a command named at run time"
	}
	return c.Name
}

// remoteDisplay returns the X display of another host that a terminal
// emulator (xterm -display h:1, DISPLAY=h:1 xterm) opens its shell on:
// a display whose host part is neither empty, unix nor this machine.
func remoteDisplay(c *shell.Command) (string, bool) {
	if rootName(c) != "xterm" {
		return "", false
	}
	d := ""
	for _, w := range c.Inv.Values("display") {
		d = w.Value
	}
	for _, as := range c.Assigns {
		if v, ok := strings.CutPrefix(as, "DISPLAY="); ok && d == "" {
			d = v
		}
	}
	host, _, ok := strings.Cut(d, ":")
	switch strings.ToLower(host) {
	case "", "unix", "localhost", "127.0.0.1", "::1", "[::1]":
		return "", false
	}
	return d, ok
}
