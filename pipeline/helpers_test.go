package pipeline

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/internal/rows"
)

// readLines returns the non-comment lines of a testdata file with their
// line numbers, split on tabs.
func readLines(t testing.TB, name string) (lines [][]string, nums []int) {
	t.Helper()
	for _, r := range rows.Read(t, "testdata/"+name, 0) {
		lines = append(lines, r.Fields)
		nums = append(nums, r.Line)
	}
	return lines, nums
}

// clock is a fake clock safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// spy is a toolwall.Shield for tests: decide picks the verdict; every
// evaluation and record is kept.
type spy struct {
	watched []string
	decide  func(toolwall.Call) toolwall.Verdict

	mu        sync.Mutex
	evaluated []toolwall.Call
	recorded  []recorded
}

type recorded struct {
	call    toolwall.Call
	success bool
}

func (s *spy) Evaluate(_ context.Context, c toolwall.Call) toolwall.Verdict {
	s.mu.Lock()
	s.evaluated = append(s.evaluated, c)
	s.mu.Unlock()
	if s.decide == nil {
		return toolwall.Verdict{}
	}
	return s.decide(c)
}

func (s *spy) RecordInvocation(_ context.Context, c toolwall.Call, success bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recorded = append(s.recorded, recorded{c, success})
}

func (s *spy) WatchedTools() []string { return s.watched }

func (s *spy) counts() (evaluated, recorded int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.evaluated), len(s.recorded)
}

// echo is a core tool that returns the command, counting its runs.
type echo struct {
	mu   sync.Mutex
	runs int
	fail bool
}

func (e *echo) Execute(_ context.Context, req *Request) (*Result, error) {
	e.mu.Lock()
	e.runs++
	e.mu.Unlock()
	cmd, _ := req.Call.Field("command")
	return &Result{Output: req.Call.Tool + ":" + cmd, IsError: e.fail}, nil
}

func (e *echo) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runs
}

func bash(cmd string, turn int) *Request {
	c := toolwall.NewBashCall(cmd)
	c.Turn = turn
	return &Request{Call: c}
}
