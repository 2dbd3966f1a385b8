package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/host"
)

// Case is one tool call and the verdict expected of it, in the acceptance
// format (testdata/spec/FORMAT.md).
type Case struct {
	ID      string          `json:"id"`
	Tool    string          `json:"tool"`
	Command string          `json:"command,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Cwd     string          `json:"cwd,omitempty"`
	Project string          `json:"project,omitempty"`
	Home    string          `json:"home,omitempty"`
	Context string          `json:"context,omitempty"`
	History []Step          `json:"history,omitempty"`
	Expect  string          `json:"expect"`
	Rule    string          `json:"rule,omitempty"`
	Note    string          `json:"note,omitempty"`
}

// Step is one earlier call of a case's history.
type Step struct {
	Tool    string          `json:"tool"`
	Command string          `json:"command,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
}

// Defaults for cases that leave the call's places empty (.txt and .tsv
// lines): a project at /workspace/app, the user's home at /home/user.
const (
	DefaultProject = "/workspace/app"
	DefaultHome    = "/home/user"
)

// Places are the working directory, project root and home a case is
// judged against when it does not give its own.
type Places struct {
	Cwd, Project, Home string
}

// DefaultPlaces are cwd and project /workspace/app, home /home/user.
var DefaultPlaces = Places{Cwd: DefaultProject, Project: DefaultProject, Home: DefaultHome}

// In returns c with each place it leaves empty taken from p (an empty
// place of p keeps the package default).
func (c Case) In(p Places) Case {
	if c.Cwd == "" {
		c.Cwd = p.Cwd
	}
	if c.Project == "" {
		c.Project = p.Project
	}
	if c.Home == "" {
		c.Home = p.Home
	}
	return c
}

// call builds the tool call of step s under the places of c; a step
// without a tool is a Bash call.
func (c Case) call(s Step) toolwall.Call {
	if s.Tool == "" {
		s.Tool = toolwall.ToolBash
	}
	call := toolwall.Call{Tool: s.Tool, Input: s.Input}
	if s.Command != "" || (s.Tool == toolwall.ToolBash && len(s.Input) == 0) {
		call = toolwall.NewBashCall(s.Command)
		call.Tool = s.Tool
	}
	call.Cwd, call.Project, call.Home = c.Cwd, c.Project, c.Home
	if call.Cwd == "" {
		call.Cwd = DefaultProject
	}
	if call.Project == "" {
		call.Project = DefaultProject
	}
	if call.Home == "" {
		call.Home = DefaultHome
	}
	call.Context = toolwall.ExecContext(c.Context)
	call.Session = "eval-" + c.ID
	return call
}

// Call returns the case's own tool call.
func (c Case) Call() toolwall.Call {
	tool := c.Tool
	if tool == "" {
		tool = toolwall.ToolBash
	}
	return c.call(Step{Tool: tool, Command: c.Command, Input: c.Input})
}

// Display is the case's command, or its tool and input, on one line.
func (c Case) Display() string {
	if c.Command != "" || len(c.Input) == 0 {
		return c.Command
	}
	return c.Tool + " " + string(c.Input)
}

// Matches reports whether action satisfies the expectation word expect
// (allow, warn, ask, deny, block, stop). An unknown word matches nothing.
func Matches(expect string, action toolwall.Action) bool {
	switch strings.ToLower(expect) {
	case "allow":
		return action <= toolwall.Warn
	case "warn":
		return action == toolwall.Warn
	case "ask":
		return action == toolwall.Ask
	case "deny", "block":
		return action == toolwall.Deny
	case "stop":
		return action.Stops()
	}
	return false
}

var expectations = []string{"allow", "warn", "ask", "deny", "block", "stop"}

// Read parses cases from r. The format follows name's extension: ".jsonl"
// (one Case object a line), ".tsv" (expected<TAB>command) or anything else
// as plain text (one command a line, expectation expect; blank lines and
// lines starting with "#" skipped). Case ids default to name:line. A
// malformed line is an error naming the file and line.
func Read(name string, r io.Reader, expect string) ([]Case, error) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext != ".jsonl" && ext != ".tsv" && !slices.Contains(expectations, expect) {
		return nil, fmt.Errorf("eval: %s: plain command files need an expectation (--expect allow|deny|stop|ask|warn), got %q", name, expect)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var cases []Case
	base := filepath.Base(name)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || (ext != ".jsonl" && strings.HasPrefix(line, "#")) {
			continue
		}
		c := Case{ID: fmt.Sprintf("%s:%d", base, n), Tool: toolwall.ToolBash, Expect: expect}
		switch ext {
		case ".jsonl":
			c = Case{}
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				return nil, fmt.Errorf("eval: %s:%d: %w", name, n, err)
			}
			if c.ID == "" {
				c.ID = fmt.Sprintf("%s:%d", base, n)
			}
		case ".tsv":
			exp, cmd, ok := strings.Cut(line, "\t")
			if !ok {
				return nil, fmt.Errorf("eval: %s:%d: want expected<TAB>command", name, n)
			}
			c.Expect, c.Command = strings.ToLower(strings.TrimSpace(exp)), cmd
		default:
			c.Command = line
		}
		if !slices.Contains(expectations, strings.ToLower(c.Expect)) {
			return nil, fmt.Errorf("eval: %s:%d: unknown expectation %q", name, n, c.Expect)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: %s: %w", name, err)
	}
	return cases, nil
}

// ReadFile reads the cases of one file; see Read.
func ReadFile(name, expect string) ([]Case, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	return Read(name, f, expect)
}

// Counts are pass/fail totals.
type Counts struct {
	Cases  int `json:"cases"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

func (c *Counts) add(ok bool) {
	c.Cases++
	if ok {
		c.Passed++
	} else {
		c.Failed++
	}
}

// ByExpect is the result for one expectation word, with how the verdicts
// were spread over the four actions.
type ByExpect struct {
	Counts
	Got map[string]int `json:"got"`
	// Labels spreads the models' answers of the later stage, when the
	// runner has a Baseline (`toolwall eval --llm`): "<analyzer> <label>"
	// ("guardrail HIGH", "advisor 90%") counted once per opinion, "no
	// model asked" for verdicts with none (the stage was skipped, or not
	// for the tool).
	Labels map[string]int `json:"labels,omitempty"`
	// RulesPassed counts the cases that passed on Runner.Baseline (the
	// rules alone), when one is set: Passed minus RulesPassed is what the
	// later stage added.
	RulesPassed *int `json:"rules_passed,omitempty"`
}

// FileResult is the result of one file.
type FileResult struct {
	File     string               `json:"file"`
	Counts                        // totals of the file
	ByExpect map[string]*ByExpect `json:"by_expect"`
}

// Failure is one case whose verdict missed its expectation.
type Failure struct {
	ID      string   `json:"id"`
	File    string   `json:"file"`
	Command string   `json:"command"`
	Expect  string   `json:"expect"`
	Rule    string   `json:"rule,omitempty"`
	Got     string   `json:"got"`
	Rules   []string `json:"rules"`
	Reason  string   `json:"reason,omitempty"`
}

// Report is the result of a run.
type Report struct {
	Total    Counts       `json:"total"`
	Files    []FileResult `json:"files"`
	Failures []Failure    `json:"failures"`
}

// Runner evaluates cases.
type Runner struct {
	// Shield decides cases without history; it is reused across cases.
	Shield toolwall.Shield
	// Fresh returns a new shield with empty session memory, for cases with
	// history. Nil means cases with history run on Shield with a
	// per-case session id.
	Fresh func() toolwall.Shield
	// Places fill the places a case leaves empty (zero: DefaultPlaces).
	Places Places
	// Baseline, when set, runs every case a second time (the rules
	// alone, for `toolwall eval --llm`), counted in ByExpect.RulesPassed,
	// and the verdicts' opinions are counted in ByExpect.Labels.
	Baseline *Runner
}

// Check runs one case and reports whether it passed, with the verdict.
func (r *Runner) Check(ctx context.Context, c Case) (bool, toolwall.Verdict) {
	c = c.In(r.Places)
	sh := r.Shield
	if len(c.History) > 0 && r.Fresh != nil {
		sh = r.Fresh()
	}
	for _, s := range c.History {
		// An MCP tool's call ran as the calls its arguments map onto, as
		// the hooks read it.
		calls, _ := host.MCPCalls([]toolwall.Call{c.call(s)}, true)
		for _, call := range calls {
			sh.RecordInvocation(ctx, call, true)
		}
	}
	v := host.Judge(ctx, sh, c.Call())
	ok := Matches(c.Expect, v.Action)
	if ok && c.Rule != "" {
		ok = slices.Contains(v.Rules(), c.Rule)
	}
	return ok, v
}

// Run evaluates every case of every file (name → cases, in files order).
func (r *Runner) Run(ctx context.Context, files []string, cases map[string][]Case) (*Report, error) {
	rep := &Report{Files: []FileResult{}, Failures: []Failure{}}
	for _, name := range files {
		fr := FileResult{File: name, ByExpect: map[string]*ByExpect{}}
		for _, c := range cases[name] {
			if err := ctx.Err(); err != nil {
				return nil, errors.Join(errors.New("eval: cancelled"), err)
			}
			ok, v := r.Check(ctx, c)
			exp := strings.ToLower(c.Expect)
			be := fr.ByExpect[exp]
			if be == nil {
				be = &ByExpect{Got: map[string]int{}}
				fr.ByExpect[exp] = be
			}
			be.add(ok)
			be.Got[v.Action.String()]++
			if r.Baseline != nil {
				be.count(v)
				if be.RulesPassed == nil {
					be.RulesPassed = new(int)
				}
				if bok, _ := r.Baseline.Check(ctx, c); bok {
					*be.RulesPassed++
				}
			}
			fr.add(ok)
			rep.Total.add(ok)
			if !ok {
				rep.Failures = append(rep.Failures, Failure{
					ID: c.ID, File: name, Command: c.Display(), Expect: exp, Rule: c.Rule,
					Got: v.Action.String(), Rules: nonNil(v.Rules()), Reason: v.Reason,
				})
			}
		}
		rep.Files = append(rep.Files, fr)
	}
	return rep, nil
}

// count adds the verdict's opinions to the label spread.
func (be *ByExpect) count(v toolwall.Verdict) {
	if be.Labels == nil {
		be.Labels = map[string]int{}
	}
	if len(v.Opinions) == 0 {
		be.Labels["no model asked"]++
	}
	for _, o := range v.Opinions {
		be.Labels[o.Analyzer+" "+o.Label]++
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteText prints rep for people: per file and in total the cases,
// passed and failed, by expectation with the spread of actions, then each
// failure.
func (rep *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range rep.Files {
		fmt.Fprintf(bw, "%s: %d cases, %d passed, %d failed\n", f.File, f.Cases, f.Passed, f.Failed)
		keys := make([]string, 0, len(f.ByExpect))
		for k := range f.ByExpect {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			be := f.ByExpect[k]
			fmt.Fprintf(bw, "  expect %-5s %5d cases, %5d passed, %5d failed   got:", k, be.Cases, be.Passed, be.Failed)
			for _, a := range []string{"allow", "warn", "ask", "deny"} {
				if n := be.Got[a]; n > 0 {
					fmt.Fprintf(bw, " %s=%d", a, n)
				}
			}
			fmt.Fprintln(bw)
			if be.RulesPassed != nil {
				be.writeLabels(bw)
			}
		}
	}
	if len(rep.Failures) > 0 {
		fmt.Fprintln(bw, "failures:")
		for _, f := range rep.Failures {
			want := f.Expect
			if f.Rule != "" {
				want += " (" + f.Rule + ")"
			}
			fmt.Fprintf(bw, "  %s: expected %s, got %s %v: %s\n", f.ID, want, f.Got, f.Rules, oneLine(f.Command))
		}
	}
	fmt.Fprintf(bw, "total: %d cases, %d passed, %d failed\n", rep.Total.Cases, rep.Total.Passed, rep.Total.Failed)
	return bw.Flush()
}

// writeLabels prints the model's label spread and what it added over the
// rules alone.
func (be *ByExpect) writeLabels(w io.Writer) {
	keys := make([]string, 0, len(be.Labels))
	for k := range be.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Fprint(w, "               model:")
	for _, k := range keys {
		fmt.Fprintf(w, " %s=%d", k, be.Labels[k])
	}
	fmt.Fprintf(w, "   rules alone passed %d, with the model %d\n", *be.RulesPassed, be.Passed)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
