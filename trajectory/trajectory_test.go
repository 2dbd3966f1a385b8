package trajectory_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/trajectory"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// scriptCase is one case of testdata/levels.txt.
type scriptCase struct {
	name    string
	options []string
	lines   []scriptLine
}

type scriptLine struct {
	n          int
	args, want []string
}

func readScripts(t *testing.T) []*scriptCase {
	t.Helper()
	data, err := os.ReadFile("testdata/levels.txt")
	if err != nil {
		t.Fatal(err)
	}
	var cases []*scriptCase
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words := strings.Fields(line)
		switch {
		case words[0] == "case":
			cases = append(cases, &scriptCase{name: strings.Join(words[1:], " ")})
			continue
		case len(cases) == 0:
			t.Fatalf("levels.txt:%d: operation before the first case", i+1)
		}
		c := cases[len(cases)-1]
		if words[0] == "options" {
			c.options = words[1:]
			continue
		}
		l := scriptLine{n: i + 1, args: words}
		if at := slices.Index(words, "=>"); at >= 0 {
			l.args, l.want = words[:at], words[at+1:]
		}
		c.lines = append(c.lines, l)
	}
	return cases
}

// verdict builds the gate's verdict from ACTION:RULE[:CATEGORY] words.
func verdict(t *testing.T, words []string) toolwall.Verdict {
	var v toolwall.Verdict
	for _, w := range words {
		parts := strings.Split(w, ":")
		a, err := toolwall.ParseAction(parts[0])
		if err != nil || len(parts) < 2 {
			t.Fatalf("bad finding %q", w)
		}
		f := toolwall.Finding{Action: a, Rule: parts[1], Score: 0.5, Reason: "because " + parts[1]}
		if len(parts) > 2 {
			f.Category = parts[2]
		}
		v.Findings = append(v.Findings, f)
		v.Action = toolwall.Stricter(v.Action, a)
	}
	return v
}

// TestScripts runs testdata/levels.txt on a memory store and on a SQLite
// state file.
func TestScripts(t *testing.T) {
	stores := map[string]func(t *testing.T) session.Store{
		"memory": func(*testing.T) session.Store { return session.NewMemory(session.Options{}) },
		"sqlite": func(t *testing.T) session.Store {
			st, err := session.Open(filepath.Join(t.TempDir(), "state.db"), session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
	for name, open := range stores {
		for _, c := range readScripts(t) {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				st := open(t)
				defer st.Close()
				opts := trajectory.Options{Store: st, Logger: quiet}
				for _, o := range c.options {
					k, v, _ := strings.Cut(o, "=")
					switch k {
					case "decay":
						opts.Decay, _ = strconv.Atoi(v)
					case "readonly":
						opts.ReadOnly = strings.Split(v, ",")
					default:
						t.Fatalf("unknown option %q", o)
					}
				}
				tr, err := trajectory.New(opts)
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				const id = "sess"
				for _, l := range c.lines {
					var got []string
					switch l.args[0] {
					case "apply":
						call := toolwall.Call{Tool: l.args[1], Session: id}
						v := tr.Apply(ctx, call, verdict(t, l.args[2:]))
						got = []string{v.Action.String()}
						if r := v.Rules(); len(r) > 0 {
							got = append(got, r[0])
						}
						if v.Action == toolwall.Deny && v.Rules()[0] == trajectory.RuleCritical && !strings.Contains(v.Reason, "level 3 (critical)") {
							t.Errorf("line %d: reason does not name the level: %s", l.n, v.Reason)
						}
					case "raise":
						p, _ := strconv.Atoi(l.args[1])
						got = []string{"ok"}
						if err := tr.Raise(ctx, id, p, "", strings.Join(l.args[2:], " ")); err != nil {
							got = []string{err.Error()}
						}
					case "set":
						lv, err := trajectory.ParseLevel(l.args[1])
						if err != nil {
							t.Fatal(err)
						}
						got = []string{"ok"}
						if err := tr.Set(ctx, id, lv, strings.Join(l.args[2:], " ")); err != nil {
							got = []string{err.Error()}
						}
					case "advance":
						if _, err := st.AdvanceTurn(ctx, id); err != nil {
							t.Fatal(err)
						}
						continue
					case "level", "causes":
						s, err := tr.State(ctx, id)
						if err != nil {
							t.Fatal(err)
						}
						n := int(s.Level)
						if l.args[0] == "causes" {
							n = len(s.Causes)
						}
						got = []string{strconv.Itoa(n)}
					default:
						t.Fatalf("line %d: unknown operation %q", l.n, l.args[0])
					}
					if !slices.Equal(got, l.want) {
						t.Errorf("line %d: %s: got %q, want %q", l.n, strings.Join(l.args, " "), got, l.want)
					}
				}
			})
		}
	}
}

// TestReasonNamesCauses: the deny of a critical session names the level
// and every rule that raised it, with its turn and caller; the note says
// the same on a call that still runs.
func TestReasonNamesCauses(t *testing.T) {
	st := session.NewMemory(session.Options{})
	tr, _ := trajectory.New(trajectory.Options{Store: st, Logger: quiet})
	ctx := context.Background()
	call := toolwall.Call{Tool: toolwall.ToolBash, Session: "s", Caller: "researcher"}
	st.AdvanceTurn(ctx, "s")
	tr.Apply(ctx, call, toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "rm.root", Action: toolwall.Deny}}})
	tr.Apply(ctx, call, toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "chain.secret-egress", Action: toolwall.Deny}}})
	v := tr.Apply(ctx, toolwall.Call{Tool: toolwall.ToolWrite, Session: "s"}, toolwall.Verdict{})
	for _, want := range []string{"level 3 (critical)", "refused (rm.root) in turn 1 by researcher", "a chain across calls (chain.secret-egress) in turn 1 by researcher", "read-only tools still work"} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason lacks %q: %s", want, v.Reason)
		}
	}
	if v.Band != toolwall.Critical || v.Score < 0.9 || len(v.Findings) != 1 || v.Findings[0].Analyzer != "trajectory" {
		t.Errorf("verdict = %+v", v)
	}
	read := tr.Apply(ctx, toolwall.Call{Tool: toolwall.ToolRead, Session: "s"}, toolwall.Verdict{})
	if read.Action != toolwall.Allow || len(read.Notes) != 0 {
		t.Errorf("a read at critical: %+v (a read-only call reads no level)", read)
	}
	st.AdvanceTurn(ctx, "s")
	w := tr.Apply(ctx, toolwall.Call{Tool: toolwall.ToolWrite, Session: "s"}, toolwall.Verdict{})
	if w.Action != toolwall.Allow || len(w.Notes) != 1 || !strings.HasPrefix(w.Notes[0], "trajectory risk 2 (high): ") {
		t.Errorf("a write at high: %+v", w)
	}
}

// TestNoSession: a call without a session is neither raised nor judged.
func TestNoSession(t *testing.T) {
	st := session.NewMemory(session.Options{})
	tr, _ := trajectory.New(trajectory.Options{Store: st, Logger: quiet})
	deny := toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: "rm.root", Action: toolwall.Deny}}}
	if v := tr.Apply(context.Background(), toolwall.Call{Tool: "Bash"}, deny); v.Action != toolwall.Deny || len(v.Findings) != 1 {
		t.Errorf("Apply = %+v", v)
	}
}

// TestStoreFailure: when the store fails, a call runs as the gate decided,
// with a note saying the risk is unknown.
func TestStoreFailure(t *testing.T) {
	st := session.NewMemory(session.Options{})
	tr, _ := trajectory.New(trajectory.Options{Store: st, Logger: quiet})
	st.Close()
	v := tr.Apply(context.Background(), toolwall.Call{Tool: "Write", Session: "s"}, toolwall.Verdict{})
	if v.Action != toolwall.Allow || len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], "trajectory risk unknown: ") {
		t.Errorf("Apply with a closed store = %+v", v)
	}
}

// TestNew checks the options New refuses.
func TestNew(t *testing.T) {
	if _, err := trajectory.New(trajectory.Options{}); err == nil {
		t.Error("New without a store succeeded")
	}
	for _, d := range []int{-1, 4} {
		if _, err := trajectory.New(trajectory.Options{Store: session.NewMemory(session.Options{}), Decay: d}); err == nil {
			t.Errorf("New with decay %d succeeded", d)
		}
	}
	tr, _ := trajectory.New(trajectory.Options{Store: session.NewMemory(session.Options{})})
	if err := tr.Raise(context.Background(), "s", 0, "", "x"); err == nil {
		t.Error("Raise by 0 succeeded")
	}
	if err := tr.Set(context.Background(), "s", 4, "x"); err == nil {
		t.Error("Set 4 succeeded")
	}
}

// TestParseLevel reads numbers and names.
func TestParseLevel(t *testing.T) {
	for in, want := range map[string]trajectory.Level{"0": trajectory.Calm, "calm": trajectory.Calm, "2": trajectory.High, " Critical ": trajectory.Critical, "3": trajectory.Critical} {
		if got, err := trajectory.ParseLevel(in); err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"4", "-1", "", "hot"} {
		if _, err := trajectory.ParseLevel(in); err == nil {
			t.Errorf("ParseLevel(%q) succeeded", in)
		}
	}
}

// FuzzCompute reads arbitrary logs, as a tampered store could hold: no
// panic, the level within 0 to 3, no causes at calm.
func FuzzCompute(f *testing.F) {
	f.Add(0, 1, 0, false, 1, 0, true, 3, 1)
	f.Add(5, 3, 1, false, -7, 9, false, 100, 3)
	f.Add(-1, -5, -2, true, 200, -3, true, -9, 0)
	f.Fuzz(func(t *testing.T, turn, t1, p1 int, s1 bool, t2, p2 int, s2 bool, p3, decay int) {
		log := session.RiskLog{Turn: turn, Events: []session.RiskEvent{{Turn: t1, Points: p1, Set: s1}, {Turn: t2, Points: p2, Set: s2}, {Turn: turn, Points: p3}}}
		for _, d := range []int{decay, 1, 3} {
			st := trajectory.Compute(log, max(0, min(d, 3)))
			if st.Level > trajectory.Critical {
				t.Fatalf("level %d", st.Level)
			}
			if st.Level == trajectory.Calm && len(st.Causes) > 0 {
				t.Fatalf("calm with causes %v", st.Causes)
			}
		}
	})
}

// TestComputeExtremeTurns: turns at the ends of int (a tampered store)
// do not overflow the decay into a rise.
func TestComputeExtremeTurns(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	log := session.RiskLog{Turn: maxInt, Events: []session.RiskEvent{{Turn: -maxInt - 1, Points: 3}}}
	if st := trajectory.Compute(log, 1); st.Level != trajectory.Calm {
		t.Errorf("Compute = %+v, want calm", st)
	}
}

// TestReasonBounded: however long what raised a session is, the reason
// names at most five causes of at most 200 bytes each.
func TestReasonBounded(t *testing.T) {
	st := session.NewMemory(session.Options{})
	tr, _ := trajectory.New(trajectory.Options{Store: st, Logger: quiet})
	ctx := context.Background()
	for range 10 {
		tr.Raise(ctx, "s", 1, strings.Repeat("é", 400), strings.Repeat("ü", 900))
	}
	v := tr.Apply(ctx, toolwall.Call{Tool: "Write", Session: "s"}, toolwall.Verdict{})
	if v.Action != toolwall.Deny || len(v.Reason) > 5*(200+len(strings.Repeat("é", 400))+40)+600 || !strings.Contains(v.Reason, "5 earlier events") {
		t.Errorf("reason of %d bytes: %.300s", len(v.Reason), v.Reason)
	}
}
