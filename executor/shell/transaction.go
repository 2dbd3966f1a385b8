package shell

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolwall/toolwall/paths"
	shellread "github.com/toolwall/toolwall/shell"
)

// Defaults of [Transaction].
const (
	DefaultSnapshotBytes = 64 << 20
	DefaultSnapshotFiles = 20000
	DefaultCheckpoints   = 4
)

// ErrSnapshotTooLarge is wrapped by the error of a snapshot over its
// bound; the command is then refused, not run unprotected.
var ErrSnapshotTooLarge = errors.New("snapshot over its bound")

// Transaction is the transactional mode of the shell executor (the tool-executor framework's
// shell::transaction): before a command runs, the files it may change are
// snapshotted; when it exits non-zero they are put back byte for byte —
// contents, modes, modification times, symbolic links, deleted files and
// directories restored, created ones removed. [Executor.Rollback] undoes a
// run that succeeded, on request.
//
// What is snapshotted comes from toolwall's shell reader: the write
// targets of redirections and the operands of programs that only change
// their operands (rm, mv, cp, touch, mkdir, tee, truncate, chmod, ln,
// sed -i, dd of=, ...), each file or whole directory tree. When a command
// runs anything else — an unknown program, a build, git, an interpreter,
// a dynamic or globbed word, a cd the reader cannot follow — the whole
// project tree is snapshotted instead. Either way the snapshot is bounded:
// over MaxBytes or MaxFiles the command is refused.
//
// Limits: changes outside the snapshotted paths (a program writing under
// $HOME while the project is snapshotted) are not undone; owners and
// extended attributes are not restored; a hard link is restored as a
// separate file. Transactional runs of one executor take turns.
type Transaction struct {
	// MaxBytes bounds the file contents a snapshot holds (default
	// DefaultSnapshotBytes).
	MaxBytes int64
	// MaxFiles bounds the entries (files, directories, links) a snapshot
	// holds (default DefaultSnapshotFiles).
	MaxFiles int
	// Keep is how many checkpoints of succeeded runs stay available for
	// Rollback (default DefaultCheckpoints).
	Keep int
}

func (t Transaction) withDefaults() Transaction {
	if t.MaxBytes <= 0 {
		t.MaxBytes = DefaultSnapshotBytes
	}
	if t.MaxFiles <= 0 {
		t.MaxFiles = DefaultSnapshotFiles
	}
	if t.Keep <= 0 {
		t.Keep = DefaultCheckpoints
	}
	return t
}

// Programs whose only file effects are on their operands (and that write
// nothing for a read-only one). A command of any other program makes the
// transaction snapshot the whole project.
var (
	readOnlyPrograms = set("ls", "cat", "echo", "printf", "true", "false", "pwd", "cd", "test", "[", "grep", "egrep",
		"fgrep", "rg", "head", "tail", "wc", "stat", "file", "which", "type", "date", "whoami", "id", "uname", "diff",
		"cmp", "basename", "dirname", "realpath", "readlink", "du", "df", "sleep", "seq", "tr", "cut", "md5sum",
		"sha1sum", "sha256sum", "xxd", "od", "exit", ":", "export", "unset")
	operandPrograms = set("rm", "rmdir", "mv", "cp", "touch", "mkdir", "tee", "truncate", "chmod", "chown", "chgrp",
		"ln", "install", "unlink", "shred", "uniq", "sed", "dd")
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Plan returns what a transactional run of command in cwd would
// snapshot: the absolute paths it may change, or whole=true when it may
// change anything and the whole project is snapshotted.
func Plan(command, cwd, home string) (out []string, whole bool) {
	script, err := shellread.Read(command, shellread.Options{Cwd: cwd, Home: home})
	if err != nil {
		return nil, true
	}
	add := func(w shellread.Word, dir string) bool {
		if w.Dynamic || w.Glob || dir == "" {
			return false
		}
		if w.Value == "" || strings.HasPrefix(w.Value, "/dev/") {
			return true
		}
		out = append(out, paths.Abs(w.Value, dir))
		return true
	}
	for _, c := range script.Commands {
		for _, r := range c.Redirects {
			if r.Writes() && !add(r.Target, c.Cwd) {
				return nil, true
			}
		}
		if len(c.Args) == 0 {
			continue
		}
		switch {
		case c.Name == "":
			return nil, true
		case readOnlyPrograms[c.Name]:
		case operandPrograms[c.Name]:
			opts := true
			for _, w := range c.Args[1:] {
				if opts && w.Value == "--" {
					opts = false
					continue
				}
				if opts && strings.HasPrefix(w.Value, "-") {
					continue
				}
				if c.Name == "dd" {
					if v, ok := strings.CutPrefix(w.Value, "of="); ok {
						w.Value = v
					} else {
						continue
					}
				}
				if !add(w, c.Cwd) {
					return nil, true
				}
			}
		default:
			return nil, true
		}
	}
	return out, false
}

// entry is one snapshotted path.
type entry struct {
	mode  fs.FileMode
	mtime time.Time
	data  []byte // regular files
	link  string // symbolic links
}

// snapshot is the state of some trees before a command ran. A root that
// did not exist is recorded with no entry: restoring removes it.
type snapshot struct {
	roots   []string
	entries map[string]entry
	// parents are the modification times of the roots' parent
	// directories, which change when a root is created or deleted.
	parents map[string]time.Time
	bytes   int64
	max     Transaction
}

// take snapshots what command may change (see Transaction).
func (t *Transaction) take(command, cwd, project, home string) (*snapshot, error) {
	roots, whole := Plan(command, cwd, home)
	if whole {
		if project == "" {
			return nil, errors.New("the command may change any file and there is no project to snapshot")
		}
		roots = []string{project}
	}
	s := &snapshot{entries: map[string]entry{}, max: t.withDefaults()}
	for _, r := range roots {
		r = filepath.Clean(r)
		s.roots = append(s.roots, r)
		// A write through a symbolic link changes its target.
		if real, err := filepath.EvalSymlinks(r); err == nil && real != r {
			s.roots = append(s.roots, real)
		}
	}
	s.roots = dedupeRoots(s.roots)
	s.parents = map[string]time.Time{}
	for _, r := range s.roots {
		if err := s.add(r); err != nil {
			return nil, err
		}
		if info, err := os.Stat(filepath.Dir(r)); err == nil {
			s.parents[filepath.Dir(r)] = info.ModTime()
		}
	}
	return s, nil
}

// dedupeRoots drops roots inside other roots.
func dedupeRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		if !slices.ContainsFunc(roots, func(o string) bool { return o != r && paths.Under(r, o) }) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// add records root and, for a directory, everything under it.
func (s *snapshot) add(root string) error {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return nil
		}
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{mode: info.Mode(), mtime: info.ModTime()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			if e.link, err = os.Readlink(p); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if s.bytes+info.Size() > s.max.MaxBytes {
				return fmt.Errorf("%s would hold more than %d bytes: %w", root, s.max.MaxBytes, ErrSnapshotTooLarge)
			}
			if e.data, err = os.ReadFile(p); err != nil {
				return err
			}
			s.bytes += int64(len(e.data))
		case info.IsDir():
		default:
			// Sockets, devices, pipes: kept as they are.
			return nil
		}
		s.entries[p] = e
		if len(s.entries) > s.max.MaxFiles {
			return fmt.Errorf("%s would hold more than %d entries: %w", root, s.max.MaxFiles, ErrSnapshotTooLarge)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("snapshot of %s: %w", root, err)
	}
	return nil
}

// restore puts every root back as snapshotted.
func (s *snapshot) restore() error {
	var errs []error
	for _, root := range s.roots {
		// Remove what is new, or changed kind, deepest first.
		var extra []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			e, ok := s.entries[p]
			if !ok || e.mode.Type() != d.Type() {
				extra = append(extra, p)
				if d.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
		for _, p := range slices.Backward(extra) {
			if err := os.RemoveAll(p); err != nil {
				errs = append(errs, err)
			}
		}
	}
	// Recreate in path order, so parents come first.
	keys := make([]string, 0, len(s.entries))
	for p := range s.entries {
		keys = append(keys, p)
	}
	slices.Sort(keys)
	for _, p := range keys {
		if err := s.put(p, s.entries[p]); err != nil {
			errs = append(errs, err)
		}
	}
	// Directory times last, deepest first: restoring children moves them.
	for _, p := range slices.Backward(keys) {
		if e := s.entries[p]; e.mode.IsDir() {
			_ = os.Chtimes(p, e.mtime, e.mtime)
		}
	}
	for p, mt := range s.parents {
		if _, inside := s.entries[p]; !inside {
			_ = os.Chtimes(p, mt, mt)
		}
	}
	return errors.Join(errs...)
}

// put makes p what e says, touching it only when it differs.
func (s *snapshot) put(p string, e entry) error {
	info, err := os.Lstat(p)
	exists := err == nil
	switch {
	case e.mode&fs.ModeSymlink != 0:
		if exists {
			if cur, err := os.Readlink(p); err == nil && cur == e.link {
				return lutimes(p, e.mtime)
			}
			if err := os.Remove(p); err != nil {
				return err
			}
		}
		if err := os.Symlink(e.link, p); err != nil {
			return err
		}
		return lutimes(p, e.mtime)
	case e.mode.IsDir():
		if !exists {
			if err := os.Mkdir(p, e.mode.Perm()|0o700); err != nil {
				return err
			}
		}
		return os.Chmod(p, e.mode.Perm())
	}
	if exists && info.Mode().IsRegular() && info.Size() == int64(len(e.data)) {
		if cur, err := os.ReadFile(p); err == nil && bytes.Equal(cur, e.data) {
			if info.Mode().Perm() != e.mode.Perm() {
				if err := os.Chmod(p, e.mode.Perm()); err != nil {
					return err
				}
			}
			return os.Chtimes(p, e.mtime, e.mtime)
		}
	}
	if exists && info.Mode().Perm()&0o200 == 0 {
		_ = os.Chmod(p, 0o600)
	}
	if err := os.WriteFile(p, e.data, e.mode.Perm()|0o200); err != nil {
		return err
	}
	if err := os.Chmod(p, e.mode.Perm()); err != nil {
		return err
	}
	return os.Chtimes(p, e.mtime, e.mtime)
}

// lutimes sets a symbolic link's own times.
func lutimes(p string, t time.Time) error {
	ts := unix.NsecToTimespec(t.UnixNano())
	return unix.UtimesNanoAt(unix.AT_FDCWD, p, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
}

// checkpoints keeps the snapshots of recent runs for Rollback.
type checkpoints struct {
	mu    sync.Mutex
	keep  int
	order []string
	byID  map[string]*snapshot
}

func newCheckpoints(keep int) *checkpoints {
	return &checkpoints{keep: keep, byID: map[string]*snapshot{}}
}

func (c *checkpoints) add(s *snapshot) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byID[id] = s
	c.order = append(c.order, id)
	for len(c.order) > c.keep {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	return id
}

func (c *checkpoints) take(id string) (*snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.byID[id]
	delete(c.byID, id)
	c.order = slices.DeleteFunc(c.order, func(x string) bool { return x == id })
	return s, ok
}

// ErrNoCheckpoint is returned by Rollback for an id it does not hold.
var ErrNoCheckpoint = errors.New("shell: no such checkpoint")

// Rollback undoes the file changes of the run that took checkpoint id
// (Envelope.Checkpoint), putting the snapshotted paths back as they were
// before it — and so also undoing later changes to the same paths. A
// checkpoint is used once; only the last Transaction.Keep are held.
func (e *Executor) Rollback(id string) error {
	if e.ckpts == nil {
		return fmt.Errorf("%w %q: transactional mode is off", ErrNoCheckpoint, id)
	}
	s, ok := e.ckpts.take(id)
	if !ok {
		return fmt.Errorf("%w %q", ErrNoCheckpoint, id)
	}
	e.txMu.Lock()
	defer e.txMu.Unlock()
	return s.restore()
}
