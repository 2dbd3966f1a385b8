package shell

import (
	"strings"
)

// optSpec describes a command's options for scanOpts.
type optSpec struct {
	// shortArg are short options taking a value (joined "-uroot" or next
	// word "-u root").
	shortArg string
	// shortOpt are short options with an optional value, joined only.
	shortOpt string
	// longArg are long options taking a value when not written "--x=v".
	longArg []string
	// dash makes a lone "-" an option (env's -i) rather than an operand.
	dash bool
	// strict lists every short flag; set, an unknown option means the
	// command is misused and runs nothing (bash builtins reject them).
	strict *string
}

// scanOpts walks the options of args[1:] and returns the index of the
// first operand. on receives each option (letter or long name) and its
// value; returning false stops the scan with ok false. "--" ends the
// options; a Dynamic word is an operand.
func scanOpts(args []Word, spec optSpec, on func(opt, val string) bool) (i int, ok bool) {
	for i = 1; i < len(args); i++ {
		a := args[i]
		if a.Dynamic {
			return i, true
		}
		v := a.Value
		switch {
		case v == "--":
			return i + 1, true
		case v == "-" && spec.dash:
			if !on("-", "") {
				return i, false
			}
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v[2:], "=")
			if !eq && contains(spec.longArg, name) && i+1 < len(args) {
				i++
				val = args[i].Value
			}
			if !on(name, val) {
				return i, false
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				l := v[j : j+1]
				if strings.Contains(spec.shortOpt, l) {
					if !on(l, v[j+1:]) {
						return i, false
					}
					break
				}
				if strings.Contains(spec.shortArg, l) {
					val := v[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].Value
					}
					if !on(l, val) {
						return i, false
					}
					break
				}
				if spec.strict != nil && !strings.Contains(*spec.strict, l) || !on(l, "") {
					return i, false
				}
			}
		default:
			return i, true
		}
	}
	return i, true
}

func ptr(s string) *string { return &s }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrapper is a command that runs another command given as its operands.
type wrapper struct {
	spec optSpec
	// privileged wrappers raise privilege (sudo, doas, pkexec, run0).
	privileged bool
	// assigns: NAME=value operands before the command (sudo, env).
	assigns bool
	// skip is how many operands precede the command (timeout's DURATION,
	// chroot's NEWROOT).
	skip int
}

// wrappers are the command runners unwrapped by Read, with the options
// of their man pages (sudo(8), doas(1), pkexec(1), run0(1), env(1),
// nice(1), timeout(1), time(1), stdbuf(1), ionice(1), chroot(8),
// setsid(1), nohup(1), busybox(1)) and bash builtins command, builtin and
// exec (bash manual §4.1, §4.2).
var wrappers = map[string]wrapper{
	"sudo": {spec: optSpec{shortArg: "ughpCDrtUT", longArg: []string{
		"user", "group", "host", "prompt", "close-from", "chdir", "role", "type",
		"other-user", "command-timeout"}}, privileged: true, assigns: true},
	"doas":   {spec: optSpec{shortArg: "uC"}, privileged: true},
	"pkexec": {spec: optSpec{longArg: []string{"user"}}, privileged: true},
	"run0": {spec: optSpec{shortArg: "ugD", longArg: []string{
		"user", "group", "chdir", "nice", "setenv", "property", "unit", "description",
		"slice", "slice-inherit", "machine", "background", "shell-prompt-prefix", "area"}}, privileged: true},
	"env": {spec: optSpec{shortArg: "uCS", longArg: []string{"unset", "chdir", "split-string"}, dash: true},
		assigns: true},
	"command": {spec: optSpec{strict: ptr("pvV")}},
	"builtin": {spec: optSpec{strict: ptr("")}},
	"exec":    {spec: optSpec{shortArg: "a", strict: ptr("cl")}},
	"nohup":   {spec: optSpec{strict: ptr("")}},
	"nice":    {spec: optSpec{shortArg: "n", longArg: []string{"adjustment"}}},
	"timeout": {spec: optSpec{shortArg: "sk", longArg: []string{"signal", "kill-after"}}, skip: 1},
	"time":    {spec: optSpec{shortArg: "fo", longArg: []string{"format", "output"}}},
	"stdbuf":  {spec: optSpec{shortArg: "ioe", longArg: []string{"input", "output", "error"}}},
	"ionice":  {spec: optSpec{shortArg: "cnpPu", longArg: []string{"class", "classdata", "pid", "pgid", "uid"}}},
	"chroot":  {spec: optSpec{longArg: []string{"userspec", "groups"}}, skip: 1},
	"setsid":  {},
	"busybox": {},
	// Runners that execute their operand with a changed environment
	// (unbuffer(1), caffeinate(8), firejail(1), proxychains4(1),
	// torsocks(1), strace(1), ltrace(1), valgrind(1), taskset(1), chrt(1),
	// numactl(8), systemd-run(1), xvfb-run(1), dbus-launch(1),
	// fakeroot(1), unshare(1), nsenter(1), flock(1), eatmydata(1),
	// nocache(1), prlimit(1), setpriv(1), cgexec(1), faketime(1),
	// catchsegv(1)).
	"unbuffer":     {},
	"caffeinate":   {spec: optSpec{shortArg: "tw"}},
	"firejail":     {},
	"proxychains":  {spec: optSpec{shortArg: "f"}},
	"proxychains4": {spec: optSpec{shortArg: "f"}},
	"torsocks":     {spec: optSpec{shortArg: "uapP", longArg: []string{"user", "pass", "address", "port"}}},
	"strace":       {spec: optSpec{shortArg: "abeEIoOpPSsuUX"}},
	"ltrace":       {spec: optSpec{shortArg: "aADeFlnopsuwx"}},
	"valgrind":     {},
	"taskset":      {skip: 1},
	"chrt":         {spec: optSpec{shortArg: "TPD", longArg: []string{"sched-runtime", "sched-period", "sched-deadline"}}, skip: 1},
	"numactl": {spec: optSpec{shortArg: "iNmCpPw", longArg: []string{"interleave", "preferred", "membind",
		"cpunodebind", "physcpubind", "preferred-many", "weighted-interleave"}}},
	"systemd-run": {spec: optSpec{shortArg: "upEMH", longArg: []string{"unit", "property", "setenv", "machine",
		"host", "description", "slice", "uid", "gid", "nice", "working-directory", "on-active", "on-boot",
		"on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "timer-property", "path-property",
		"socket-property", "service-type", "expand-environment"}}, privileged: true},
	"xvfb-run":    {spec: optSpec{shortArg: "efnpsw", longArg: []string{"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}}},
	"dbus-launch": {},
	"fakeroot":    {spec: optSpec{shortArg: "lsib", longArg: []string{"lib", "faked"}}},
	"unshare":     {spec: optSpec{shortArg: "SGRw", longArg: []string{"setuid", "setgid", "root", "wd", "propagation"}}},
	"nsenter":     {spec: optSpec{shortArg: "tSG", longArg: []string{"target", "setuid", "setgid"}}},
	"flock":       {spec: optSpec{shortArg: "wE", longArg: []string{"wait", "timeout", "conflict-exit-code"}}, skip: 1},
	"eatmydata":   {},
	"nocache":     {},
	"prlimit":     {spec: optSpec{shortArg: "p", longArg: []string{"pid"}}},
	"setpriv":     {spec: optSpec{longArg: []string{"reuid", "regid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}}},
	"cgexec":      {spec: optSpec{shortArg: "g"}},
	"faketime":    {spec: optSpec{shortArg: "f"}, skip: 1},
	"catchsegv":   {},
}

// unwrap peels wrappers off c.Args in any nesting order, recording them in
// c.Wrappers and applying their effects (privilege, assignments, working
// directory, background). It reports lookup when the command only looks a
// name up (command -v/-V) and runs nothing.
func (w *walker) unwrap(c *Command) (lookup bool) {
	for guard := 0; guard < 64 && len(c.Args) > 1 && !c.Args[0].Dynamic; guard++ {
		name := baseName(c.Args[0].Value)
		if name == "gdb" {
			if !gdbArgs(c) {
				return false
			}
			continue
		}
		wr, ok := wrappers[name]
		if !ok {
			return false
		}
		if name == "busybox" && strings.HasPrefix(c.Args[1].Value, "-") {
			return false
		}

		var (
			cwd      = c.Cwd
			cwdSet   bool
			bg       bool
			split    []Word
			isLookup bool
			user     bool
		)
		i, ok := scanOpts(c.Args, wr.spec, func(o, v string) bool {
			switch name + " " + o {
			case "sudo e", "sudo edit", "sudo l", "sudo list", "ionice p", "ionice P", "ionice u",
				"ionice pid", "ionice pgid", "ionice uid":
				return false
			case "command v", "command V":
				isLookup = true
				return false
			case "sudo D", "sudo chdir", "env C", "env chdir", "run0 D", "run0 chdir":
				cwd, cwdSet = abs(v, c.Cwd), true
			case "sudo b", "sudo background":
				bg = true
			case "strace p", "ltrace p", "taskset p", "taskset pid", "chrt p", "chrt pid", "prlimit p",
				"prlimit pid", "numactl s", "numactl show", "numactl H", "numactl hardware", "chrt m", "chrt max":
				return false // attach to or show a running process: no command
			case "systemd-run user":
				user = true
			case "systemd-run working-directory":
				cwd, cwdSet = abs(v, c.Cwd), true
			case "systemd-run d", "systemd-run same-dir":
				cwdSet = true
			case "env S", "env split-string":
				split = append(split, splitWords(v)...)
			}
			return true
		})
		if isLookup {
			return true
		}
		if !ok {
			return false
		}
		var assigns []string
		if wr.assigns {
			for i < len(c.Args) && isAssign(c.Args[i].Prefix) {
				if c.Args[i].Dynamic {
					assigns = append(assigns, c.Args[i].Raw)
				} else {
					assigns = append(assigns, c.Args[i].Value)
				}
				i++
			}
		}
		i += wr.skip
		rest := append(split, c.Args[min(i, len(c.Args)):]...)
		if len(rest) == 0 {
			return false
		}
		if name == "chroot" {
			cwd, cwdSet = "/", true
		}
		if name == "flock" && (rest[0].Value == "-c" || rest[0].Value == "--command") {
			return false // flock FILE -c CMD: a shell body (see follow)
		}
		if name == "systemd-run" && !cwdSet {
			// a service starts in / (system) or in the home (--user)
			cwd, cwdSet = "/", true
			if user {
				cwd = w.opt.Home
			}
		}
		c.Args = rest
		c.Wrappers = append(c.Wrappers, name)
		c.Assigns = append(c.Assigns, assigns...)
		c.Privileged = c.Privileged || wr.privileged && !user
		c.Background = c.Background || bg
		if cwdSet {
			c.Cwd = cwd
		}
	}
	return false
}

// gdbArgs unwraps gdb … --args PROGRAM ARGS (gdb(1)): gdb runs the
// program it is given that way. It reports whether it found one.
func gdbArgs(c *Command) bool {
	for i, a := range c.Args[1:] {
		if !a.Dynamic && a.Value == "--args" && i+2 < len(c.Args) {
			c.Args = c.Args[i+2:]
			c.Wrappers = append(c.Wrappers, "gdb")
			return true
		}
	}
	return false
}

// isAssign reports whether v is NAME=value.
func isAssign(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := v[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// splitWords splits env -S's string into words: whitespace separates,
// single and double quotes group, backslash escapes (env(1) -S).
func splitWords(s string) []Word {
	var out []Word
	var b strings.Builder
	in := false
	var q byte
	flush := func() {
		if in {
			v := b.String()
			out = append(out, Word{Raw: v, Value: v, Prefix: v})
			b.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '\'' || c == '"'):
			q, in = c, true
		case q != '\'' && c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case q == 0 && (c == ' ' || c == '\t' || c == '\n'):
			flush()
		default:
			b.WriteByte(c)
			in = true
		}
	}
	flush()
	return out
}
