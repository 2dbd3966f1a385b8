package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/policy"
)

// exampleCall reads a catalog example: "TOOL {json}" or a shell command.
func exampleCall(ex string) toolwall.Call {
	c := toolwall.NewBashCall(ex)
	if tool, in, ok := strings.Cut(ex, " {"); ok && !strings.ContainsAny(tool, " $'\"") && tool != "" && tool[0] >= 'A' && tool[0] <= 'Z' {
		c = toolwall.Call{Tool: tool, Input: json.RawMessage("{" + in)}
	}
	c.Cwd, c.Project, c.Home = "/workspace/app", "/workspace/app", "/home/user"
	return c
}

// TestRuleCatalog: every rule has an analyzer, an action and what it
// protects; every example the catalog gives is stopped by that very rule
// in the engine that ships.
func TestRuleCatalog(t *testing.T) {
	e := New(Options{})
	rules := Rules(nil)
	if len(rules) < 100 {
		t.Fatalf("%d rules", len(rules))
	}
	for _, r := range rules {
		if r.ID == "" || len(r.Analyzers) == 0 || r.Protects == "" {
			t.Errorf("incomplete entry %+v", r)
		}
		if r.Example == "" {
			continue
		}
		v := e.Evaluate(context.Background(), exampleCall(r.Example))
		if !slices.Contains(v.Rules(), r.ID) {
			t.Errorf("%s: its example %q gives %v %v", r.ID, r.Example, v.Action, v.Rules())
		}
	}
}

// TestEveryFindingListed: every rule id a finding carries on the test
// suites' inputs — the spec cases and every command or tool input in the
// analyzers' and the gate's testdata tables — is in the catalog.
func TestEveryFindingListed(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range Rules(nil) {
		listed[r.ID] = true
	}
	e := New(Options{})
	seen := map[string]string{}
	try := func(c toolwall.Call) {
		c.Cwd, c.Project, c.Home = "/workspace/app", "/workspace/app", "/home/user"
		for _, id := range e.Evaluate(context.Background(), c).Rules() {
			if _, ok := seen[id]; !ok {
				seen[id] = c.Summary()
			}
		}
	}
	n := 0
	for _, root := range []string{"../analyzers", "../testdata", "../gate", "../chain", "../policy/testdata"} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.Contains(p, "testdata") || !(strings.HasSuffix(p, ".tsv") || strings.HasSuffix(p, ".jsonl")) {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				line := sc.Text()
				if strings.HasPrefix(line, "#") {
					continue
				}
				if strings.HasSuffix(p, ".jsonl") {
					var m struct {
						Tool, Command string
						Input         json.RawMessage
					}
					if json.Unmarshal([]byte(line), &m) == nil && (m.Command != "" || len(m.Input) > 0) {
						c := toolwall.NewBashCall(m.Command)
						if m.Tool != "" && m.Tool != toolwall.ToolBash {
							c = toolwall.Call{Tool: m.Tool, Input: m.Input}
						}
						try(c)
						n++
					}
					continue
				}
				fs := strings.Split(line, "\t")
				for i, fld := range fs {
					fld = strings.ReplaceAll(fld, `\n`, "\n")
					switch {
					case strings.HasPrefix(fld, "{") && i > 0:
						try(toolwall.Call{Tool: fs[i-1], Input: json.RawMessage(fld)})
					case strings.ContainsAny(fld, " /"):
						try(toolwall.NewBashCall(fld))
					default:
						continue
					}
					n++
				}
			}
			return sc.Err()
		})
	}
	if n < 2000 {
		t.Fatalf("only %d inputs read", n)
	}
	for id, ex := range seen {
		if !listed[id] {
			t.Errorf("rule %s (seen on %q) is not in the catalog: list it in its analyzer's rules.go", id, ex)
		}
	}
}

func TestCheckDisabled(t *testing.T) {
	for _, tt := range []struct {
		disable []string
		want    string
	}{
		{[]string{"priv.sudo", "git.reset-hard", "fork-bomb"}, ""},
		{[]string{"rm.dangerous-targets"}, `"rm.dangerous-targets" is no rule id (the nearest is "rm.dangerous-target"`},
		{[]string{"priv.sudo", "git.reset-hrad"}, `the nearest is "git.reset-hard"`},
		{[]string{"team.no-force-push"}, `"team.no-force-push" is no rule id`},
	} {
		err := CheckDisabled(&policy.Config{Source: "/c.toml", Rules: policy.Rules{Disable: tt.disable}})
		var pe *policy.Error
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.disable, err)
		case tt.want != "" && (!errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want %q", tt.disable, err, tt.want)
		}
	}
	cfg, err := policy.Parse("/c.toml", []byte(`[rules]
disable = ["team.no-force-push"]
[[rule]]
id = "team.no-force-push"
command = ["git push ** --force **"]
action = "deny"
reason = "no"
match = ["git push --force origin main"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckDisabled(cfg); err != nil {
		t.Errorf("a [[rule]] id: %v", err)
	}
}

// TestUnswitchableAreRules: every id rules.disable may not name is a rule
// of the catalog, and the ids of the gate's own failures are among them.
func TestUnswitchableAreRules(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range Rules(nil) {
		ids[r.ID] = true
	}
	n := 0
	for id := range ids {
		if toolwall.Unswitchable(id) {
			n++
		}
	}
	for _, id := range []string{"config.invalid", "shell.limit", "shell.parse-error", "shell.unclosed-heredoc", "shell.lookalike-dash", "pwsh.parse-error", "files.bad-input", "policy.self-approve", toolwall.RuleInternal, toolwall.RuleTimeout, toolwall.RuleMalformed} {
		if !ids[id] {
			t.Errorf("%s is no rule of the catalog", id)
		}
		if !toolwall.Unswitchable(id) {
			t.Errorf("%s can be switched off", id)
		}
	}
	if n < 11 {
		t.Errorf("only %d unswitchable rules in the catalog", n)
	}
}
