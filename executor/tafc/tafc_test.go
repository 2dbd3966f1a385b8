package tafc_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/tafc"
)

var tools = []executor.Definition{
	{Name: "Bash", Description: "Run a command"}, {Name: "Read", Description: "Read a file"},
	{Name: "Edit", Description: "Edit a file"}, {Name: "Glob", Description: "Find files"},
}

// scripted is a model that answers from a script and records its prompts.
type scripted struct {
	answer  string
	err     error
	prompts []string
}

func (s *scripted) Complete(_ context.Context, system, prompt string) (string, error) {
	s.prompts = append(s.prompts, system+"\n"+prompt)
	return s.answer, s.err
}

func TestOffWithoutModel(t *testing.T) {
	p := tafc.Think(context.Background(), tafc.Options{}, "read x", tools)
	if !p.Off || len(p.Tools) != 4 || p.Err != nil {
		t.Errorf("%+v", p)
	}
}

func TestAnswers(t *testing.T) {
	data, _ := os.ReadFile("testdata/answers.json")
	var cases []struct {
		Answer   string   `json:"answer"`
		Tools    []string `json:"tools"`
		Thinking string   `json:"thinking"`
		Err      bool     `json:"err"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		m := &scripted{answer: tc.Answer}
		p := tafc.Think(context.Background(), tafc.Options{Model: m}, "please read main.go", tools)
		if tc.Err {
			if !errors.Is(p.Err, tafc.ErrNoTools) || len(p.Tools) != 4 {
				t.Errorf("%q: %+v, want every tool and ErrNoTools", tc.Answer, p)
			}
			continue
		}
		if p.Err != nil || !slices.Equal(p.Tools, tc.Tools) || tc.Thinking != "" && p.Thinking != tc.Thinking {
			t.Errorf("%q: %+v, want tools %v thinking %q", tc.Answer, p, tc.Tools, tc.Thinking)
		}
		if len(m.prompts) != 1 || !strings.Contains(m.prompts[0], "please read main.go") || !strings.Contains(m.prompts[0], "- Glob: Find files") {
			t.Errorf("prompt %q", m.prompts)
		}
	}
	p := tafc.Think(context.Background(), tafc.Options{Model: &scripted{err: errors.New("timeout")}}, "x", tools)
	if p.Err == nil || len(p.Tools) != 4 || p.Off {
		t.Errorf("model failure: %+v", p)
	}
	if got := tafc.Select(tools, tafc.Plan{Tools: []string{"Glob", "Read"}}); len(got) != 2 || got[0].Name != "Read" {
		t.Errorf("Select = %v", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("think\nTOOLS: Read, Bash")
	f.Fuzz(func(t *testing.T, answer string) {
		_, chosen, err := tafc.Parse(answer, []string{"Bash", "Read"})
		if err == nil && len(chosen) > 2 {
			t.Fatalf("%q chose %v", answer, chosen)
		}
		for _, c := range chosen {
			if c != "Bash" && c != "Read" {
				t.Fatalf("%q chose unknown %q", answer, c)
			}
		}
	})
}
