package approval

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
)

// TestScripts runs testdata/approvals.txt (format in its header).
func TestScripts(t *testing.T) {
	b, err := os.ReadFile("testdata/approvals.txt")
	if err != nil {
		t.Fatal(err)
	}
	type stepT struct {
		line int
		text string
	}
	var names []string
	cases := map[string][]stepT{}
	for i, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if n, ok := strings.CutPrefix(l, "case "); ok {
			names = append(names, n)
			continue
		}
		cases[names[len(names)-1]] = append(cases[names[len(names)-1]], stepT{i + 1, l})
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
			opts := Options{Now: func() time.Time { return now }}
			var s *Store
			ctx := context.Background()
			for _, st := range cases[name] {
				lhs, want, _ := strings.Cut(st.text, "=>")
				want = strings.TrimSpace(want)
				head, body, _ := strings.Cut(lhs, " -- ")
				f := strings.Fields(head)
				if f[0] == "options" {
					d, _ := time.ParseDuration(strings.TrimPrefix(f[1], "ttl="))
					opts.TTL = d
					continue
				}
				if s == nil {
					s = Open(filepath.Join(t.TempDir(), "approvals.jsonl"), opts)
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
					var e Entry
					e, err = s.Pending(ctx, f[1])
					got = e.Session + " " + e.Summary
				case "clock":
					d, _ := time.ParseDuration(f[1])
					now = now.Add(d)
					got = "ok"
				case "prune":
					var n int
					n, err = s.Prune(ctx)
					got = strconv.Itoa(n)
				default:
					t.Fatalf("line %d: unknown step", st.line)
				}
				if errors.Is(err, ErrNotPending) {
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

// TestNoteNamesGrant: an approved call's verdict says who approved it and
// until when, and keeps its findings for the audit.
func TestNoteNamesGrant(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "a.jsonl"), Options{TTL: time.Hour})
	call := toolwall.NewBashCall("git push --force")
	call.Session, call.ID, call.Cwd = "s", "t1", "/w"
	v := toolwall.Verdict{Action: toolwall.Ask, Findings: []toolwall.Finding{{Rule: "git.force-push", Action: toolwall.Ask}}}
	ctx := context.Background()
	s.Check(ctx, "dec1", call, v, true)
	if ok, err := s.Confirm(ctx, "s", "t1", "claude-code PostToolUse"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	call.ID = "t2"
	got, err := s.Check(ctx, "dec2", call, v, true)
	if err != nil || got.Action != toolwall.Allow || len(got.Findings) != 1 || len(got.Notes) != 1 ||
		!strings.Contains(got.Notes[0], "decision dec1, claude-code PostToolUse") || !strings.Contains(got.Notes[0], "until ") {
		t.Errorf("verdict %+v, %v", got, err)
	}
	gs, _ := s.Grants(ctx)
	if len(gs) != 1 || gs[0].Summary != "git push --force" {
		t.Errorf("grants %+v", gs)
	}
}
