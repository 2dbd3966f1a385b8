package sessiontest

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolwall/toolwall/session"
)

//go:embed testdata/*.txt
var scripts embed.FS

// epoch is where the suite's clock starts.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Run runs the conformance suite. open must return a new, empty store
// built with opts (the suite sets the clock, opts.Now, and in some cases
// the caps); the suite closes it. Each script case and each check runs as
// a subtest.
//
// The script language, one operation per line ("#" starts a comment;
// quoted words use Go syntax, so "" is the empty string):
//
//	case NAME                             start a case on a new store
//	options calls=N refusals=N retention=D pruneevery=D
//	                                      store options (first line of a case)
//	clock D                               move the clock on by D
//	turn ID => N
//	advance ID => N
//	append ID SUMMARY [tool=T] => ok
//	appendn ID PREFIX N => ok             append PREFIX1 ... PREFIXN
//	history ID [calls=N] [turns=N] => SUMMARY@TURN ... (or -)
//	stage ID KEY SUMMARY => ok             a call allowed, not yet run
//	commit ID KEY [fail] => committed      (or none when nothing was staged)
//	refuse ID KEY => N
//	refusals ID KEY [calls=N] [turns=N] => N
//	risk ID POINTS [set] [why=W] [caller=C] => ok
//	                                      a trajectory risk event (set: a level)
//	riskn ID N => ok                      N events of 1 point, why e1 ... eN
//	risklog ID => turn=T EVENT ...        EVENT is POINTS@TURN:WHY, =LEVEL@TURN:WHY
//	                                      for a set, with /CALLER when there is one
//	prune [D] => N
//	close => ok
//
// Any expectation may instead be err:invalid or err:closed, for
// [session.ErrInvalid] and [session.ErrClosed].
func Run(t *testing.T, open func(t *testing.T, opts session.Options) session.Store) {
	t.Helper()
	files, err := fs.Glob(scripts, "testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("sessiontest: no scripts: %v", err)
	}
	for _, name := range files {
		data, err := scripts.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parse(string(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cases {
			t.Run(strings.TrimSuffix(path.Base(name), ".txt")+"/"+c.name, func(t *testing.T) {
				for _, p := range c.run(func(opts session.Options) session.Store { return open(t, opts) }) {
					t.Error(p)
				}
			})
		}
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open) })
	}
}

// scriptCase is one case of a script.
type scriptCase struct {
	name    string
	options []string
	ops     []op
}

// op is one line: words before "=>" and the expected words after it.
type op struct {
	line int
	args []string
	want []string
}

// parse reads a script.
func parse(text string) ([]*scriptCase, error) {
	var cases []*scriptCase
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, err := split(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		switch words[0] {
		case "case":
			cases = append(cases, &scriptCase{name: strings.Join(words[1:], " ")})
			continue
		}
		if len(cases) == 0 {
			return nil, fmt.Errorf("line %d: operation before the first case", i+1)
		}
		c := cases[len(cases)-1]
		if words[0] == "options" {
			if len(c.ops) > 0 {
				return nil, fmt.Errorf("line %d: options after an operation", i+1)
			}
			c.options = append(c.options, words[1:]...)
			continue
		}
		o := op{line: i + 1, args: words}
		if at := slices.Index(words, "=>"); at >= 0 {
			o.args, o.want = words[:at], words[at+1:]
		} else if words[0] != "clock" {
			return nil, fmt.Errorf("line %d: no expectation (=>)", i+1)
		}
		c.ops = append(c.ops, o)
	}
	return cases, nil
}

// split cuts a line into words at spaces. A word may contain Go-quoted
// parts, which are unquoted.
func split(line string) ([]string, error) {
	var words []string
	for line = strings.TrimLeft(line, " \t"); line != ""; line = strings.TrimLeft(line, " \t") {
		var w strings.Builder
		for line != "" && line[0] != ' ' && line[0] != '\t' {
			if line[0] == '"' {
				q, err := strconv.QuotedPrefix(line)
				if err != nil {
					return nil, fmt.Errorf("bad quoted word in %q", line)
				}
				s, _ := strconv.Unquote(q)
				w.WriteString(s)
				line = line[len(q):]
				continue
			}
			w.WriteByte(line[0])
			line = line[1:]
		}
		words = append(words, w.String())
	}
	return words, nil
}

// clock is a settable clock for a store under test.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// run runs the case on a new store made by open and returns the
// mismatches.
func (c *scriptCase) run(open func(session.Options) session.Store) []string {
	clk := &clock{now: epoch}
	opts := session.Options{Now: clk.Now}
	for _, kv := range c.options {
		k, v, _ := strings.Cut(kv, "=")
		var err error
		switch k {
		case "calls":
			opts.Calls, err = strconv.Atoi(v)
		case "refusals":
			opts.Refusals, err = strconv.Atoi(v)
		case "retention":
			opts.Retention, err = time.ParseDuration(v)
		case "pruneevery":
			opts.PruneEvery, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown option %q", k)
		}
		if err != nil {
			return []string{"options: " + err.Error()}
		}
	}
	st := open(opts)
	defer st.Close()
	ctx := context.Background()
	var problems []string
	for _, o := range c.ops {
		if o.args[0] == "clock" {
			d, err := time.ParseDuration(arg(o.args, 1))
			if err != nil {
				return append(problems, fmt.Sprintf("line %d: %v", o.line, err))
			}
			clk.now = clk.now.Add(d)
			continue
		}
		got, err := do(ctx, st, o.args)
		if err != nil {
			switch {
			case errors.Is(err, session.ErrInvalid):
				got = []string{"err:invalid"}
			case errors.Is(err, session.ErrClosed):
				got = []string{"err:closed"}
			case errors.Is(err, errScript):
				return append(problems, fmt.Sprintf("line %d: %v", o.line, err))
			default:
				got = []string{"error: " + err.Error()}
			}
		}
		want := o.want
		if len(want) == 1 && want[0] == "-" {
			want = nil
		}
		if !slices.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("line %d: %s\n got: %q\nwant: %q", o.line, strings.Join(o.args, " "), got, want))
		}
	}
	return problems
}

var errScript = errors.New("bad script")

// arg returns args[i], or "" when there is none.
func arg(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// window reads calls=N and turns=N words.
func window(words []string) (session.Window, error) {
	var w session.Window
	for _, kv := range words {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return w, fmt.Errorf("%w: %q: %v", errScript, kv, err)
		case k == "calls":
			w.Calls = n
		case k == "turns":
			w.Turns = n
		default:
			return w, fmt.Errorf("%w: unknown window field %q", errScript, k)
		}
	}
	return w, nil
}

// do runs one operation and returns its result as words.
func do(ctx context.Context, st session.Store, args []string) ([]string, error) {
	id := arg(args, 1)
	count := func(n int, err error) ([]string, error) {
		return []string{strconv.Itoa(n)}, err
	}
	done := func(err error) ([]string, error) { return []string{"ok"}, err }
	switch args[0] {
	case "turn":
		return count(st.Turn(ctx, id))
	case "advance":
		return count(st.AdvanceTurn(ctx, id))
	case "append":
		r := session.Record{Tool: "Bash", Summary: arg(args, 2), Success: true}
		for _, kv := range args[min(3, len(args)):] {
			if tool, ok := strings.CutPrefix(kv, "tool="); ok {
				r.Tool = tool
			} else {
				return nil, fmt.Errorf("%w: unknown append word %q", errScript, kv)
			}
		}
		return done(st.Append(ctx, id, r))
	case "appendn":
		n, err := strconv.Atoi(arg(args, 3))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errScript, err)
		}
		for i := 1; i <= n; i++ {
			if err := st.Append(ctx, id, session.Record{Tool: "Bash", Summary: arg(args, 2) + strconv.Itoa(i)}); err != nil {
				return nil, err
			}
		}
		return []string{"ok"}, nil
	case "history":
		w, err := window(args[min(2, len(args)):])
		if err != nil {
			return nil, err
		}
		recs, err := st.History(ctx, id, w)
		var out []string
		for _, r := range recs {
			out = append(out, r.Summary+"@"+strconv.Itoa(r.Turn))
		}
		return out, err
	case "stage":
		return done(st.Stage(ctx, id, arg(args, 2), session.Record{Tool: "Bash", Summary: arg(args, 3)}))
	case "commit":
		success := true
		if len(args) > 3 {
			if args[3] != "fail" {
				return nil, fmt.Errorf("%w: unknown commit word %q", errScript, args[3])
			}
			success = false
		}
		ok, err := st.Commit(ctx, id, arg(args, 2), success)
		if err != nil {
			return nil, err
		}
		if !ok {
			return []string{"none"}, nil
		}
		if recs, err := st.History(ctx, id, session.Window{Calls: 1000, Turns: 1 << 30}); err == nil && len(recs) > 0 && recs[len(recs)-1].Success != success {
			return nil, fmt.Errorf("committed record has success %v, want %v", recs[len(recs)-1].Success, success)
		}
		return []string{"committed"}, nil
	case "refuse":
		return count(st.NoteRefusal(ctx, id, arg(args, 2)))
	case "refusals":
		w, err := window(args[min(3, len(args)):])
		if err != nil {
			return nil, err
		}
		return count(st.Refusals(ctx, id, arg(args, 2), w))
	case "risk":
		points, err := strconv.Atoi(arg(args, 2))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errScript, err)
		}
		e := session.RiskEvent{Points: points}
		for _, w := range args[min(3, len(args)):] {
			switch k, v, _ := strings.Cut(w, "="); k {
			case "set":
				e.Set = true
			case "why":
				e.Why = v
			case "caller":
				e.Caller = v
			default:
				return nil, fmt.Errorf("%w: unknown risk word %q", errScript, w)
			}
		}
		return done(st.NoteRisk(ctx, id, e))
	case "riskn":
		n, err := strconv.Atoi(arg(args, 2))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errScript, err)
		}
		for i := 1; i <= n; i++ {
			if err := st.NoteRisk(ctx, id, session.RiskEvent{Points: 1, Why: "e" + strconv.Itoa(i)}); err != nil {
				return nil, err
			}
		}
		return []string{"ok"}, nil
	case "risklog":
		log, err := st.Risk(ctx, id)
		if err != nil {
			return nil, err
		}
		out := []string{"turn=" + strconv.Itoa(log.Turn)}
		for _, e := range log.Events {
			w := strconv.Itoa(e.Points) + "@" + strconv.Itoa(e.Turn) + ":" + e.Why
			if e.Set {
				w = "=" + w
			}
			if e.Caller != "" {
				w += "/" + e.Caller
			}
			out = append(out, w)
		}
		return out, nil
	case "prune":
		var d time.Duration
		if len(args) > 1 {
			var err error
			if d, err = time.ParseDuration(args[1]); err != nil {
				return nil, fmt.Errorf("%w: %v", errScript, err)
			}
		}
		return count(st.Prune(ctx, d))
	case "close":
		return done(st.Close())
	}
	return nil, fmt.Errorf("%w: unknown operation %q", errScript, args[0])
}
