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
	// process limit and not its neighbours'.
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
		t.uids = make(chan int, 8)
		for i := range cap(t.uids) {
			t.uids <- 60001 + i
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

// notFound matches bash's and dash's messages for a command they cannot
// find: "bash: line 1: x: command not found", "dash: 1: x: not found".
var notFound = regexp.MustCompile(`: ([^:]+): (?:command )?not found$`)

// Run runs src under shell ("bash" or "dash") as "shell -c src". Runs
// may be concurrent.
func (t *Tracer) Run(ctx context.Context, shell, src string) (*Run, error) {
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
		if m := notFound.FindStringSubmatch(sc.Text()); m != nil {
			// two children of a pipeline may write their messages
			// at once: a message's pieces can interleave
			name := strings.TrimSpace(strings.ReplaceAll(m[1], "not found", ""))
			r.Missing = append(r.Missing, name)
		}
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
