//go:build unix

package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/policy"
)

// TestProjectFileKinds plays testdata/projectfiles.txt: the project layer
// is read only from a regular file of bounded size that is not a link.
func TestProjectFileKinds(t *testing.T) {
	const secret = "AKIAIOSFODNN7EXAMPLE"
	for _, r := range rows.Read(t, "testdata/projectfiles.txt", 0) {
		kind, want := r.Fields[0], strings.Join(r.Fields[1:], "\t")
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, policy.ProjectFile)
			valid := "[thresholds]\nblock = 0.5\n"
			secretFile := filepath.Join(t.TempDir(), "credentials")
			os.WriteFile(secretFile, []byte("aws_secret_access_key = "+secret+"\n[x\n"), 0o600)
			other := filepath.Join(t.TempDir(), "valid.toml")
			os.WriteFile(other, []byte(valid), 0o600)
			var err error
			switch kind {
			case "regular":
				err = os.WriteFile(file, []byte(valid), 0o600)
			case "absent":
			case "symlink to /dev/zero":
				err = os.Symlink("/dev/zero", file)
			case "symlink to a secret":
				err = os.Symlink(secretFile, file)
			case "symlink to a valid file":
				err = os.Symlink(other, file)
			case "fifo":
				err = syscall.Mkfifo(file, 0o600)
			case "directory":
				err = os.Mkdir(file, 0o700)
			case "2 MiB":
				err = os.WriteFile(file, []byte("# "+strings.Repeat("x", 2<<20)+"\n"), 0o600)
			default:
				t.Fatalf("unknown kind %q", kind)
			}
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := policy.New(nil).For(dir)
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("reading the project file did not return")
			}
			switch {
			case want == "ok" && err != nil:
				t.Errorf("error %v, want none", err)
			case want != "ok" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("error %v, want one saying %q", err, want)
			case err != nil && strings.Contains(err.Error(), "AKIA"):
				t.Errorf("the error shows the file a link points to: %v", err)
			}
		})
	}
}
