package outfilter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/outfilter"
)

type filterCase struct {
	Name         string   `json:"name"`
	Command      string   `json:"command"`
	Exit         int      `json:"exit"`
	Stdout       string   `json:"stdout"`
	StdoutLines  int      `json:"stdout_lines"`
	StdoutExtra  string   `json:"stdout_extra"`
	Stderr       string   `json:"stderr"`
	Rule         string   `json:"rule"`
	WantContains []string `json:"want_contains"`
	WantAbsent   []string `json:"want_absent"`
}

func TestBuiltin(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []filterCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	p := outfilter.Builtin()
	if n := len(p.Rules()); n < 25 {
		t.Errorf("%d built-in rules, want 25", n)
	}
	for _, tc := range cases {
		stdout := tc.Stdout
		for i := range tc.StdoutLines {
			stdout += fmt.Sprintf("/path/%d\n", i)
		}
		stdout += tc.StdoutExtra
		env := &executor.Envelope{Stdout: stdout, Stderr: tc.Stderr, ExitCode: tc.Exit}
		got, rule := p.Apply(tc.Command, env)
		if rule != tc.Rule {
			t.Errorf("%s: rule %q, want %q", tc.Name, rule, tc.Rule)
		}
		text := outfilter.Render(got)
		for _, w := range tc.WantContains {
			if !strings.Contains(text, w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.Name, w, text)
			}
		}
		for _, w := range tc.WantAbsent {
			if strings.Contains(text, w) {
				t.Errorf("%s: output still has %q:\n%s", tc.Name, w, text)
			}
		}
	}
}

// TestNeverHidesErrorExit: every built-in rule, applied to a failing
// command, keeps the exit status, the whole of stderr, and error lines.
func TestNeverHidesErrorExit(t *testing.T) {
	p := outfilter.Builtin()
	commands := map[string]string{}
	for _, c := range []string{"go test ./...", "cargo test", "pytest", "npm test", "make test", "cargo build", "eslint .",
		"golangci-lint run", "ruff check", "tsc", "git status", "git diff", "git log", "npm install", "pip install x",
		"apt-get install x", "docker build .", "go build ./...", "mvn package", "gradle build", "make", "find .", "ls -R", "grep -r x", "journalctl"} {
		_, rule := p.Apply(c, &executor.Envelope{Stdout: "x\n"})
		commands[rule] = c
	}
	for _, rule := range p.Rules() {
		c, ok := commands[rule]
		if !ok {
			t.Errorf("rule %s is not exercised by this test", rule)
			continue
		}
		var stdout strings.Builder
		for i := range 500 {
			fmt.Fprintf(&stdout, "line %d of ordinary output\n", i%7)
		}
		stdout.WriteString("error: the one line that matters\n")
		env := &executor.Envelope{Stdout: stdout.String(), Stderr: "stderr must stay\nwhole\n", ExitCode: 2}
		got, _ := p.Apply(c, env)
		text := outfilter.Render(got)
		for _, w := range []string{"error: the one line that matters", "[stderr]\nstderr must stay\nwhole\n", "[exit status 2]"} {
			if !strings.Contains(text, w) {
				t.Errorf("rule %s (%s) hid %q of a failing command:\n%s", rule, c, w, text)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for doc, want := range map[string]string{
		"[[filter]]\nname='x'\nmatch='a'\nstrategy='truncate'\nhaed=1\n":          "unknown key",
		"[[filter]]\nname='x'\nmatch='a'\nstrategy='squash'\n":                    "not one of",
		"[[filter]]\nname='x'\nmatch='('\nstrategy='dedup'\n":                     "match",
		"[[filter]]\nname='x'\nmatch='a'\nstrategy='keep_matching'\n":             "needs patterns",
		"[[filter]]\nname='x'\nmatch='a'\nstrategy='group_by_rule'\nrule='(x)'\n": "(?P<rule>",
		"[[filter]]\nmatch='a'\nstrategy='dedup'\n":                               "name is required",
	} {
		if _, err := outfilter.Parse("filters.toml", []byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", doc, err, want)
		}
	}
	user, err := outfilter.Parse("filters.toml", []byte("[[filter]]\nname='mine'\nmatch='^go test'\nstrategy='truncate'\nhead=1\ntail=0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, rule := user.Then(outfilter.Builtin()).Apply("go test ./...", &executor.Envelope{Stdout: "a\nb\n"}); rule != "mine" {
		t.Errorf("a user rule did not come first: %s", rule)
	}
	if got := outfilter.PathNextTo("/home/u/.config/toolwall/config.toml"); got != "/home/u/.config/toolwall/filters.toml" {
		t.Errorf("PathNextTo = %s", got)
	}
	if p, err := outfilter.Load("testdata/does-not-exist.toml"); err != nil || len(p.Rules()) != 0 {
		t.Errorf("missing file: %v %v", p, err)
	}
}

// shellLike returns a fixed process envelope for every call.
type shellLike struct {
	executortest.Recorder
	env executor.Envelope
}

func (s *shellLike) Execute(ctx context.Context, r *executor.Request) (*executor.Output, error) {
	s.Recorder.Execute(ctx, r)
	env := s.env
	return &executor.Output{Tool: r.Call.Tool, Process: &env, Text: "unfiltered", IsError: env.ExitCode != 0}, nil
}

func TestWrap(t *testing.T) {
	executortest.Forwarding(t, func(in executor.Executor) executor.Executor { return outfilter.Wrap(in, outfilter.Builtin()) }, toolwall.NewBashCall("go test ./..."))
	executortest.NoEmbedding(t, ".")
	inner := &shellLike{Recorder: executortest.Recorder{Tools: []string{"Bash"}}, env: executor.Envelope{Stdout: "=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \tx\t0.1s\n"}}
	out, _ := outfilter.Wrap(inner, outfilter.Builtin()).Execute(context.Background(), &executor.Request{Call: toolwall.NewBashCall("go test ./...")})
	if strings.Contains(out.Text, "=== RUN") || !strings.Contains(out.Text, "ok  \tx") {
		t.Errorf("wrapped output %q", out.Text)
	}
	inner.env = executor.Envelope{Stdout: "", Stderr: "refused by toolwall [x]: no", ExitCode: 126}
	out, _ = outfilter.Wrap(inner, outfilter.Builtin()).Execute(context.Background(), &executor.Request{Call: toolwall.NewBashCall("go test ./...")})
	if out.Text != "unfiltered" {
		t.Errorf("a refusal was filtered: %q", out.Text)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[[filter]]\nname='x'\nmatch='a'\nstrategy='dedup'\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		p, err := outfilter.Parse("f.toml", doc)
		if err == nil {
			p.Apply("a b c", &executor.Envelope{Stdout: "a\nb\n", ExitCode: 1})
		}
	})
}
