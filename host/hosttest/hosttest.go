package hosttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/view"
)

// Stub is a Shield that decides on a marker anywhere in a call's input
// (STUB-DENY, STUB-ASK, STUB-WARN; allow otherwise), panics when Panic is
// set, and logs what the hook asked of it.
type Stub struct {
	// Decide, when set, overrides the markers with one action for every
	// call.
	Decide toolwall.Action
	// Panic makes Evaluate panic.
	Panic bool
	mu    sync.Mutex
	Log   []string
}

func (s *Stub) log(f string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Log = append(s.Log, fmt.Sprintf(f, a...))
}

// Evaluate decides on c; see Stub.
func (s *Stub) Evaluate(_ context.Context, c toolwall.Call) toolwall.Verdict {
	if s.Panic {
		panic("boom")
	}
	var in bytes.Buffer
	if json.Compact(&in, c.Input) != nil {
		in.Write(c.Input)
	}
	s.log("evaluate %s %s %s %s %s", c.Tool, orDash(c.Session), orDash(c.Cwd), orDash(c.Project), in.String())
	act := s.Decide
	switch {
	case act != toolwall.Allow:
	case strings.Contains(in.String(), "STUB-DENY"):
		act = toolwall.Deny
	case strings.Contains(in.String(), "STUB-ASK"):
		act = toolwall.Ask
	case strings.Contains(in.String(), "STUB-WARN"):
		act = toolwall.Warn
	}
	switch act {
	case toolwall.Deny:
		return toolwall.Verdict{Action: toolwall.Deny, Reason: "stub says no.", Findings: []toolwall.Finding{{Rule: "stub.deny", Action: toolwall.Deny}}}
	case toolwall.Ask:
		return toolwall.Verdict{Action: toolwall.Ask, Reason: "stub wants a human.", Findings: []toolwall.Finding{{Rule: "stub.ask", Action: toolwall.Ask}}}
	case toolwall.Warn:
		return toolwall.Verdict{Action: toolwall.Warn, Reason: "risky", Findings: []toolwall.Finding{{Rule: "stub.warn", Action: toolwall.Warn}}}
	}
	return toolwall.Verdict{}
}

// RecordInvocation logs the record.
func (s *Stub) RecordInvocation(_ context.Context, c toolwall.Call, ok bool) {
	s.log("record %s %s %s %v", c.Tool, orDash(c.Session), orDash(c.ID), ok)
}

// WatchedTools returns Bash and Write.
func (s *Stub) WatchedTools() []string { return []string{"Bash", "Write"} }

// AdvanceTurn logs the turn.
func (s *Stub) AdvanceTurn(_ context.Context, id string) (int, error) {
	s.log("turn %s", id)
	return 1, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Reading is what a host makes of an answer (see package view).
type Reading = view.Reading

// View reads an answer as a host does (see package view).
type View = view.View

// Golden is one case of testdata/golden.json.
type Golden struct {
	Name string `json:"name"`
	// Stdin is the payload as JSON; Raw, when set, is sent instead.
	Stdin json.RawMessage `json:"stdin"`
	Raw   string          `json:"raw,omitempty"`
	// Stdout is the expected output: a JSON object compared as JSON, a
	// JSON string compared exactly, or absent / null for no output.
	Stdout json.RawMessage `json:"stdout,omitempty"`
	// Stderr must be contained in the error output ("" checks nothing).
	Stderr string `json:"stderr,omitempty"`
	Exit   int    `json:"exit"`
	// Project is the hook's project directory (the host's ProjectEnv).
	Project string `json:"project,omitempty"`
	// Calls are what the shield was asked, in order (Stub's log).
	Calls []string `json:"calls"`
	// Host is what the host does with the answer: "allow", "ask", "deny"
	// for a PreToolUse event, "" for another event.
	Host string `json:"host"`
}

func (g Golden) payload() []byte {
	if g.Raw != "" {
		return []byte(g.Raw)
	}
	return g.Stdin
}

// pre reports whether the case is a PreToolUse decision.
func (g Golden) pre() bool { return g.Host != "" }

// LoadGoldens reads testdata/golden.json.
func LoadGoldens(t testing.TB) []Golden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gs []Golden
	if err := json.Unmarshal(b, &gs); err != nil {
		t.Fatalf("testdata/golden.json: %v", err)
	}
	return gs
}

// Hook returns the hook the suite drives: adapter a over shield s, home
// /home/user, no project directory.
func Hook(a host.Adapter, s *Stub) *host.Hook {
	return &host.Hook{Adapter: a, Shield: s, Turns: s, Home: "/home/user", Timeout: 2 * time.Second, Logger: slog.New(slog.DiscardHandler)}
}

// Handle runs one payload through h.
func Handle(h *host.Hook, payload []byte) (host.Response, toolwall.Verdict) {
	var out, errOut bytes.Buffer
	v, exit := h.Handle(context.Background(), bytes.NewReader(payload), &out, &errOut)
	return host.Response{Stdout: out.String(), Stderr: errOut.String(), Exit: exit}, v
}

// Malformed are payloads no host sends: each must be refused.
var Malformed = []string{"", "not json", "[1,2]", `{"x":`, "null", "{}", "\xef\xbb\xbf", `{"hook_event_name":7}`}

// Run is the conformance suite for adapter a with the host's view.
func Run(t *testing.T, a host.Adapter, view View) {
	goldens := LoadGoldens(t)
	names := map[string]bool{}
	for _, g := range goldens {
		names[g.Name] = true
	}
	for _, need := range []string{"pre-deny", "pre-allow", "unknown-tool"} {
		if !names[need] {
			t.Errorf("testdata/golden.json has no case %q", need)
		}
	}
	t.Run("golden", func(t *testing.T) {
		for _, g := range goldens {
			t.Run(g.Name, func(t *testing.T) { golden(t, a, view, g) })
		}
	})
	t.Run("malformed", func(t *testing.T) {
		for _, in := range Malformed {
			r, v := Handle(Hook(a, &Stub{}), []byte(in))
			assertRefused(t, view, r, fmt.Sprintf("payload %q", in), "cannot be read", "names no tool")
			if v.Action != toolwall.Deny || v.Rules()[0] != toolwall.RuleMalformed {
				t.Errorf("payload %q: verdict %v %v, want deny input.malformed", in, v.Action, v.Rules())
			}
		}
	})
	t.Run("trailing-data", func(t *testing.T) {
		// A valid payload followed by more data is not one payload: a
		// second object or text after it must not be ignored.
		for _, g := range goldens {
			if !g.pre() || len(g.Calls) == 0 {
				continue
			}
			for _, tail := range []string{" trailing", `{"x":1}`} {
				r, v := Handle(Hook(a, &Stub{}), append(g.payload(), tail...))
				assertRefused(t, view, r, g.Name+" followed by "+tail, "cannot be read")
				if v.Action != toolwall.Deny {
					t.Errorf("%s followed by %q: %v, want deny", g.Name, tail, v.Action)
				}
			}
			break
		}
	})
	t.Run("input-left-open", func(t *testing.T) {
		// A payload whose input never ends is refused within the
		// deadline, not waited for.
		h := Hook(a, &Stub{})
		h.Timeout = 50 * time.Millisecond
		pr, pw := io.Pipe()
		defer pw.Close()
		go pw.Write(goldens[0].payload()[:1])
		var out, errOut bytes.Buffer
		start := time.Now()
		v, exit := h.Handle(context.Background(), pr, &out, &errOut)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("answered after %v", d)
		}
		assertRefused(t, view, host.Response{Stdout: out.String(), Stderr: errOut.String(), Exit: exit}, "input left open", "did not arrive completely")
		if v.Action != toolwall.Deny {
			t.Errorf("input left open: %v, want deny", v.Action)
		}
	})
	t.Run("oversized", func(t *testing.T) {
		h := Hook(a, &Stub{})
		h.MaxPayload = 16
		r, _ := Handle(h, goldens[0].payload())
		assertRefused(t, view, r, "oversized payload", "larger than 16 bytes")
	})
	t.Run("crash", func(t *testing.T) {
		for _, g := range goldens {
			if !g.pre() || len(g.Calls) == 0 {
				continue
			}
			r, _ := Handle(Hook(a, &Stub{Panic: true}), g.payload())
			assertRefused(t, view, r, g.Name+" with a crashing gate", "internal error")
		}
	})
	t.Run("every-call-denied-and-asked", func(t *testing.T) {
		for _, g := range goldens {
			if !g.pre() || len(g.Calls) == 0 {
				continue
			}
			r, _ := Handle(Hook(a, &Stub{Decide: toolwall.Deny}), g.payload())
			assertRefused(t, view, r, g.Name+" denied", "stub says no.")
			r, _ = Handle(Hook(a, &Stub{Decide: toolwall.Ask}), g.payload())
			got := view(r, true)
			switch {
			case !got.Valid:
				t.Errorf("%s asked: host rejects the answer %+v", g.Name, r)
			case a.Caps().Ask && got.Action != toolwall.Ask:
				t.Errorf("%s asked: host does %v, want ask (%+v)", g.Name, got.Action, r)
			case !a.Caps().Ask && (got.Action != toolwall.Deny || !strings.Contains(got.Reason, "a human must run it")):
				t.Errorf("%s asked: host does %v with %q, want a deny saying a human must run it", g.Name, got.Action, got.Reason)
			}
		}
	})
	t.Run("timeout", func(t *testing.T) {
		h := Hook(a, &Stub{})
		h.Shield = &slow{}
		h.Timeout = 20 * time.Millisecond
		for _, g := range goldens {
			if g.Name == "pre-allow" {
				r, _ := Handle(h, g.payload())
				assertRefused(t, view, r, "slow gate", "within 20ms")
			}
		}
	})
}

type slow struct{ Stub }

// Evaluate waits for the deadline.
func (*slow) Evaluate(ctx context.Context, _ toolwall.Call) toolwall.Verdict {
	<-ctx.Done()
	time.Sleep(10 * time.Millisecond)
	return toolwall.Verdict{}
}

func assertRefused(t *testing.T, view View, r host.Response, what string, want ...string) {
	t.Helper()
	got := view(r, true)
	if !got.Valid || got.Action != toolwall.Deny {
		t.Errorf("%s: host reads %+v from %+v, want a valid deny", what, got, r)
		return
	}
	for _, w := range want {
		if strings.Contains(got.Reason, w) {
			return
		}
	}
	t.Errorf("%s: reason %q mentions none of %q", what, got.Reason, want)
}

func golden(t *testing.T, a host.Adapter, view View, g Golden) {
	s := &Stub{}
	h := Hook(a, s)
	h.ProjectDir = g.Project
	r, _ := Handle(h, g.payload())
	if err := sameOutput(r.Stdout, g.Stdout); err != nil {
		t.Errorf("stdout: %v", err)
	}
	if r.Exit != g.Exit {
		t.Errorf("exit = %d, want %d", r.Exit, g.Exit)
	}
	if !strings.Contains(r.Stderr, g.Stderr) {
		t.Errorf("stderr = %q, want it to contain %q", r.Stderr, g.Stderr)
	}
	if fmt.Sprint(s.Log) != fmt.Sprint(g.Calls) && !(len(s.Log) == 0 && len(g.Calls) == 0) {
		t.Errorf("shield calls:\n got %q\nwant %q", s.Log, g.Calls)
	}
	got := view(r, g.pre())
	if !got.Valid {
		t.Errorf("the host rejects this answer: %+v", r)
	}
	if g.pre() && got.Action.String() != g.Host {
		t.Errorf("host does %v, want %s", got.Action, g.Host)
	}
}

// sameOutput compares stdout with the golden expectation.
func sameOutput(got string, want json.RawMessage) error {
	w := strings.TrimSpace(string(want))
	if w == "" || w == "null" {
		if got != "" {
			return fmt.Errorf("got %q, want nothing", got)
		}
		return nil
	}
	if strings.HasPrefix(w, `"`) {
		var s string
		if err := json.Unmarshal(want, &s); err != nil {
			return err
		}
		if got != s {
			return fmt.Errorf("got %q, want %q", got, s)
		}
		return nil
	}
	var g, x any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return fmt.Errorf("%q is not JSON: %v", got, err)
	}
	_ = json.Unmarshal(want, &x)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(x)
	if !bytes.Equal(gb, wb) {
		return fmt.Errorf("\n got %s\nwant %s", gb, wb)
	}
	return nil
}

// Fuzz runs adapter a on arbitrary payloads seeded from the goldens: it
// never panics, answers the same twice, and the host always reads a
// valid answer.
func Fuzz(f *testing.F, a host.Adapter, view View) {
	for _, g := range LoadGoldens(f) {
		f.Add(string(g.payload()))
	}
	for _, m := range Malformed {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r1, v1 := Handle(Hook(a, &Stub{}), []byte(in))
		r2, v2 := Handle(Hook(a, &Stub{}), []byte(in))
		if r1 != r2 || v1.Action != v2.Action {
			t.Fatalf("not deterministic: %+v vs %+v", r1, r2)
		}
		if !view(r1, true).Valid && !view(r1, false).Valid {
			t.Fatalf("the host rejects the answer %+v to %q", r1, in)
		}
	})
}
