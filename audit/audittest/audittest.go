package audittest

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

//go:embed testdata/*.txt
var scripts embed.FS

// Epoch is where the scripts' times start.
var Epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Opener opens the store kept in dir (an empty directory the first time;
// the same directory again after "reopen"). The suite closes it.
type Opener func(t *testing.T, dir string) audit.Store

// Run runs the conformance suite on the stores open returns. Each script
// case runs as a subtest on a new directory, then the checks written in
// Go (field round-trip, concurrent writers).
//
// The script language, one operation per line ("#" starts a comment;
// TIME is a Go duration after Epoch, like 90s or 2h):
//
//	case NAME
//	record ID [at=TIME] [session=S] [turn=N] [caller=C] [tool=T] [call=CALLID]
//	          [driver=D] [action=A] [rules=R,R] => ok
//	outcome ID [exit=N] [fail] [truncated] => ok
//	calloutcome SESSION CALLID [exit=N] => ok
//	turn SESSION N [at=TIME] => ok
//	get ID => action=A rules=R,R outcome=exit:N|fail|ok|none
//	turnof ID => N
//	query [session=S] [action=A|A] [rule=R] [tool=T] [caller=C] [driver=D]
//	      [noprobes] [since=TIME] [until=TIME] [limit=N] => ID ... (or -)
//	prune TIME => N
//	reopen => ok
//	close => ok
//
// Any expectation may instead be err:notfound or err:closed, for
// audit.ErrNotFound and audit.ErrClosed; "ok|err:notfound" accepts
// either. An outcome for an unknown decision may be refused at once
// (ErrNotFound) or, by an append-only store, accepted and dropped when
// read; either way no record appears.
func Run(t *testing.T, open Opener) {
	t.Helper()
	sub, _ := fs.Sub(scripts, "testdata")
	RunScripts(t, sub, open)
	t.Run("round-trip", func(t *testing.T) { roundTrip(t, open) })
	t.Run("concurrent", func(t *testing.T) { concurrent(t, open) })
}

// RunScripts runs the scripts (*.txt, in the language documented on
// [Run]) at the top of fsys on the stores open returns, each case as a
// subtest named FILE/CASE on a new directory: a store's own cases beside
// the suite's (for example os.DirFS("testdata")). No script is an error.
func RunScripts(t *testing.T, fsys fs.FS, open Opener) {
	t.Helper()
	files, err := fs.Glob(fsys, "*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("audittest: no scripts: %v", err)
	}
	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatalf("audittest: %v", err)
		}
		for _, c := range parse(t, string(data)) {
			t.Run(strings.TrimSuffix(path.Base(name), ".txt")+"/"+c.name, func(t *testing.T) { c.run(t, open) })
		}
	}
}

type step struct {
	line int
	op   string
	args []string
	want string
}

type scriptCase struct {
	name  string
	steps []step
}

func parse(t *testing.T, src string) []scriptCase {
	var out []scriptCase
	for i, l := range strings.Split(src, "\n") {
		l, _, _ = strings.Cut(l, "#")
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if name, ok := strings.CutPrefix(l, "case "); ok {
			out = append(out, scriptCase{name: name})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("line %d: step before the first case", i+1)
		}
		lhs, want, ok := strings.Cut(l, "=>")
		if !ok {
			t.Fatalf("line %d: no =>", i+1)
		}
		f := strings.Fields(lhs)
		c := &out[len(out)-1]
		c.steps = append(c.steps, step{line: i + 1, op: f[0], args: f[1:], want: strings.TrimSpace(want)})
	}
	return out
}

func at(s string) time.Time {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(fmt.Sprintf("audittest: bad time %q", s))
	}
	return Epoch.Add(d)
}

// kv splits key=value arguments; a bare word maps to "".
func kv(args []string) map[string]string {
	m := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		m[k] = v
	}
	return m
}

func errWord(err error) string {
	switch {
	case errors.Is(err, audit.ErrNotFound):
		return "err:notfound"
	case errors.Is(err, audit.ErrClosed):
		return "err:closed"
	case err != nil:
		return "err:" + err.Error()
	}
	return ""
}

func (c scriptCase) run(t *testing.T, open Opener) {
	dir := t.TempDir()
	s := open(t, dir)
	defer func() { s.Close() }()
	ctx := context.Background()
	for _, st := range c.steps {
		var got string
		var err error
		a := kv(st.args)
		switch st.op {
		case "record":
			err = s.Record(ctx, record(st.args[0], a))
			got = "ok"
		case "outcome":
			err = s.Outcome(ctx, st.args[0], outcome(a))
			got = "ok"
		case "calloutcome":
			err = s.CallOutcome(ctx, st.args[0], st.args[1], outcome(kv(st.args[2:])))
			got = "ok"
		case "turn":
			n, _ := strconv.Atoi(st.args[1])
			when := Epoch
			if v, ok := a["at"]; ok {
				when = at(v)
			}
			err = s.Turn(ctx, st.args[0], n, when)
			got = "ok"
		case "get":
			var r audit.Record
			r, err = s.Get(ctx, st.args[0])
			got = describe(r)
		case "turnof":
			var r audit.Record
			r, err = s.Get(ctx, st.args[0])
			got = strconv.Itoa(r.Turn)
		case "query":
			var rs []audit.Record
			rs, err = s.Query(ctx, filter(a))
			var ids []string
			for _, r := range rs {
				ids = append(ids, r.ID)
			}
			got = strings.Join(ids, " ")
			if got == "" {
				got = "-"
			}
		case "prune":
			var n int
			n, err = s.Prune(ctx, at(st.args[0]))
			got = strconv.Itoa(n)
		case "reopen":
			if err = s.Close(); err == nil {
				s = open(t, dir)
			}
			got = "ok"
		case "close":
			err = s.Close()
			got = "ok"
		default:
			t.Fatalf("line %d: unknown op %q", st.line, st.op)
		}
		if err != nil {
			got = errWord(err)
		}
		if got != st.want && !slices.Contains(strings.Split(st.want, "|"), got) {
			t.Errorf("line %d: %s %s => %s, want %s", st.line, st.op, strings.Join(st.args, " "), got, st.want)
		}
	}
}

func record(id string, a map[string]string) audit.Record {
	r := audit.Record{ID: id, At: Epoch, Driver: "test", Tool: "Bash", Session: a["session"], Caller: a["caller"], CallID: a["call"],
		Input: json.RawMessage(`{"command":"ls"}`)}
	if v, ok := a["at"]; ok {
		r.At = at(v)
	}
	if v, ok := a["tool"]; ok {
		r.Tool = v
	}
	if v, ok := a["driver"]; ok {
		r.Driver = v
	}
	r.Turn, _ = strconv.Atoi(a["turn"])
	if v, ok := a["action"]; ok {
		r.Verdict.Action, _ = toolwall.ParseAction(v)
	}
	if v := a["rules"]; v != "" {
		for _, rule := range strings.Split(v, ",") {
			r.Verdict.Findings = append(r.Verdict.Findings, toolwall.Finding{Rule: rule, Action: r.Verdict.Action})
		}
	}
	return r
}

func outcome(a map[string]string) audit.Outcome {
	o := audit.Outcome{Success: true}
	if v, ok := a["exit"]; ok {
		n, _ := strconv.Atoi(v)
		o.ExitCode = &n
		o.Success = n == 0
	}
	if _, ok := a["fail"]; ok {
		o.Success, o.Error = false, "failed"
	}
	_, o.Truncated = a["truncated"]
	return o
}

func filter(a map[string]string) audit.Filter {
	f := audit.Filter{Session: a["session"], Rule: a["rule"], Tool: a["tool"], Caller: a["caller"], Driver: a["driver"]}
	if v := a["action"]; v != "" {
		for _, name := range strings.Split(v, "|") {
			act, _ := toolwall.ParseAction(name)
			f.Actions = append(f.Actions, act)
		}
	}
	if v := a["since"]; v != "" {
		f.Since = at(v)
	}
	if v := a["until"]; v != "" {
		f.Until = at(v)
	}
	_, f.NoProbes = a["noprobes"]
	f.Limit, _ = strconv.Atoi(a["limit"])
	return f
}

func describe(r audit.Record) string {
	o := "none"
	switch {
	case r.Outcome == nil:
	case r.Outcome.ExitCode != nil:
		o = "exit:" + strconv.Itoa(*r.Outcome.ExitCode)
	case !r.Outcome.Success:
		o = "fail"
	default:
		o = "ok"
	}
	if r.Outcome != nil && r.Outcome.Truncated {
		o += ",truncated"
	}
	return fmt.Sprintf("action=%s rules=%s outcome=%s", r.Verdict.Action, strings.Join(r.Verdict.Rules(), ","), o)
}

// roundTrip: every field of a record and its outcome comes back as
// written, also after a reopen.
func roundTrip(t *testing.T, open Opener) {
	dir := t.TempDir()
	s := open(t, dir)
	ctx := context.Background()
	exit := 3
	want := audit.Record{
		ID: "rt1", At: Epoch.Add(1500 * time.Microsecond), Driver: "hook:claude-code", Session: "sess", Turn: 4, Caller: "sub-agent",
		CallID: "toolu_9", Cwd: "/workspace/app", Tool: "Bash", Input: json.RawMessage(`{"command":"rm -rf build/x","description":"clean ✓"}`),
		Redacted: []string{"AWS access key id in input.command"},
		Verdict: toolwall.Verdict{Action: toolwall.Ask, Band: toolwall.Medium, Score: 0.6, Reason: "why",
			Findings: []toolwall.Finding{{Analyzer: "destroy", Rule: "rm.project-subtree", Category: "destructive", Score: 0.6, Action: toolwall.Ask, Reason: "r"}},
			Effects:  []toolwall.Effect{{Tag: toolwall.TagDelete, Path: "/workspace/app/build/x"}},
			Commands: []string{"rm -rf build/x"}, Notes: []string{"n"},
			Opinions: []toolwall.Opinion{{Analyzer: "adversarial", Model: "m", Label: "DENY", Explanation: "e", Action: toolwall.Deny, InputTokens: 900, OutputTokens: 12, Latency: 41 * time.Millisecond}}},
		Elapsed:     1234 * time.Microsecond,
		ClaimSource: &audit.ClaimSource{Caller: "sub-agent", Tool: "Bash", Turn: 4},
	}
	if err := s.Record(ctx, want); err != nil {
		t.Fatal(err)
	}
	o := audit.Outcome{Success: false, ExitCode: &exit, Truncated: true, Duration: 2 * time.Second, Error: "boom"}
	if err := s.Outcome(ctx, "rt1", o); err != nil {
		t.Fatal(err)
	}
	want.Outcome = &o
	for _, when := range []string{"written", "reopened"} {
		got, err := s.Get(ctx, "rt1")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !got.At.Equal(want.At) {
			t.Errorf("%s: at %v, want %v", when, got.At, want.At)
		}
		got.At = want.At
		var gi, wi any
		json.Unmarshal(got.Input, &gi)
		json.Unmarshal(want.Input, &wi)
		if !reflect.DeepEqual(gi, wi) {
			t.Errorf("%s: input %s, want %s", when, got.Input, want.Input)
		}
		got.Input = want.Input
		if !reflect.DeepEqual(got, want) {
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			t.Errorf("%s:\n got %s\nwant %s", when, gb, wb)
		}
		s.Close()
		s = open(t, dir)
	}
	s.Close()
}

// concurrent: goroutines writing records and outcomes at once lose none.
func concurrent(t *testing.T, open Opener) {
	s := open(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("w%d-%d", w, i)
				r := audit.Record{ID: id, At: Epoch.Add(time.Duration(i) * time.Second), Driver: "test", Tool: "Bash", Session: "par", CallID: id}
				if err := s.Record(ctx, r); err != nil {
					t.Error(err)
					return
				}
				if err := s.CallOutcome(ctx, "par", id, audit.Outcome{Success: true}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	rs, err := s.Query(ctx, audit.Filter{Session: "par"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != writers*each {
		t.Fatalf("%d records, want %d", len(rs), writers*each)
	}
	if !slices.IsSortedFunc(rs, audit.Newest) {
		t.Error("query not newest first")
	}
	for _, r := range rs {
		if r.Outcome == nil {
			t.Errorf("%s lost its outcome", r.ID)
		}
	}
}
