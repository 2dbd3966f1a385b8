package policy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/policy"
)

type layerCase struct {
	name, want string
	files      map[string]string
}

func layerCases(t testing.TB) []layerCase {
	b, err := os.ReadFile("testdata/layers.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []layerCase
	for _, chunk := range strings.Split(string(b), "\n== ")[1:] {
		head, body, _ := strings.Cut(chunk, "\n")
		name, want, _ := strings.Cut(head, " | ")
		c := layerCase{name: name, want: want, files: map[string]string{}}
		for _, f := range strings.Split("\n"+body, "\n-- ")[1:] {
			kind, text, _ := strings.Cut(f, "\n")
			c.files[kind] = text
		}
		out = append(out, c)
	}
	return out
}

// load writes the case's files and loads system → user → project.
func (c layerCase) load(t testing.TB) (*policy.Config, error) {
	dir := t.TempDir()
	files := policy.Files{System: filepath.Join(dir, "system.toml"), User: filepath.Join(dir, "user.toml")}
	project := filepath.Join(dir, "project")
	os.MkdirAll(project, 0o700)
	for kind, text := range c.files {
		p := map[string]string{"system": files.System, "user": files.User, "project": filepath.Join(project, policy.ProjectFile)}[kind]
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := policy.LoadFiles(files)
	if err != nil {
		return nil, err
	}
	return cfg.ForProject(project)
}

// TestLayers: system → user → project; a project file can only tighten,
// and an error names both files when two are involved.
func TestLayers(t *testing.T) {
	for _, c := range layerCases(t) {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := c.load(t)
			if want, ok := strings.CutPrefix(c.want, "error: "); ok {
				if err == nil {
					t.Fatalf("loaded, want error %q", want)
				}
				for _, part := range strings.Split(want, "+") {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("error %q lacks %q", err, part)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			th := cfg.ThresholdsOr(toolwall.DefaultThresholds())
			for _, kv := range strings.Fields(strings.TrimPrefix(c.want, "ok")) {
				k, v, _ := strings.Cut(kv, "=")
				var got string
				switch {
				case k == "warn":
					got = fmt.Sprint(th.Warn)
				case k == "block":
					got = fmt.Sprint(th.Block)
				case k == "turns":
					got = fmt.Sprint(cfg.Memory.Turns)
				case k == "rules":
					got = fmt.Sprint(len(cfg.Rule))
				case k == "ttl":
					got = cfg.Approvals.TTL.String()
				case k == "store":
					got = cfg.Audit.Store
				case strings.HasPrefix(k, "action:"):
					for _, r := range cfg.Rule {
						if r.ID == strings.TrimPrefix(k, "action:") {
							got = r.Action
						}
					}
				}
				if got != v {
					t.Errorf("%s = %s, want %s", k, got, v)
				}
			}
		})
	}
}

func FuzzProjectFile(f *testing.F) {
	for _, c := range layerCases(f) {
		f.Add(c.files["user"], c.files["project"])
	}
	f.Fuzz(func(t *testing.T, user, project string) {
		base, err := policy.Parse("user.toml", []byte(user))
		if err != nil {
			return
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, policy.ProjectFile), []byte(project), 0o600)
		cfg, err := base.ForProject(dir)
		if err != nil {
			return
		}
		// Whatever loads can only be stricter than the operator layers.
		b, p := base.ThresholdsOr(toolwall.DefaultThresholds()), cfg.ThresholdsOr(toolwall.DefaultThresholds())
		if p.Warn > b.Warn || p.Block > b.Block {
			t.Fatalf("project loosened thresholds %+v over %+v", p, b)
		}
		if len(cfg.Rule) < len(base.Rule) {
			t.Fatal("project dropped an operator rule")
		}
		for _, r := range cfg.Rule[len(base.Rule):] {
			if a, _ := toolwall.ParseAction(r.Action); a < toolwall.Warn {
				t.Fatalf("project rule %s with action %s", r.ID, r.Action)
			}
		}
	})
}

// TestPolicyRecheck: after Recheck a project's file is looked at again at
// the next call, however recent the last look: a file written since, and
// one saved by a rename with the old size and time, apply.
func TestPolicyRecheck(t *testing.T) {
	project := t.TempDir()
	file := filepath.Join(project, policy.ProjectFile)
	threshold := func(v string) string { return "[thresholds]\nblock = " + v + "\n" }
	p := policy.New(nil)
	block := func() float64 {
		t.Helper()
		cfg, err := p.For(project)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Thresholds.Block == nil {
			return 0
		}
		return *cfg.Thresholds.Block
	}
	if got := block(); got != 0 {
		t.Fatalf("no project file: block %v", got)
	}
	if err := os.WriteFile(file, []byte(threshold("0.5")), 0o600); err != nil {
		t.Fatal(err)
	}
	p.Recheck()
	if got := block(); got != 0.5 {
		t.Fatalf("written, after Recheck: block %v, want 0.5", got)
	}
	old, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	tmp := file + ".new"
	if err := os.WriteFile(tmp, []byte(threshold("0.4")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	p.Recheck()
	if got := block(); got != 0.4 {
		t.Fatalf("saved by a rename with the old size and time, after Recheck: block %v, want 0.4", got)
	}
}
