//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolwall/toolwall/host"
	"github.com/toolwall/toolwall/host/view"
	"github.com/toolwall/toolwall/llm/llmtest"
)

// TestResidentFollowsChanges: whatever changes between two calls (a
// project's .toolwall.toml, the configuration, --config, $HOME, the
// guardrail's safety experiences) and however large the answer, a call
// through toolwall-hook and a running resident, which keeps the last
// call's engine, gets the answer `toolwall hook` gives itself for the
// same payload, environment and files (testdata/resident-changes.txt).
func TestResidentFollowsChanges(t *testing.T) {
	in := newResidentInstall(t)
	helperBin := filepath.Join(filepath.Dir(bin), "toolwall-llm")
	data, err := os.ReadFile(helperBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in.dir, "toolwall-llm"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	in.start(t, "1m")
	srv := llmtest.New(t)
	srv.Respond(func(r llmtest.Request) llmtest.Reply {
		all := r.System
		for _, m := range r.Messages {
			all += m.Content
		}
		if strings.Contains(all, "RATE-HIGH") {
			return llmtest.Reply{Text: "RISK: HIGH\nThe experiences say so."}
		}
		return llmtest.Reply{Text: "RISK: LOW\nIt only reads."}
	})
	m := srv.OpenAI()
	llmTable := fmt.Sprintf("[llm]\nprovider = %q\nbase_url = %q\nmodel = %q\ntimeout = \"2s\"\n", m.Provider, m.BaseURL, m.Model)
	for _, c := range changeCases(t, "testdata/resident-changes.txt") {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			expand := strings.NewReplacer("{dir}", dir, "{project}", filepath.Join(dir, "project"), "{home}", filepath.Join(dir, "home"), "{llm}", llmTable).Replace
			for _, d := range []string{"project", "home", "r", "b"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "config.toml"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			env := append(slices.Clone(in.env), "TOOLWALL_CONFIG="+filepath.Join(dir, "config.toml"), "CLAUDE_PROJECT_DIR="+filepath.Join(dir, "project"), "HOME="+filepath.Join(dir, "home"))
			args := []string{"claude-code"}
			for _, st := range c.steps {
				verb, rest, _ := strings.Cut(st.text, " ")
				switch verb {
				case "write", "replace":
					file, text, _ := strings.Cut(rest, " ")
					writeStep(t, expand(file), expand(text), verb == "replace")
				case "env":
					env = append(env, expand(rest))
				case "args":
					args = strings.Fields(expand(rest))
				case "bash", "patch":
					call, want, ok := strings.Cut(rest, " => ")
					if !ok {
						t.Fatalf("line %d: no => in %q", st.line, st.text)
					}
					payload := changePayload(t, verb, expand(call), filepath.Join(dir, "project"))
					// Each side keeps its own state and audit log: a
					// session's refusals on one side would change the
					// other's answer (chain.repeated-refusal).
					full := append([]string{"hook"}, args...)
					serve := func() host.Response {
						return runProgram(t, in.client, append(slices.Clone(env), "TOOLWALL_RESIDENT=only", "TOOLWALL_STATE="+filepath.Join(dir, "r", "state.db")), full, payload)
					}
					served := serve()
					if served.Exit == 2 && strings.Contains(served.Stderr, "no resident served") {
						// Once more: on a loaded machine (CI runs packages
						// at once) a big answer can miss the client's 5 s;
						// a resident that cannot serve it misses twice.
						served = serve()
					}
					direct := runProgram(t, in.full, append(slices.Clone(env), "TOOLWALL_STATE="+filepath.Join(dir, "b", "state.db")), full, payload)
					if served.Exit == 2 && strings.Contains(served.Stderr, "no resident served") {
						t.Fatalf("line %d (%s): not served: %s", st.line, st.text, served.Stderr)
					}
					if masked(served.Stdout) != masked(direct.Stdout) || served.Exit != direct.Exit {
						t.Errorf("line %d (%s): the resident answered\n%+v\nthe binary\n%+v", st.line, st.text, served, direct)
					}
					if masked(served.Stderr) != masked(direct.Stderr) {
						t.Errorf("line %d (%s): the resident's stderr (%d bytes) is not the binary's (%d bytes)", st.line, st.text, len(served.Stderr), len(direct.Stderr))
					}
					if got := view.For(args[len(args)-1])(direct, true); got.Action.String() != want {
						t.Errorf("line %d (%s): the binary's action %s, want %s (%s)", st.line, st.text, got.Action, want, got.Reason)
					}
				default:
					t.Fatalf("line %d: unknown step %q", st.line, st.text)
				}
			}
		})
	}
}

// changeCase is one case of testdata/resident-changes.txt.
type changeCase struct {
	name  string
	steps []changeStep
}

type changeStep struct {
	line int
	text string
}

// changeCases reads the cases of file.
func changeCases(t *testing.T, file string) []changeCase {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []changeCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "case "):
			out = append(out, changeCase{name: strings.TrimPrefix(line, "case ")})
		case len(out) == 0:
			t.Fatalf("%s:%d: a step before the first case", file, n)
		default:
			out[len(out)-1].steps = append(out[len(out)-1].steps, changeStep{n, line})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeStep writes text ("\n" escapes; "-" is empty) to file; by a rename
// that keeps file's size and modification time when replace is set.
func writeStep(t *testing.T, file, text string, replace bool) {
	t.Helper()
	if text == "-" {
		text = ""
	}
	text = strings.ReplaceAll(text, `\n`, "\n")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if !replace {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if old.Size() != int64(len(text)) {
		t.Fatalf("replace %s: %d bytes for %d", file, len(text), old.Size())
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
}

// changePayload is the payload of a bash or patch step in project.
func changePayload(t *testing.T, verb, call, project string) []byte {
	t.Helper()
	var p map[string]any
	switch verb {
	case "bash":
		p = pre("changes", call)
		p["cwd"] = project
	case "patch":
		n, file, _ := strings.Cut(call, " ")
		count, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("patch %q: %v", call, err)
		}
		lines := []string{"*** Begin Patch"}
		for i := range count {
			lines = append(lines, fmt.Sprintf("*** Add File: %s%d", file, i), "+* * * * * root true")
		}
		lines = append(lines, "*** End Patch")
		p = map[string]any{"session_id": "changes", "turn_id": "t", "transcript_path": nil, "cwd": project, "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
			"tool_name": "apply_patch", "tool_input": map[string]any{"command": strings.Join(lines, "\n")}, "tool_use_id": "c1"}
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var logTime = regexp.MustCompile(`time=\S+`)

// masked is out without its decision ids and log times.
func masked(out string) string {
	return logTime.ReplaceAllString(decisionID.ReplaceAllString(out, "ID"), "time=T")
}
