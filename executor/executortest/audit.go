package executortest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/toolwall/toolwall/audit"
)

// JSONL is an audit.Sink that appends one JSON line per record or
// outcome to a file and syncs it before returning, so a record is on disk
// — readable by another process — once Record returns nil.
type JSONL struct {
	Path string
	mu   sync.Mutex
}

// Line is one line of a JSONL audit file: a Record, or an Outcome with
// the id it belongs to.
type Line struct {
	Record  *audit.Record  `json:"record,omitempty"`
	ID      string         `json:"id,omitempty"`
	Outcome *audit.Outcome `json:"outcome,omitempty"`
}

// Record appends r.
func (j *JSONL) Record(_ context.Context, r audit.Record) error { return j.append(Line{Record: &r}) }

// Outcome appends o for id.
func (j *JSONL) Outcome(_ context.Context, id string, o audit.Outcome) error {
	return j.append(Line{ID: id, Outcome: &o})
}

func (j *JSONL) append(l Line) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := os.OpenFile(j.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	return f.Close()
}

// Lines reads the file back.
func (j *JSONL) Lines(t testing.TB) []Line {
	t.Helper()
	f, err := os.Open(j.Path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Line
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// Find returns the record with id and its outcome (nil when none).
func (j *JSONL) Find(t testing.TB, id string) (*audit.Record, *audit.Outcome) {
	t.Helper()
	var r *audit.Record
	var o *audit.Outcome
	for _, l := range j.Lines(t) {
		if l.Record != nil && l.Record.ID == id {
			r = l.Record
		}
		if l.ID == id && l.Outcome != nil {
			o = l.Outcome
		}
	}
	return r, o
}
