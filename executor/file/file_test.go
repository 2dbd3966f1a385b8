package file_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/executor/executortest"
	"github.com/toolwall/toolwall/executor/file"
)

// layout builds a project with secrets, links in and out, and a
// directory outside the project.
func layout(t *testing.T) (project, outside string) {
	dir := t.TempDir()
	project, outside = filepath.Join(dir, "proj"), filepath.Join(dir, "outside")
	files := map[string]string{
		"proj/a.txt": "alpha\nbeta\ngamma\n", "proj/twice.txt": "x x", "proj/.env": "SECRET=1",
		"proj/config/public.env": "PUBLIC=1", "proj/secrets/key": "k", "proj/sub/b.go": "package b",
		"outside/secret": "s3cret",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link-in": "a.txt", "link-env": ".env", "link-out": filepath.Join(outside, "secret"), "dirlink-out": outside} {
		if err := os.Symlink(target, filepath.Join(project, link)); err != nil {
			t.Fatal(err)
		}
	}
	return project, outside
}

type fileCase struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	Want  string          `json:"want"`
	Text  string          `json:"text"`
	Exact bool            `json:"exact"`
	Check string          `json:"check"`
	Note  string          `json:"note"`
	// Unapproved leaves the gate's asks unanswered; other cases approve
	// them (the read sandbox and the roots are what they test).
	Unapproved bool `json:"unapproved"`
}

// TestFile runs testdata/cases.json, each case on a fresh project, with
// the read sandbox deny_read = ["**/*.env", "**/secrets/**"], allow_read
// = ["**/public.env"].
func TestFile(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []fileCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		project, outside := layout(t)
		project, _ = filepath.EvalSymlinks(project)
		sink := &executortest.JSONL{Path: filepath.Join(t.TempDir(), "audit.jsonl")}
		e, err := file.New(file.Options{Gate: engine.New(engine.Options{}), Audit: sink, Project: project,
			DenyRead: []string{"**/*.env", "**/secrets/**"}, AllowRead: []string{"**/public.env"}})
		if err != nil {
			t.Fatal(err)
		}
		in := strings.ReplaceAll(string(tc.Input), "PROJECT", project)
		call := toolwall.Call{Tool: tc.Tool, Input: json.RawMessage(in), Cwd: project, Home: filepath.Join(outside, "home")}
		out, err := e.Execute(context.Background(), &executor.Request{Call: call, Approved: !tc.Unapproved})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		text := strings.ReplaceAll(tc.Text, "PROJECT", project)
		ok := true
		switch tc.Want {
		case "ok":
			ok = !out.IsError && (tc.Exact && out.Text == text || !tc.Exact && strings.Contains(out.Text, text))
		case "error":
			ok = out.IsError && !strings.HasPrefix(out.Text, "refused by toolwall") && strings.Contains(out.Text, text)
		default:
			ok = out.IsError && strings.Contains(out.Text, tc.Want)
		}
		if !ok {
			t.Errorf("case %d %s %s (%s): %q, want %s %q", i, tc.Tool, in, tc.Note, out.Text, tc.Want, text)
		}
		if name, body, found := strings.Cut(tc.Check, "="); found {
			if got, err := os.ReadFile(filepath.Join(project, name)); err != nil || string(got) != body {
				t.Errorf("case %d: %s holds %q (%v), want %q", i, name, got, err, body)
			}
		}
		if s, _ := os.ReadFile(filepath.Join(outside, "secret")); string(s) != "s3cret" {
			t.Errorf("case %d: the file outside the roots was changed", i)
		}
		if tc.Tool != "Bash" && out.AuditID == "" {
			t.Errorf("case %d: no audit record", i)
		}
	}
}

// TestSandboxInactive: an empty deny_read list means no read sandbox,
// whatever allow_read says.
func TestSandboxInactive(t *testing.T) {
	project, _ := layout(t)
	e, err := file.New(file.Options{Gate: engine.New(engine.Options{}), Project: project, AllowRead: []string{"**/nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := e.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: "Read", Input: []byte(`{"file_path":".env"}`), Cwd: project}, Approved: true})
	if out.IsError || out.Text != "SECRET=1" {
		t.Errorf("inactive sandbox: %+v", out)
	}
	if _, err := file.New(file.Options{Project: project, DenyRead: []string{"[broken"}}); err == nil {
		t.Error("an invalid glob was accepted")
	}
}

func TestLeaf(t *testing.T) {
	executortest.NoEmbedding(t, ".")
	project, _ := layout(t)
	e, _ := file.New(file.Options{Project: project})
	for tool, want := range map[string]bool{"Read": true, "LS": true, "Glob": true, "Write": false, "Edit": false} {
		if e.Speculatable(toolwall.Call{Tool: tool}) != want {
			t.Errorf("Speculatable(%s) != %v", tool, want)
		}
	}
	out, _ := e.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: "Read", Input: []byte(`{"file_path":"a.txt"}`), Cwd: project}})
	if !out.IsError || !strings.Contains(out.Text, toolwall.RuleConfig) {
		t.Errorf("a gateless file executor read: %+v", out)
	}
}

func FuzzFileInput(f *testing.F) {
	for _, s := range []string{`{"file_path":"a.txt"}`, `{"file_path":"../x"}`, `{"pattern":"**/*","path":"/"}`, `{"file_path":"\u0000"}`, `[]`} {
		f.Add("Read", s)
		f.Add("Glob", s)
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
		e, err := file.New(file.Options{Gate: engine.New(engine.Options{}), Project: dir})
		if err != nil {
			t.Fatal(err)
		}
		if tool == "Write" || tool == "Edit" {
			return // the fuzzer must not write where it pleases
		}
		out, err := e.Execute(context.Background(), &executor.Request{Call: toolwall.Call{Tool: tool, Input: json.RawMessage(input), Cwd: dir}})
		if err != nil || out == nil {
			t.Fatalf("%s %q: %v", tool, input, err)
		}
	})
}
