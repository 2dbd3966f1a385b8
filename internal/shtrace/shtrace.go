// Package shtrace runs shell text under real bash and dash in a sealed
// tracer and reports the external commands they started, so that the
// reader (package shell) can be held against the shells it models.
//
// The tracer is a bubblewrap sandbox: new user, mount, PID, network, IPC
// and UTS namespaces; a root of its own built from a tmpfs, with only the
// system's shared libraries and the shells themselves bound read-only;
// every other program name on the PATH (and in /usr/bin, /bin, /usr/sbin,
// /sbin, /usr/local/bin) is a recorder that writes its argv to a log and
// does nothing. The home (/home/u), the working directory (/home/u/app)
// and /tmp are empty tmpfs mounts, the only places the text can write.
// There is no network. Run as root, the sandbox starts as nobody, so that
// the process limit holds; a time limit ends every run.
//
// A command the shell cannot find is reported from its "not found"
// message, so a name made at run time is still seen.
package shtrace

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Home and Cwd are the home directory and working directory inside the
// sandbox.
const (
	Home = "/home/u"
	Cwd  = "/home/u/app"
)

// Shells are the shells a text is run under; sh is dash, as on Debian.
var Shells = []string{"bash", "dash"}

// Tracer holds the prepared program directory; it is safe for concurrent
// use.
type Tracer struct {
	dir string
	bin string
	// uids are the users runs start as when the tracer runs as root, one
	// per run at a time, so that a fork bomb in one run meets its own
	// process limit and not its neighbours' (nor another test process's:
	// the range depends on the process id).
	uids    chan int
	Timeout time.Duration
}

// Run is what one shell did with one text.
type Run struct {
	// Argvs are the external commands started, in order.
	Argvs [][]string
	// Missing are the names the shell could not find.
	Missing []string
	// TimedOut is set when the time limit ended the run.
	TimedOut bool
}

// New prepares a tracer in a fresh directory under tmp: recorder is the
// recorder program (see the recorder command beside this package) and
// names the program names to stand in for (besides every name in the
// system's program directories). It fails when bwrap, bash or dash is
// missing or the sandbox cannot start.
func New(tmp, recorder string, names []string) (*Tracer, error) {
	for _, p := range []string{"bwrap", "bash", "dash", "prlimit"} {
		if _, err := exec.LookPath(p); err != nil {
			return nil, fmt.Errorf("shtrace: %s not found: %w", p, err)
		}
	}
	dir, err := os.MkdirTemp(tmp, "shtrace")
	if err != nil {
		return nil, err
	}
	t := &Tracer{dir: dir, bin: filepath.Join(dir, "bin"), Timeout: 3 * time.Second}
	if err := os.Mkdir(t.bin, 0o755); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	rec := filepath.Join(dir, "recorder")
	if err := copyFile(recorder, rec); err != nil {
		return nil, err
	}
	for _, sh := range []string{"bash", "dash"} {
		p, _ := exec.LookPath(sh)
		if err := copyFile(p, filepath.Join(t.bin, sh)); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink("dash", filepath.Join(t.bin, "sh")); err != nil {
		return nil, err
	}
	all := append([]string(nil), names...)
	for _, d := range []string{"/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin"} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			all = append(all, e.Name())
		}
	}
	for _, n := range all {
		if n == "" || strings.ContainsAny(n, "/\x00") || n == "." || n == ".." {
			continue
		}
		if err := os.Link(rec, filepath.Join(t.bin, n)); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, err
		}
	}
	if os.Geteuid() == 0 {
		// tracers of other processes take other users, mostly
		base := 60001 + os.Getpid()%64*8
		t.uids = make(chan int, 8)
		for i := range cap(t.uids) {
			t.uids <- base + i
		}
	}
	if r, err := t.Run(context.Background(), "bash", "true_probe_name"); err != nil {
		return nil, fmt.Errorf("shtrace: the sandbox does not start: %w", err)
	} else if len(r.Missing) != 1 {
		return nil, fmt.Errorf("shtrace: the sandbox's probe saw %v", r)
	}
	return t, nil
}

// Close removes the tracer's directory.
func (t *Tracer) Close() error { return os.RemoveAll(t.dir) }

// A shell that cannot find a command says so on its standard error:
// bash as "bash: line 1: NAME: command not found" (its exec builtin as
// "...: exec: NAME: not found"), dash as "dash: 1: NAME: not found" (and
// "dash: 1: exec: NAME: not found", and with the eval or the file sourced
// that ran it: "dash: 1: eval: NAME: not found"). The prefix is the shell's name or
// the script's path, with bash's "line N: " when it is not interactive.
// Other builtins' messages ("alias: x: not found", "hash: x: not found",
// "type: x: not found", dash's ".: file: not found") name no command.
var (
	bashNotFound = regexp.MustCompile(`^((?:` + prefix + `: )*)(.*): command not found$`)
	bashExec     = regexp.MustCompile(`^(?:` + prefix + `: )*line [0-9]+: exec: (.*): not found$`)
	dashNotFound = regexp.MustCompile(`^(?:(?:` + prefix + `|[0-9]+): )*[0-9]+: (?:(?:eval|exec|[^:\s]*/[^:\s]*): )*(.*): not found$`)
	// bare is what is left of dash's message when another took its
	// prefix; a builtin's message always names the builtin first
	bare = regexp.MustCompile(`^([^:]+): not found$`)
	// quoted is how bash shows a name with a byte it does not print
	// as is: $'\342\200\234x'
	quoted = regexp.MustCompile(`^\$'((?:[^'\\]|\\.)*)'$`)
	// pieces are prefix pieces of another message left in front of a
	// name when messages of pipeline children interleave
	pieces = regexp.MustCompile(`^(?:(?:` + prefix + `|[0-9]+): )+`)
)

// prefix is one piece a shell's message starts with: the shell's name
// (bash, sh, …) or a script's path, and bash's "line N" ("environment"
// is where bash says a function it runs was defined when no file holds
// it).
const prefix = `(?:bash|dash|sh|[^:\s]*/[^:\s]*|environment|line [0-9]+)`

// missingName returns the command a line of a shell's standard error says
// was not found. Two children of a pipeline may write their messages at
// once: bash and dash write a message in pieces (the prefix, then the
// rest), so the pieces of two messages can interleave on one line and
// leave a line without its prefix; every leading prefix piece is
// dropped.
func missingName(line string) (string, bool) {
	var name string
	if m := bashNotFound.FindStringSubmatch(line); m != nil {
		name = m[2]
	} else if m := bashExec.FindStringSubmatch(line); m != nil {
		name = m[1]
	} else if m := bare.FindStringSubmatch(line); m != nil {
		name = m[1]
	} else if m := dashNotFound.FindStringSubmatch(line); m != nil {
		name = m[1]
		if strings.HasPrefix(name, "hash: ") || strings.HasPrefix(name, ".: ") {
			return "", false
		}
	} else {
		return "", false
	}
	if rest := pieces.ReplaceAllString(name, ""); rest != "" {
		name = rest
	}
	if m := quoted.FindStringSubmatch(name); m != nil {
		name = unquoteANSIC(m[1])
	}
	return name, name != ""
}

// missingNames returns the commands a line of a shell's standard error
// says were not found: the pieces of two messages can also meet without
// a newline between them ("…: a: not foundb: not found").
func missingNames(line string) []string {
	name, ok := missingName(line)
	if !ok {
		return nil
	}
	if strings.Contains(name, "not found") {
		var names []string
		for _, part := range strings.SplitAfter(line, "not found") {
			if n, ok := missingName(strings.TrimSpace(part)); ok {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			return names
		}
	}
	return []string{name}
}

// unquoteANSIC undoes bash's $'…' quoting of a name in its messages:
// octal bytes and the C escapes.
func unquoteANSIC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := 0
			for j := 0; j < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; j++ {
				n = n*8 + int(s[i]-'0')
				i++
			}
			i--
			b.WriteByte(byte(n))
		default: // \\, \', \"
			b.WriteByte(e)
		}
	}
	return b.String()
}

// Run runs src under shell ("bash" or "dash") as "shell -c src". Runs
// may be concurrent. A sandbox that cannot start for want of processes
// (the machine, or another run as the same user, is full) is tried
// again.
func (t *Tracer) Run(ctx context.Context, shell, src string) (*Run, error) {
	for try := 1; ; try++ {
		r, err := t.run(ctx, shell, src)
		if err == nil || try == 4 || !strings.Contains(err.Error(), "Resource temporarily unavailable") {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(time.Duration(try) * 250 * time.Millisecond):
		}
	}
}

func (t *Tracer) run(ctx context.Context, shell, src string) (*Run, error) {
	trace, err := os.MkdirTemp(t.dir, "run")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(trace)
	if err := os.Chmod(trace, 0o777); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	args := []string{"--nproc=256", "--as=2147483648", "--fsize=16777216", "--"}
	if t.uids != nil {
		uid := <-t.uids
		defer func() { t.uids <- uid }()
		id := fmt.Sprint(uid)
		args = append(args, "setpriv", "--reuid="+id, "--regid="+id, "--clear-groups")
	}
	args = append(args, "bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
		"--tmpfs", "/",
		"--ro-bind", "/usr/lib", "/usr/lib", "--symlink", "usr/lib", "/lib")
	if _, err := os.Stat("/usr/lib64"); err == nil {
		args = append(args, "--ro-bind", "/usr/lib64", "/usr/lib64", "--symlink", "usr/lib64", "/lib64")
	}
	args = append(args,
		"--ro-bind", t.bin, "/usr/bin", "--symlink", "usr/bin", "/bin",
		"--ro-bind", t.bin, "/usr/sbin", "--symlink", "usr/sbin", "/sbin",
		"--ro-bind", t.bin, "/usr/local/bin",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", Cwd,
		"--bind", trace, "/trace", "--chdir", Cwd,
		"--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "HOME", Home,
		"--setenv", "USER", "u", "--setenv", "LC_ALL", "C",
		"/usr/bin/"+shell, "-c", src)
	cmd := exec.CommandContext(ctx, "prlimit", args...)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, &limited{b: &stderr, n: 1 << 20}
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	r := &Run{TimedOut: ctx.Err() != nil}
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) && !r.TimedOut {
		return nil, runErr
	}
	if strings.Contains(stderr.String(), "bwrap: ") && !strings.Contains(src, "bwrap") {
		return nil, fmt.Errorf("bwrap: %s", strings.TrimSpace(stderr.String()))
	}
	if b, err := os.ReadFile(filepath.Join(trace, "log")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var argv []string
			if json.Unmarshal(sc.Bytes(), &argv) == nil && len(argv) > 0 {
				r.Argvs = append(r.Argvs, argv)
			}
		}
	}
	sc := bufio.NewScanner(&stderr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		r.Missing = append(r.Missing, missingNames(sc.Text())...)
	}
	return r, nil
}

// limited keeps the first n bytes written to it.
type limited struct {
	b *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}
