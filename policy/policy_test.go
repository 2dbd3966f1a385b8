package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/advisors/guardrail"
)

type configCase struct{ name, want, body string }

func configCases(t testing.TB) []configCase {
	b, err := os.ReadFile("testdata/configs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []configCase
	for _, chunk := range strings.Split(string(b), "\n== ")[1:] {
		head, body, _ := strings.Cut(chunk, "\n")
		name, want, _ := strings.Cut(head, " | ")
		out = append(out, configCase{name, want, body})
	}
	return out
}

func TestParse(t *testing.T) {
	for _, c := range configCases(t) {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse("configs.txt", []byte(c.body))
			switch {
			case c.want == "ok" && err != nil:
				t.Fatalf("error %v", err)
			case c.want != "ok" && (err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error: "))):
				t.Fatalf("error %v, want %s", err, c.want)
			case c.want == "ok" && cfg.Source != "configs.txt":
				t.Errorf("source %q", cfg.Source)
			}
		})
	}
}

func TestFull(t *testing.T) {
	var body string
	for _, c := range configCases(t) {
		if c.name == "full" {
			body = c.body
		}
	}
	cfg, err := Parse("x", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	th := cfg.ThresholdsOr(toolwall.DefaultThresholds())
	if th.Warn != 0.3 || th.Block != 0.8 || cfg.StatePath("/h") != "/h/state.db" || cfg.Memory.Turns != 5 || cfg.Memory.Retention.Hours() != 24 || len(cfg.Rules.Disable) != 2 {
		t.Errorf("config %+v thresholds %+v", cfg, th)
	}
	if th := (&Config{}).ThresholdsOr(toolwall.DefaultThresholds()); th != toolwall.DefaultThresholds() {
		t.Errorf("defaults %+v", th)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TOOLWALL_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", dir)
	if cfg, err := Load(""); err != nil || cfg.Source != "" {
		t.Fatalf("no file at the default place: %+v, %v", cfg, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil {
		t.Error("a missing explicit file loaded")
	}
	p := filepath.Join(dir, "toolwall", "config.toml")
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("[rules]\ndisable = [\"priv.sudo\"]\n"), 0o600)
	if cfg, err := Load(""); err != nil || cfg.Source != p {
		t.Errorf("default place: %+v, %v", cfg, err)
	}
	t.Setenv("TOOLWALL_CONFIG", filepath.Join(dir, "nope.toml"))
	if _, err := Load(""); err == nil {
		t.Error("a missing $TOOLWALL_CONFIG loaded")
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range configCases(f) {
		f.Add(c.body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		c1, e1 := Parse("f", []byte(body))
		c2, e2 := Parse("f", []byte(body))
		if (e1 == nil) != (e2 == nil) {
			t.Fatal("not deterministic")
		}
		if e1 == nil {
			th := c1.ThresholdsOr(toolwall.DefaultThresholds())
			if th.Warn < 0 || th.Block > 1 || th.Block < th.Warn {
				t.Fatalf("accepted bad thresholds %+v", th)
			}
			_ = c2
		}
	})
}

// TestSecondOpinions reads the [llm], [guardrail] and [advisor] tables
// into the stages' settings.
func TestSecondOpinions(t *testing.T) {
	var body string
	for _, c := range configCases(t) {
		if c.name == "second opinions, full" {
			body = c.body
		}
	}
	cfg, err := Parse("x", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Members()
	if len(m) != 3 || m[0].Model != "qwen2.5:7b" || m[0].Timeout.Milliseconds() != 2500 || m[0].MaxTokens != 200 {
		t.Fatalf("members %+v", m)
	}
	if m[1].Model != "llama3.1:8b" || m[1].BaseURL != "http://127.0.0.1:11434/v1" || m[1].APIKeyEnv != "OLLAMA_KEY" || m[1].Timeout != m[0].Timeout {
		t.Errorf("ensemble member does not inherit [llm]: %+v", m[1])
	}
	if m[2].Provider != "anthropic" || m[2].APIKeyEnv != "ANTHROPIC_API_KEY" {
		t.Errorf("ensemble member %+v", m[2])
	}
	p := cfg.GuardrailPolicy()
	if p.Threshold.String() != "MEDIUM" || !p.IgnoreUnknown || p.Action != toolwall.Deny || cfg.GuardrailWindow() != 10 {
		t.Errorf("policy %+v window %d", p, cfg.GuardrailWindow())
	}
	e := cfg.GuardrailExperiences("/h")
	if e.Dir != "/h/.config/toolwall/experiences" || e.MCPConfig != "/h/.claude.json" || len(e.DetectPorts) != 2 || len(e.Names) != 2 {
		t.Errorf("experiences %+v", e)
	}
	if *cfg.Advisor.Threshold != 80 || !cfg.Advisor.Enabled {
		t.Errorf("advisor %+v", cfg.Advisor)
	}
	var zero Config
	if zero.GuardrailWindow() != 20 || zero.GuardrailPolicy() != (guardrail.Policy{}) {
		t.Errorf("defaults: window %d, policy %+v", zero.GuardrailWindow(), zero.GuardrailPolicy())
	}
}
