package approvaltest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
)

//go:embed testdata/approvals.txt
var scripts string

// Open returns a new, empty store with opts (opts.Now is the suite's
// clock); the suite closes nothing, so a store that needs closing is
// closed by Open's t.Cleanup.
type Open func(t *testing.T, opts approval.Options) approval.Keeper

// epoch is the suite's start time.
var epoch = time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)

// Clock is a settable time for stores under test: Now is
// approval.Options.Now, Add moves it on. Safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Run runs the whole suite against the stores open returns, each case
// on a store of its own.
func Run(t *testing.T, open Open) {
	t.Run("scripts", func(t *testing.T) { runScripts(t, open) })
	t.Run("note names the grant", func(t *testing.T) { checkNote(t, open) })
	t.Run("grants newest first", func(t *testing.T) { checkGrants(t, open) })
	t.Run("bytes kept", func(t *testing.T) { checkBytes(t, open) })
}

// step is one line of a script.
type step struct {
	line int
	text string
}

// parse splits the scripts into named cases.
func parse() ([]string, map[string][]step) {
	var names []string
	cases := map[string][]step{}
	for i, l := range strings.Split(scripts, "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if n, ok := strings.CutPrefix(l, "case "); ok {
			names = append(names, n)
			continue
		}
		cases[names[len(names)-1]] = append(cases[names[len(names)-1]], step{i + 1, l})
	}
	return names, cases
}

func runScripts(t *testing.T, open Open) {
	names, cases := parse()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			clk := NewClock(epoch)
			opts := approval.Options{Now: clk.Now}
			var s approval.Keeper
			ctx := context.Background()
			for _, st := range cases[name] {
				lhs, want, _ := strings.Cut(st.text, "=>")
				want = strings.TrimSpace(want)
				head, body, _ := strings.Cut(lhs, " -- ")
				f := strings.Fields(head)
				if f[0] == "options" {
					d, err := time.ParseDuration(strings.TrimPrefix(f[1], "ttl="))
					if err != nil {
						t.Fatalf("line %d: %v", st.line, err)
					}
					opts.TTL = d
					continue
				}
				if s == nil {
					s = open(t, opts)
				}
				var got string
				var err error
				switch f[0] {
				case "ask", "deny", "allow":
					call := toolwall.NewBashCall(strings.TrimSpace(body))
					human := true
					for _, kv := range f[5:] {
						k, v, _ := strings.Cut(kv, "=")
						switch k {
						case "mode":
							human = v == "human"
						case "caller":
							call.Caller = v
						case "tool":
							call.Tool, call.Input = v, json.RawMessage(strings.TrimSpace(body))
						default:
							t.Fatalf("line %d: unknown %s", st.line, kv)
						}
					}
					call.Session, call.Cwd, call.ID = f[2], f[3], f[4]
					act, _ := toolwall.ParseAction(f[0])
					var v toolwall.Verdict
					v, err = s.Check(ctx, f[1], call, toolwall.Verdict{Action: act}, human)
					got = v.Action.String()
				case "ran":
					var ok bool
					ok, err = s.Confirm(ctx, f[1], f[2], "test")
					got = map[bool]string{true: "granted", false: "none"}[ok]
				case "approve":
					_, err = s.Approve(ctx, f[1], "test")
					got = "ok"
				case "pending":
					var e approval.Entry
					e, err = s.Pending(ctx, f[1])
					got = e.Session + " " + e.Summary
				case "clock":
					d, perr := time.ParseDuration(f[1])
					if perr != nil {
						t.Fatalf("line %d: %v", st.line, perr)
					}
					clk.Add(d)
					got = "ok"
				case "prune":
					var n int
					n, err = s.Prune(ctx)
					got = strconv.Itoa(n)
				default:
					t.Fatalf("line %d: unknown step", st.line)
				}
				if errors.Is(err, approval.ErrNotPending) {
					got, err = "err:notpending", nil
				}
				if err != nil {
					t.Fatalf("line %d: %v", st.line, err)
				}
				if got != want {
					t.Errorf("line %d: %s => %s, want %s", st.line, lhs, got, want)
				}
			}
		})
	}
}

// checkNote: an approved call's verdict says who approved it and until
// when, and keeps its findings for the audit; Grants lists the grant
// with the call's summary.
func checkNote(t *testing.T, open Open) {
	clk := NewClock(epoch)
	s := open(t, approval.Options{TTL: time.Hour, Now: clk.Now})
	call := toolwall.NewBashCall("git push --force")
	call.Session, call.ID, call.Cwd = "s", "t1", "/w"
	v := toolwall.Verdict{Action: toolwall.Ask, Findings: []toolwall.Finding{{Rule: "git.force-push", Action: toolwall.Ask}}}
	ctx := context.Background()
	if _, err := s.Check(ctx, "dec1", call, v, true); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Minute)
	if ok, err := s.Confirm(ctx, "s", "t1", "claude-code PostToolUse"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	call.ID = "t2"
	got, err := s.Check(ctx, "dec2", call, v, true)
	want := "approved: the user allowed this same call (decision dec1, claude-code PostToolUse at 2026-05-01T00:01:00Z), until 2026-05-01T01:01:00Z"
	if err != nil || got.Action != toolwall.Allow || len(got.Findings) != 1 || len(got.Notes) != 1 || got.Notes[0] != want {
		t.Errorf("verdict %+v, %v; want the note %q", got, err, want)
	}
	gs, err := s.Grants(ctx)
	if err != nil || len(gs) != 1 || gs[0].Summary != "git push --force" || gs[0].Decision != "dec1" || gs[0].Type != approval.TypeGrant ||
		!gs[0].Expires.Equal(epoch.Add(61*time.Minute)) || gs[0].By != "claude-code PostToolUse" {
		t.Errorf("grants %+v, %v", gs, err)
	}
}

// checkGrants: Grants lists live grants only, newest first.
func checkGrants(t *testing.T, open Open) {
	clk := NewClock(epoch)
	s := open(t, approval.Options{TTL: 75 * time.Minute, Now: clk.Now})
	ctx := context.Background()
	for i, cmd := range []string{"terraform destroy", "git reset --hard", "rm -rf build"} {
		call := toolwall.NewBashCall(cmd)
		call.Session, call.Cwd = "s", "/w"
		id := "d" + strconv.Itoa(i)
		if _, err := s.Check(ctx, id, call, toolwall.Verdict{Action: toolwall.Ask}, false); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Approve(ctx, id, "test"); err != nil {
			t.Fatal(err)
		}
		clk.Add(30 * time.Minute)
	}
	// Now epoch+90m: the first grant (until epoch+75m) has expired.
	gs, err := s.Grants(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range gs {
		got = append(got, g.Summary)
	}
	if strings.Join(got, "|") != "rm -rf build|git reset --hard" {
		t.Errorf("grants %q, want the two live ones, newest first", got)
	}
}

// checkBytes: the session, directory, caller and summary come back as
// the host sent them, NUL and non-ASCII included (what a JSON string can
// carry; a host's JSON never holds invalid UTF-8).
func checkBytes(t *testing.T, open Open) {
	s := open(t, approval.Options{Now: (NewClock(epoch)).Now})
	ctx := context.Background()
	call := toolwall.NewBashCall("rm -rf 'caf\u00e9\x00'")
	call.Session, call.Cwd, call.Caller, call.ID = "tenant/s\x00\u00ff", "/w/\u00e9", "sub\x00agent", "id\u2028"
	if _, err := s.Check(ctx, "d1", call, toolwall.Verdict{Action: toolwall.Ask}, true); err != nil {
		t.Fatal(err)
	}
	p, err := s.Pending(ctx, "d1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Session != call.Session || p.Summary != "rm -rf 'caf\u00e9\x00'" || p.Cwd != call.Cwd || p.Caller != call.Caller || p.CallID != call.ID || p.Tool != "Bash" ||
		!p.Confirmable || p.Key != approval.Key(call) || !p.At.Equal(epoch) {
		t.Errorf("pending %+v", p)
	}
	if ok, err := s.Confirm(ctx, call.Session, call.ID, "test"); !ok || err != nil {
		t.Fatalf("confirm: %v %v", ok, err)
	}
	call.ID = "other"
	if v, err := s.Check(ctx, "d2", call, toolwall.Verdict{Action: toolwall.Ask}, true); err != nil || v.Action != toolwall.Allow {
		t.Errorf("the same call again: %v %v", v.Action, err)
	}
}
