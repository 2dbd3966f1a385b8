package shell

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshot records every entry under dir with its size, mode and time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = info.Mode().String() + " " + info.ModTime().Format(time.RFC3339Nano) + " " + string(rune(info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSealed reads scripts that try to start processes or change files
// (testdata/sealed.txt) and proves that analysis did neither: no file in
// the scratch directory is created, changed or deleted, and none of the
// marker programs on the PATH ran.
func TestSealed(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	work := filepath.Join(dir, "work")
	for _, d := range []string{bin, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "kept"), []byte("marker1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(dir, "ran")
	for _, name := range []string{"marker1", "marker2", "touch", "rm", "mkdir", "tee", "cat", "mktemp", "ln", "cp", "mkfifo", "bash", "printf"} {
		script := "#!/bin/sh\necho " + name + " >> " + ran + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	before := snapshot(t, dir)
	f, err := os.Open("testdata/sealed.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		src := strings.ReplaceAll(line, "DIR", work)
		if _, err := Read(src, Options{Cwd: work, Home: dir}); err != nil {
			t.Logf("%s: %v", src, err)
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d scripts", n)
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Errorf("analysis started programs: %q", b)
	}
	after := snapshot(t, dir)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed or was deleted", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created", p)
		}
	}
}
