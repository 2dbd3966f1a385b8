package sqlitestore_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/sqlitestore"
)

// TestMain doubles as the child process of TestKill9: with
// AUDIT_CHILD_DB set it records one decision, says so, and waits to be
// killed.
func TestMain(m *testing.M) {
	if db := os.Getenv("AUDIT_CHILD_DB"); db != "" {
		s := sqlitestore.Open(db, sqlitestore.Options{Inbox: os.Getenv("AUDIT_CHILD_INBOX")})
		r := audit.Record{ID: "before-kill", At: time.Now(), Driver: "test", Tool: "Bash", Session: "k"}
		if err := s.Record(context.Background(), r); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("written")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKill9: a record whose write returned is readable after its writer
// is killed with SIGKILL, written directly to SQLite or through the
// inbox.
func TestKill9(t *testing.T) {
	for _, inbox := range []bool{false, true} {
		t.Run(fmt.Sprintf("inbox=%v", inbox), func(t *testing.T) {
			dir := t.TempDir()
			db, in := filepath.Join(dir, "audit.db"), ""
			if inbox {
				in = filepath.Join(dir, "audit.jsonl")
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "AUDIT_CHILD_DB="+db, "AUDIT_CHILD_INBOX="+in)
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if line != "written\n" {
				cmd.Process.Kill()
				t.Fatalf("child said %q", line)
			}
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			cmd.Wait()
			s := sqlitestore.Open(db, sqlitestore.Options{Inbox: in})
			defer s.Close()
			if r, err := s.Get(context.Background(), "before-kill"); err != nil || r.Session != "k" {
				t.Fatalf("after kill -9: %+v, %v", r, err)
			}
		})
	}
}
