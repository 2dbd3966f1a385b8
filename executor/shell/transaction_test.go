package shell_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor/shell"
)

// state is a tree as bytes, modes, link targets and modification times.
type state map[string]string

func snapshotTree(t *testing.T, roots ...string) state {
	t.Helper()
	s := state{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			v := info.Mode().String() + " " + info.ModTime().UTC().Format(time.RFC3339Nano)
			switch {
			case info.Mode()&fs.ModeSymlink != 0:
				l, _ := os.Readlink(p)
				v += " -> " + l
			case info.Mode().IsRegular():
				b, err := os.ReadFile(p)
				if err != nil {
					os.Chmod(p, 0o600)
					b, _ = os.ReadFile(p)
					os.Chmod(p, info.Mode().Perm())
				}
				v += " " + string(b)
			}
			s[p] = v
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func diff(a, b state) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if b[k] != a[k] {
			out = append(out, k+": "+a[k]+" → "+b[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			out = append(out, k+": new "+b[k])
		}
	}
	return out
}

// populate lays out a small project and a file outside it.
func populate(t *testing.T, project, outside string) {
	t.Helper()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	files := map[string]string{"a.txt": "alpha\n", "c.txt": "gamma\n", "dir/one": "1", "dir/sub/two": "22", "bin.dat": "\x00\x01\xfe\xff"}
	for name, body := range files {
		p := filepath.Join(project, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	os.Symlink("a.txt", filepath.Join(project, "link"))
	os.Symlink(outside, filepath.Join(project, "out-link"))
	filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if d.Type()&fs.ModeSymlink == 0 {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	os.Chtimes(outside, old, old)
}

type txCase struct {
	Name     string `json:"name"`
	Command  string `json:"command"`
	MaxBytes int64  `json:"max_bytes"`
	MaxFiles int    `json:"max_files"`
	Want     string `json:"want"`
}

// TestTransaction: a failing command's file changes are rolled back byte
// for byte (contents, modes, times, links, deleted files and trees); a
// snapshot over its bound refuses the command before it runs.
func TestTransaction(t *testing.T) {
	data, err := os.ReadFile("testdata/transaction.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []txCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			fx := newFixture(t)
			outside := filepath.Join(filepath.Dir(fx.project), "outside.txt")
			populate(t, fx.project, outside)
			before := snapshotTree(t, fx.project, outside)
			opts := fx.options(toolwall.UserContext, "")
			opts.Transaction = &shell.Transaction{MaxBytes: tc.MaxBytes, MaxFiles: tc.MaxFiles}
			e := shell.New(opts)
			req := bash(tc.Command)
			req.Approved = true // the gate's asks are not what this test is about
			out, err := e.Execute(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			after := snapshotTree(t, fx.project, outside)
			switch tc.Want {
			case "rolled_back":
				if out.Process.ExitCode == 0 || !out.Process.RolledBack {
					t.Fatalf("not rolled back: %+v", out.Process)
				}
				if d := diff(before, after); len(d) > 0 {
					t.Errorf("tree differs after rollback:\n%s", strings.Join(d, "\n"))
				}
			case "refused":
				if out.Process.ExitCode != shell.ExitRefused || !strings.Contains(out.Text, "executor.snapshot") {
					t.Fatalf("not refused: %+v", out)
				}
				if d := diff(before, after); len(d) > 0 {
					t.Errorf("a refused command changed the tree:\n%s", strings.Join(d, "\n"))
				}
			case "kept":
				if out.Process.ExitCode != 0 || out.Process.RolledBack || len(diff(before, after)) == 0 {
					t.Fatalf("changes not kept: %+v", out.Process)
				}
				if err := e.Rollback(out.Process.Checkpoint); err != nil {
					t.Fatal(err)
				}
				if d := diff(before, snapshotTree(t, fx.project, outside)); len(d) > 0 {
					t.Errorf("tree differs after Rollback:\n%s", strings.Join(d, "\n"))
				}
				if err := e.Rollback(out.Process.Checkpoint); err == nil {
					t.Error("a checkpoint was used twice")
				}
			}
		})
	}
}

func FuzzTransactionTargets(f *testing.F) {
	f.Add("rm a b; echo x > c")
	f.Add("cp -r src dst && sed -i s/a/b/ f")
	f.Add("dd if=/dev/zero of=out bs=1 count=1")
	f.Fuzz(func(t *testing.T, command string) {
		paths, whole := shell.Plan(command, "/work/p", "/home/u")
		for _, p := range paths {
			if !filepath.IsAbs(p) || whole {
				t.Fatalf("Plan(%q) = %q, whole=%v", command, paths, whole)
			}
		}
	})
}
